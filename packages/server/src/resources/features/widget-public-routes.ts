/**
 * The in-app widget's routes of /api/public/v1 (issue 35): similar ideas while a title is typed,
 * the identified person's votes and ideas, and a bug report's screenshot. The person is the host
 * app's signed token in `X-Signpost-User` (an anonymous widget id in `X-Signpost-Visitor` where
 * the board allows anonymous votes); each route calls one use case of widget-service.ts.
 */
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { clampLimit, errorResponses, StringEnum, Timestamp } from '../../http/common-schemas.ts';
import type { App, Deps } from '../../routing/public-api/context.ts';
import { scopeOf } from '../../routing/public-api/context.ts';
import { FEATURE_CREATED_MESSAGE, presentPublicFeature } from './presenter.ts';
import { CreatedFeature, CreateFeatureBody, FEATURE_STATUSES, FeatureId } from './schemas.ts';
import { FEATURE_SUBMISSION_LIMIT } from './service.ts';
import {
  ATTACHMENT_LIMITS,
  attachScreenshot,
  listMyIdeas,
  submitAsPerson,
  suggestIdeas,
  voteFromWidget,
  type WidgetCaller,
} from './widget-service.ts';

const tags = ['widget'];

const header = (request: FastifyRequest, name: string) => {
  const value = request.headers[name];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
};
const callerOf = (request: FastifyRequest): WidgetCaller => ({
  token: header(request, 'x-signpost-user'),
  visitorId: header(request, 'x-signpost-visitor'),
});

const IdeaCore = {
  id: Type.String(),
  title: Type.String(),
  status: StringEnum(FEATURE_STATUSES),
  /** The status as the board shows it ("Planned", "Done"…). */
  statusLabel: Type.String(),
  voteCount: Type.Integer(),
};
const Suggestions = Type.Object(
  {
    ideas: Type.Array(Type.Object({ ...IdeaCore, voted: Type.Boolean() }, { additionalProperties: false })),
  },
  { additionalProperties: false },
);
const SuggestionsQuery = Type.Object({
  title: Type.String({ maxLength: 200 }),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 10 })),
});
const MyIdeas = Type.Object(
  {
    ideas: Type.Array(
      Type.Object(
        {
          ...IdeaCore,
          type: Type.String(),
          createdAt: Timestamp,
          shippedIn: Type.Union([
            Type.Object(
              { id: Type.String(), summary: Type.String(), publishedAt: Type.Union([Timestamp, Type.Null()]) },
              { additionalProperties: false },
            ),
            Type.Null(),
          ]),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
const VoteState = Type.Object(
  { featureId: Type.String(), voteCount: Type.Integer(), voted: Type.Boolean() },
  { additionalProperties: false },
);
const Attachment = Type.Object(
  {
    id: Type.String(),
    featureId: Type.String(),
    contentType: Type.String(),
    size: Type.Integer(),
    createdAt: Timestamp,
  },
  { additionalProperties: false },
);
const IdentityHeaders = Type.Object({
  'x-signpost-user': Type.Optional(Type.String({ maxLength: 4096 })),
  'x-signpost-visitor': Type.Optional(Type.String({ maxLength: 64 })),
});

export async function widgetRoutes(app: App, { db, config }: Deps): Promise<void> {
  const ctx = { db, config };

  app.get(
    '/suggestions',
    {
      config: { permission: 'features:read' },
      schema: {
        operationId: 'suggestFeatures',
        summary: 'Public ideas similar to a title being typed (the board search), with votes and status',
        tags,
        querystring: SuggestionsQuery,
        headers: IdentityHeaders,
        response: { 200: Suggestions, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request) =>
      suggestIdeas(
        ctx,
        scopeOf(request),
        request.query.title,
        clampLimit(request.query.limit, 5, 10),
        callerOf(request),
      ),
  );

  for (const [method, on] of [
    ['PUT', true],
    ['DELETE', false],
  ] as const) {
    app.route({
      method,
      url: '/me/votes/:featureId',
      config: { permission: 'features:write' },
      schema: {
        operationId: on ? 'addMyVote' : 'removeMyVote',
        summary: on
          ? "Vote as the widget's identified person (or anonymous visitor where the board allows it)"
          : "Take back the widget person's vote",
        tags,
        params: FeatureId,
        headers: IdentityHeaders,
        response: { 200: VoteState, ...errorResponses(400, 401, 403, 404, 429) },
      },
      handler: async (request) =>
        voteFromWidget(
          ctx,
          scopeOf(request),
          (request.params as { featureId: string }).featureId,
          callerOf(request),
          on,
        ),
    });
  }

  app.get(
    '/me/ideas',
    {
      config: { permission: 'features:read' },
      schema: {
        operationId: 'listMyIdeas',
        summary: 'The identified person’s ideas and bugs with their status, newest first',
        tags,
        headers: IdentityHeaders,
        response: { 200: MyIdeas, ...errorResponses(401, 403, 429) },
      },
    },
    async (request) => listMyIdeas(ctx, scopeOf(request), callerOf(request)),
  );

  app.post(
    '/me/ideas',
    {
      config: { permission: 'features:write', rateLimit: FEATURE_SUBMISSION_LIMIT },
      schema: {
        operationId: 'createMyIdea',
        summary: 'Submit a feature request or bug as the identified person',
        tags,
        headers: IdentityHeaders,
        body: CreateFeatureBody,
        response: { 201: CreatedFeature, ...errorResponses(400, 401, 403, 413, 415, 429) },
      },
    },
    async (request, reply) => {
      const row = await submitAsPerson(ctx, scopeOf(request), request.body, callerOf(request));
      return reply.code(201).send({ ...presentPublicFeature(row), message: FEATURE_CREATED_MESSAGE });
    },
  );

  // The screenshot arrives as the raw image (no base64 inflation), so only this scope parses images.
  app.addContentTypeParser(
    [...ATTACHMENT_LIMITS.types],
    { parseAs: 'buffer', bodyLimit: ATTACHMENT_LIMITS.maxBytes },
    (_request, body, done) => done(null, body),
  );
  app.post(
    '/features/:featureId/attachments',
    {
      config: { permission: 'features:write' },
      bodyLimit: ATTACHMENT_LIMITS.maxBytes,
      schema: {
        operationId: 'addFeatureAttachment',
        summary: 'Attach a screenshot (PNG, JPEG or WebP, at most 2 MB) to an item filed in the last hour',
        tags,
        params: FeatureId,
        response: { 201: Attachment, ...errorResponses(400, 401, 403, 404, 413, 415, 429) },
      },
    },
    async (request, reply) => {
      const row = await attachScreenshot(
        ctx,
        scopeOf(request),
        request.params.featureId,
        String(request.headers['content-type'] ?? ''),
        request.body as Uint8Array,
      );
      return reply.code(201).send({
        id: row.id,
        featureId: row.feature_id,
        contentType: row.content_type,
        size: row.size,
        createdAt: row.created_at,
      });
    },
  );
}
