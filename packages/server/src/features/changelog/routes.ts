import { Type } from 'typebox';
import { clampLimit, errorResponses, MAX_OFFSET, Timestamp } from '../../http/common-schemas.ts';
import type { App, Deps } from '../../public-api/context.ts';
import { keyOf } from '../../public-api/context.ts';
import { STATUS_LABELS } from '../../resources/features/index.ts';
import { listChangelog, type ChangelogRow } from './store.ts';
import { isTrue } from '../../db/database.ts';

const ChangelogEntry = Type.Object(
  {
    id: Type.String(),
    featureId: Type.Optional(Type.String()),
    projectId: Type.String(),
    featureTitle: Type.String(),
    featureType: Type.String(),
    statusKey: Type.String(),
    statusLabel: Type.String(),
    summary: Type.String(),
    description: Type.String({ description: 'HTML' }),
    published: Type.Boolean(),
    createdAt: Timestamp,
    publishedAt: Type.Union([Timestamp, Type.Null()]),
  },
  { additionalProperties: false },
);

const ChangelogQuery = Type.Object({
  published: Type.Optional(Type.Boolean({ description: 'Omitted: published entries only. false: drafts.' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, default: 50 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_OFFSET, default: 0 })),
});

/** A linked entry shows its feature's title, type and status as they are now. */
export function presentEntry(row: ChangelogRow) {
  const linked = row.feature_id !== null && row.f_title !== null;
  const status = row.f_status as keyof typeof STATUS_LABELS | null;
  return {
    id: row.id,
    ...(linked ? { featureId: row.feature_id! } : {}),
    projectId: row.project_id,
    featureTitle: linked ? row.f_title! : '',
    featureType: linked ? row.f_type! : '',
    statusKey: linked && status ? status : row.status_key,
    statusLabel: linked && status ? STATUS_LABELS[status] : row.status_label,
    summary: row.summary,
    description: row.description,
    published: isTrue(row.published),
    createdAt: row.created_at,
    publishedAt: row.published_at,
  };
}

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
            { entries: Type.Array(ChangelogEntry), count: Type.Integer(), limit: Type.Integer(), offset: Type.Integer() },
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
