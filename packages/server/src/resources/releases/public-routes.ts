/** The public GET /version-check: whether a client app should update, from the project's releases. */
import { Type } from 'typebox';
import { errorResponses } from '../../http/common-schemas.ts';
import { NotFoundError } from '../../kernel/errors.ts';
import type { App, Deps } from '../../routing/public-api/context.ts';
import { checkVersion } from './check.ts';
import { projectExists } from './read-model.ts';
import { CurrentVersion, VersionInfo } from './schemas.ts';

export async function versionCheckRoutes(app: App, { db }: Deps): Promise<void> {
  app.get(
    '/version-check',
    {
      schema: {
        operationId: 'checkVersion',
        summary: 'Whether a newer version of the client app exists (no API key)',
        tags: ['site'],
        querystring: Type.Object({
          projectId: Type.String({ minLength: 1, maxLength: 100 }),
          currentVersion: Type.Optional(CurrentVersion),
        }),
        response: { 200: VersionInfo, ...errorResponses(400, 404) },
      },
    },
    async (request) => {
      const { projectId, currentVersion } = request.query;
      if (!(await projectExists(db, projectId))) throw new NotFoundError();
      return checkVersion(db, projectId, currentVersion, db);
    },
  );
}
