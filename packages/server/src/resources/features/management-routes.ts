/**
 * Management of a project's features: the whole list (internal items too, both key
 * environments), search and filters, edits, merging duplicates, deleting, and moderation of
 * votes and comments.
 */
import { clampLimit, errorResponses } from '../../http/common-schemas.ts';
import { NotFoundError } from '../../kernel/errors.ts';
import { requireProjectAccess } from '../../management/access.ts';
import type { ManagementApp, ManagementDeps } from '../../management/context.ts';
import { ProjectParams, requireSomeField } from '../../http/management-schemas.ts';
import { mergeFeature } from './store-merge.ts';
import { listCommentPage, moderateDeleteComment } from './store-comments.ts';
import { listVotePage, moderateRemoveVote } from './store-votes.ts';
import { presentComment, presentManagedFeature } from './management-presenter.ts';
import {
  CommentPage,
  CommentParams,
  Counts,
  FeaturePage,
  FeatureParams,
  ListFeaturesQuery,
  ManagedFeature,
  MergeBody,
  MergeResult,
  PageQuery,
  UPDATE_FIELDS,
  UpdateFeatureBody,
  VoteParams,
  VotePage,
} from './management-schemas.ts';
import { deleteFeature, getFeature, listFeatures, updateFeature } from './store.ts';

const tags = ['features'];

export async function featureManagementRoutes(app: ManagementApp, { db }: ManagementDeps): Promise<void> {
  const existing = async (projectId: string, featureId: string) => {
    const row = await getFeature(db, projectId, featureId);
    if (!row) throw new NotFoundError();
    return row;
  };

  app.get(
    '/projects/:projectId/features',
    {
      schema: {
        operationId: 'manageListFeatures',
        summary: 'List features, internal ones included; search, filter and sort (role: member)',
        tags,
        params: ProjectParams,
        querystring: ListFeaturesQuery,
        response: { 200: FeaturePage, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { projectId } = request.params;
      await requireProjectAccess(request, projectId, 'member');
      const limit = clampLimit(request.query.limit, 50, 200);
      const offset = request.query.offset ?? 0;
      const { rows, total } = await listFeatures(db, projectId, {
        ...request.query,
        sort: request.query.sort ?? 'newest',
        limit,
        offset,
      });
      return { features: rows.map(presentManagedFeature), total, limit, offset };
    },
  );

  app.get(
    '/projects/:projectId/features/:featureId',
    {
      schema: {
        operationId: 'manageGetFeature',
        summary: 'Read one feature with its developer notes (role: member)',
        tags,
        params: FeatureParams,
        response: { 200: ManagedFeature, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      const { projectId, featureId } = request.params;
      await requireProjectAccess(request, projectId, 'member');
      return presentManagedFeature(await existing(projectId, featureId));
    },
  );

  app.patch(
    '/projects/:projectId/features/:featureId',
    {
      schema: {
        operationId: 'manageUpdateFeature',
        summary: 'Change status, visibility (internal), developer notes, title, description or type (role: admin)',
        tags,
        params: FeatureParams,
        body: UpdateFeatureBody,
        response: { 200: ManagedFeature, ...errorResponses(400, 401, 403, 404, 413, 415) },
      },
    },
    async (request) => {
      const { projectId, featureId } = request.params;
      await requireProjectAccess(request, projectId, 'admin');
      requireSomeField(request.body, UPDATE_FIELDS);
      const updated = await updateFeature(db, { projectId }, featureId, request.body);
      if (!updated) throw new NotFoundError();
      return presentManagedFeature(updated);
    },
  );

  app.delete(
    '/projects/:projectId/features/:featureId',
    {
      schema: {
        operationId: 'manageDeleteFeature',
        summary:
          'Delete a feature with its votes and comments; linked changelog entries keep its last status (role: admin)',
        tags,
        params: FeatureParams,
        response: { 204: { type: 'null', description: 'Deleted' }, ...errorResponses(401, 403, 404) },
      },
    },
    async (request, reply) => {
      const { projectId, featureId } = request.params;
      await requireProjectAccess(request, projectId, 'admin');
      if (!(await deleteFeature(db, projectId, featureId))) throw new NotFoundError();
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/projects/:projectId/features/:featureId/merge',
    {
      schema: {
        operationId: 'manageMergeFeature',
        summary:
          'Merge this duplicate into targetId: votes (each voter once) and comments move over, the duplicate is deleted (role: admin)',
        tags,
        params: FeatureParams,
        body: MergeBody,
        response: { 200: MergeResult, ...errorResponses(400, 401, 403, 404, 413, 415) },
      },
    },
    async (request) => {
      const { projectId, featureId } = request.params;
      await requireProjectAccess(request, projectId, 'admin');
      const outcome = await mergeFeature(db, projectId, featureId, request.body.targetId);
      return { ...outcome, feature: presentManagedFeature(outcome.feature), mergedId: featureId };
    },
  );

  app.get(
    '/projects/:projectId/features/:featureId/votes',
    {
      schema: {
        operationId: 'manageListVotes',
        summary: 'Voters of a feature, oldest first (role: member)',
        tags,
        params: FeatureParams,
        querystring: PageQuery(100),
        response: { 200: VotePage, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { projectId, featureId } = request.params;
      await requireProjectAccess(request, projectId, 'member');
      await existing(projectId, featureId);
      const limit = clampLimit(request.query.limit, 100, 500);
      const offset = request.query.offset ?? 0;
      const { rows, total } = await listVotePage(db, featureId, limit, offset);
      return { votes: rows.map((row) => ({ voterId: row.voter_id, createdAt: row.created_at })), total, limit, offset };
    },
  );

  app.delete(
    '/projects/:projectId/features/:featureId/votes/:voterId',
    {
      schema: {
        operationId: 'manageRemoveVote',
        summary: "Remove one voter's vote; voteCount follows (role: admin)",
        tags,
        params: VoteParams,
        response: { 200: Counts, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      const { projectId, featureId, voterId } = request.params;
      await requireProjectAccess(request, projectId, 'admin');
      const result = await moderateRemoveVote(db, projectId, featureId, voterId);
      if (!result) throw new NotFoundError();
      return { featureId, ...result };
    },
  );

  app.get(
    '/projects/:projectId/features/:featureId/comments',
    {
      schema: {
        operationId: 'manageListComments',
        summary: 'Comments of a feature, oldest first (role: member)',
        tags,
        params: FeatureParams,
        querystring: PageQuery(50),
        response: { 200: CommentPage, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { projectId, featureId } = request.params;
      await requireProjectAccess(request, projectId, 'member');
      await existing(projectId, featureId);
      const limit = clampLimit(request.query.limit, 50, 200);
      const offset = request.query.offset ?? 0;
      const { rows, total } = await listCommentPage(db, featureId, limit, offset);
      return { comments: rows.map(presentComment), total, limit, offset };
    },
  );

  app.delete(
    '/projects/:projectId/features/:featureId/comments/:commentId',
    {
      schema: {
        operationId: 'manageDeleteComment',
        summary: 'Delete a comment; commentCount follows (role: admin)',
        tags,
        params: CommentParams,
        response: { 200: Counts, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      const { projectId, featureId, commentId } = request.params;
      await requireProjectAccess(request, projectId, 'admin');
      const result = await moderateDeleteComment(db, projectId, featureId, commentId);
      if (!result?.removed) throw new NotFoundError();
      return { featureId, ...result };
    },
  );
}
