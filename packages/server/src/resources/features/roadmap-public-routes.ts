import { Type } from 'typebox';
import { clampLimit, errorResponses, StringEnum, Timestamp } from '../../http/common-schemas.ts';
import { BadRequestError } from '../../kernel/errors.ts';
import type { App, Deps } from '../../public-api/context.ts';
import { scopeOf } from '../../public-api/context.ts';
import { FEATURE_STATUSES, FILTER_STATUSES } from './schemas.ts';
import { listRoadmapItems } from './store.ts';

const RoadmapItem = Type.Object(
  {
    id: Type.String(),
    title: Type.String(),
    status: StringEnum(FEATURE_STATUSES),
    voteCount: Type.Integer(),
    commentCount: Type.Integer(),
    createdAt: Timestamp,
  },
  { additionalProperties: false },
);

const Roadmap = Type.Object(
  {
    columns: Type.Array(
      Type.Object(
        { status: StringEnum(FILTER_STATUSES), items: Type.Array(RoadmapItem) },
        { additionalProperties: false },
      ),
    ),
    total: Type.Integer(),
  },
  { additionalProperties: false },
);

const RoadmapQuery = Type.Object({
  status: Type.Optional(
    Type.String({
      maxLength: 200,
      description: `Comma-separated list of: ${FILTER_STATUSES.join(', ')}`,
    }),
  ),
  limit: Type.Optional(Type.Integer({ minimum: 1, default: 100 })),
});

/** Parses `status=planned,done` into canonical column order; unknown names are a 400. */
export function parseStatusList(raw: string | undefined): (typeof FILTER_STATUSES)[number][] {
  if (raw === undefined) return [...FILTER_STATUSES];
  const wanted = raw
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  const unknown = wanted.filter((name) => !FILTER_STATUSES.includes(name as never));
  if (wanted.length === 0 || unknown.length > 0) {
    const message = `must be a comma-separated list of: ${FILTER_STATUSES.join(', ')}`;
    throw new BadRequestError(`Invalid query parameter status: ${message}`, [{ field: 'status', message }]);
  }
  return FILTER_STATUSES.filter((status) => wanted.includes(status));
}

export async function roadmapRoutes(app: App, { db }: Deps): Promise<void> {
  app.get(
    '/roadmap',
    {
      config: { permission: 'features:read' },
      schema: {
        operationId: 'getRoadmap',
        summary: 'Public items grouped by status column, most voted first',
        tags: ['features'],
        querystring: RoadmapQuery,
        response: { 200: Roadmap, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request) => {
      const statuses = parseStatusList(request.query.status);
      const limit = clampLimit(request.query.limit, 100, 200);
      const items = await listRoadmapItems(db, scopeOf(request), statuses, limit);
      const columns = statuses.map((status) => ({
        status,
        items: items
          .filter((item) => item.status === status)
          .map((item) => ({
            id: item.id,
            title: item.title,
            status: item.status,
            voteCount: Number(item.vote_count),
            commentCount: Number(item.comment_count),
            createdAt: item.created_at,
          })),
      }));
      return { columns, total: items.length };
    },
  );
}
