/** The public GET /changelog: published entries (or drafts) of the key's project. */
import { Type } from 'typebox';
import { clampLimit, errorResponses } from '../../http/common-schemas.ts';
import type { App, Deps } from '../../routing/public-api/context.ts';
import { keyOf } from '../../routing/public-api/context.ts';
import { presentEntry } from './presenter.ts';
import { listChangelog } from './read-model.ts';
import { ChangelogEntry, ChangelogQuery } from './schemas.ts';

export async function changelogRoutes(app: App, { db }: Deps): Promise<void> {
  app.get(
    '/changelog',
    {
      config: { permission: 'features:read' },
      schema: {
        operationId: 'getChangelog',
        summary: 'Changelog entries, newest published first',
        tags: ['changelog'],
        querystring: ChangelogQuery,
        response: {
          200: Type.Object(
            {
              entries: Type.Array(ChangelogEntry),
              count: Type.Integer(),
              limit: Type.Integer(),
              offset: Type.Integer(),
            },
            { additionalProperties: false },
          ),
          ...errorResponses(400, 401, 403, 429),
        },
      },
    },
    async (request) => {
      const limit = clampLimit(request.query.limit, 50, 100);
      const offset = request.query.offset ?? 0;
      const rows = await listChangelog(db, keyOf(request).project.id, request.query.published ?? true, limit, offset);
      const entries = rows.map(presentEntry);
      return { entries, count: entries.length, limit, offset };
    },
  );
}
