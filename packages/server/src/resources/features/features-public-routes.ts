import fastJson from 'fast-json-stringify';
import { ChangeCache } from '../../http/change-cache.ts';
import { clampLimit, errorResponses } from '../../http/common-schemas.ts';
import { BadRequestError, NotFoundError, SpecFixedBadRequestError } from '../../kernel/errors.ts';
import type { App, Deps } from '../../routing/public-api/context.ts';
import { scopeOf } from '../../routing/public-api/context.ts';
import { FEATURE_CREATED_MESSAGE, presentFullFeature, presentListItem, presentPublicFeature } from './presenter.ts';
import {
  CreatedFeature,
  CreateFeatureBody,
  FeatureId,
  FeatureList,
  FullFeature,
  INVALID_TYPE_MESSAGE,
  ListFeaturesQuery,
  PatchFeatureBody,
  PublicFeature,
  PUBLISHABLE_PATCH_REFUSAL,
  SUBMITTED_TYPES,
} from './schemas.ts';
import { createFeature, FEATURE_SUBMISSION_LIMIT } from './service.ts';
import { findPublicFeature, listPublicFeatures, updateFeature } from './store.ts';

export async function featureRoutes(app: App, { db, config }: Deps): Promise<void> {
  // Serialised list pages, reused until the next commit (SQLite); read afresh otherwise.
  const listPages = new ChangeCache<string>(db, 5000);
  // The same serialiser Fastify would build from the response schema, so the shape is identical.
  const serializeList = fastJson(FeatureList);
  app.post(
    '/features',
    {
      config: { permission: 'features:write', rateLimit: FEATURE_SUBMISSION_LIMIT },
      // The type check comes first and has its own fixed text, whatever else is wrong.
      preValidation: async (request) => {
        const body = request.body as Record<string, unknown> | null;
        if (body && typeof body === 'object' && 'type' in body && !SUBMITTED_TYPES.includes(body['type'] as never)) {
          throw new SpecFixedBadRequestError(INVALID_TYPE_MESSAGE);
        }
      },
      schema: {
        operationId: 'createFeature',
        summary: 'Submit a feature request or a bug',
        tags: ['features'],
        body: CreateFeatureBody,
        response: { 201: CreatedFeature, ...errorResponses(400, 401, 403, 413, 415, 429) },
      },
    },
    async (request, reply) => {
      // The public API's hook has counted FEATURE_SUBMISSION_LIMIT already (route config above).
      const row = await createFeature(
        db,
        { scope: scopeOf(request), platformProjectId: config.platformProjectId },
        request.body,
      );
      return reply.code(201).send({ ...presentPublicFeature(row), message: FEATURE_CREATED_MESSAGE });
    },
  );

  app.get(
    '/features',
    {
      config: { permission: 'features:read', memo: true },
      schema: {
        operationId: 'listFeatures',
        summary: 'List public features, newest first',
        tags: ['features'],
        querystring: ListFeaturesQuery,
        response: { 200: FeatureList, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request, reply) => {
      const limit = clampLimit(request.query.limit, 50, 100);
      const offset = request.query.offset ?? 0;
      const scope = scopeOf(request);
      const { status, type } = request.query;
      const page = await listPages.get(
        `${scope.projectId}|${scope.environment}|${status ?? ''}|${type ?? ''}|${limit}|${offset}`,
        async () => {
          const rows = await listPublicFeatures(db, scope, { status, type, limit, offset });
          return serializeList({ features: rows.map(presentListItem), count: rows.length, limit, offset });
        },
      );
      return reply
        .type('application/json; charset=utf-8')
        .serializer((payload: unknown) => payload as string)
        .send(page as never);
    },
  );

  app.get(
    '/features/:featureId',
    {
      config: { permission: 'features:read' },
      schema: {
        operationId: 'getFeature',
        summary: 'Read one public feature',
        tags: ['features'],
        params: FeatureId,
        response: { 200: PublicFeature, ...errorResponses(401, 403, 404, 429) },
      },
    },
    async (request) => {
      const row = await findPublicFeature(db, scopeOf(request), request.params.featureId);
      if (!row) throw new NotFoundError();
      return presentPublicFeature(row);
    },
  );

  app.patch(
    '/features/:featureId',
    {
      config: { permission: 'features:write', secretOnly: PUBLISHABLE_PATCH_REFUSAL },
      schema: {
        operationId: 'updateFeature',
        summary: 'Change status, visibility or developer notes of a feature (internal ones included)',
        tags: ['features'],
        params: FeatureId,
        body: PatchFeatureBody,
        response: { 200: FullFeature, ...errorResponses(400, 401, 403, 404, 413, 415, 429) },
      },
    },
    async (request) => {
      const scope = scopeOf(request);
      const { featureId } = request.params;
      const { internal, status, developerNotes } = request.body;
      if (internal === undefined && status === undefined && developerNotes === undefined) {
        throw new BadRequestError('Send at least one of: internal, status, developerNotes', [
          { field: '(body)', message: 'must contain at least one of internal, status, developerNotes' },
        ]);
      }
      const updated = await updateFeature(db, scope, featureId, { internal, status, developerNotes });
      if (!updated) throw new NotFoundError();
      return presentFullFeature(updated);
    },
  );
}
