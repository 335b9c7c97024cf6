import { Type } from 'typebox';
import { clampLimit, errorResponses, Paging, Timestamp } from '../../http/common-schemas.ts';
import { NotFoundError } from '../../kernel/errors.ts';
import type { App, Deps } from '../../routing/public-api/context.ts';
import { scopeOf } from '../../routing/public-api/context.ts';
import { findPublicFeature } from './store.ts';
import { insertComment, listComments, type CommentRow } from './store-comments.ts';

const FeatureParams = Type.Object({ featureId: Type.String({ minLength: 1, maxLength: 100 }) });

const Comment = Type.Object(
  {
    id: Type.String(),
    featureId: Type.String(),
    body: Type.String(),
    authorName: Type.Union([Type.String(), Type.Null()]),
    createdAt: Timestamp,
  },
  { additionalProperties: false },
);

const NewComment = Type.Object({
  body: Type.String({ minLength: 1, maxLength: 5000 }),
  authorName: Type.Optional(Type.String({ maxLength: 100 })),
});

function present(row: CommentRow) {
  return {
    id: row.id,
    featureId: row.feature_id,
    body: row.body,
    authorName: row.author_name,
    createdAt: row.created_at,
  };
}

export async function commentRoutes(app: App, { db }: Deps): Promise<void> {
  app.get(
    '/features/:featureId/comments',
    {
      config: { permission: 'features:read' },
      schema: {
        operationId: 'listComments',
        summary: 'List comments on a public feature, oldest first',
        tags: ['comments'],
        params: FeatureParams,
        querystring: Type.Object(Paging(50)),
        response: {
          200: Type.Object(
            { comments: Type.Array(Comment), count: Type.Integer(), limit: Type.Integer(), offset: Type.Integer() },
            { additionalProperties: false },
          ),
          ...errorResponses(400, 401, 403, 404, 429),
        },
      },
    },
    async (request) => {
      const scope = scopeOf(request);
      if (!(await findPublicFeature(db, scope, request.params.featureId))) throw new NotFoundError();
      const limit = clampLimit(request.query.limit, 50, 100);
      const offset = request.query.offset ?? 0;
      const rows = await listComments(db, request.params.featureId, limit, offset);
      return { comments: rows.map(present), count: rows.length, limit, offset };
    },
  );

  app.post(
    '/features/:featureId/comments',
    {
      config: { permission: 'features:write' },
      schema: {
        operationId: 'addComment',
        summary: 'Comment on a public feature',
        tags: ['comments'],
        params: FeatureParams,
        body: NewComment,
        response: { 201: Comment, ...errorResponses(400, 401, 403, 404, 413, 415, 429) },
      },
    },
    async (request, reply) => {
      const row = await insertComment(db, scopeOf(request), request.params.featureId, request.body);
      if (!row) throw new NotFoundError();
      return reply.code(201).send(present(row));
    },
  );
}
