import { Type } from 'typebox';
import { isTrue } from '../../db/database.ts';
import { errorResponses, StringEnum, Timestamp } from '../../http/common-schemas.ts';
import { NotFoundError } from '../../kernel/errors.ts';
import type { App, Deps } from '../../public-api/context.ts';
import type { ReleaseRow } from './store.ts';
import { decideVersion, type Release } from './decide.ts';

const VersionInfo = Type.Object(
  {
    updateAvailable: Type.Boolean(),
    updateRequired: Type.Boolean(),
    updateRecommended: Type.Boolean(),
    updateType: StringEnum(['major', 'minor', 'patch', 'prerelease', 'none'] as const),
    latestVersion: Type.Union([
      Type.Object(
        {
          version: Type.String(),
          title: Type.String(),
          releaseNotes: Type.String(),
          downloadUrl: Type.String(),
          releaseDate: Timestamp,
          isBeta: Type.Boolean(),
        },
        { additionalProperties: false },
      ),
      Type.Null(),
    ]),
  },
  { additionalProperties: false },
);


export async function versionCheckRoutes(app: App, { db }: Deps): Promise<void> {
  app.get(
    '/version-check',
    {
      schema: {
        operationId: 'checkVersion',
        summary: "Whether a newer version of the client app exists (no API key)",
        tags: ['site'],
        querystring: Type.Object({
          projectId: Type.String({ minLength: 1, maxLength: 100 }),
          currentVersion: Type.Optional(Type.String({ maxLength: 100, description: 'SemVer or git commit hash' })),
        }),
        response: { 200: VersionInfo, ...errorResponses(400, 404) },
      },
    },
    async (request) => {
      const { projectId, currentVersion } = request.query;
      const project = await db.get('SELECT id FROM projects WHERE id = ?', [projectId]);
      if (!project) throw new NotFoundError();
      const rows = await db.all<ReleaseRow>('SELECT * FROM releases WHERE project_id = ?', [projectId]);
      const releases: Release[] = rows.map((row) => ({
        version: row.version,
        title: row.title,
        releaseNotes: row.release_notes,
        downloadUrl: row.download_url,
        releaseDate: row.release_date,
        isBeta: isTrue(row.is_beta),
        gitCommit: row.git_commit,
        required: isTrue(row.required),
      }));
      return decideVersion(currentVersion, releases);
    },
  );
}
