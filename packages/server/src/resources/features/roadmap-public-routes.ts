import fastJson from 'fast-json-stringify';
import { Type } from 'typebox';
import { ChangeCache } from '../../http/change-cache.ts';
import { clampLimit, errorResponses, StringEnum, Timestamp } from '../../http/common-schemas.ts';
import { BadRequestError } from '../../kernel/errors.ts';
import type { App, Deps } from '../../routing/public-api/context.ts';
import { scopeOf } from '../../routing/public-api/context.ts';
import { FEATURE_STATUSES, FILTER_STATUSES } from './schemas.ts';
import { listRoadmapItems, type RoadmapRow } from './store.ts';

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

/** The columns asked for, in their order, each holding its items in the order read. */
function presentRoadmap(statuses: readonly (typeof FILTER_STATUSES)[number][], items: RoadmapRow[]) {
  const byStatus = new Map(statuses.map((status) => [status as string, [] as unknown[]]));
  for (const item of items) {
    byStatus.get(item.status)?.push({
      id: item.id,
      title: item.title,
      status: item.status,
      voteCount: Number(item.vote_count),
      commentCount: Number(item.comment_count),
      createdAt: item.created_at,
    });
  }
  return { columns: statuses.map((status) => ({ status, items: byStatus.get(status) })), total: items.length };
}

export async function roadmapRoutes(app: App, { db }: Deps): Promise<void> {
  // Serialised roadmaps, reused until the next commit (SQLite); read afresh otherwise. The route
  // is also in the response memo (config.memo), so a repeat is answered by the front door.
  const roadmaps = new ChangeCache<string>(db, 5000);
  // The same serialiser Fastify would build from the response schema, so the shape is identical.
  const serializeRoadmap = fastJson(Roadmap);
  app.get(
    '/roadmap',
    {
      config: { permission: 'features:read', memo: true },
      schema: {
        operationId: 'getRoadmap',
        summary: 'Public items grouped by status column, most voted first',
        tags: ['features'],
        querystring: RoadmapQuery,
        response: { 200: Roadmap, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request, reply) => {
      const statuses = parseStatusList(request.query.status);
      const limit = clampLimit(request.query.limit, 100, 200);
      const scope = scopeOf(request);
      const body = await roadmaps.get(
        `${scope.projectId}|${scope.environment}|${statuses.join(',')}|${limit}`,
        async () => serializeRoadmap(presentRoadmap(statuses, await listRoadmapItems(db, scope, statuses, limit))),
      );
      return reply
        .type('application/json; charset=utf-8')
        .serializer((payload: unknown) => payload as string)
        .send(body as never);
    },
  );
}
