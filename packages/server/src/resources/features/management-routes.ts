/**
 * Management of a project's features: the whole list (internal items too, both key
 * environments), search and filters, edits, merging duplicates, deleting, and moderation of
 * votes and comments.
 */
import { ChangeCache } from '../../http/change-cache.ts';
import { clampLimit, errorResponses } from '../../http/common-schemas.ts';
import { BadRequestError, ForbiddenError, NotFoundError } from '../../kernel/errors.ts';
import { requireAccount } from '../../routing/management/access.ts';
import type { ManagementApp, ManagementDeps } from '../../routing/management/context.ts';
import { ProjectParams, requireSomeField } from '../../http/management-schemas.ts';
import { tagsOfFeatures } from '../tags/index.ts';
import type { Database } from '../../db/database.ts';
import { mergeFeature } from './store-merge.ts';
import { createFeatureOnBehalf } from './on-behalf.ts';
import {
  type CommentRow,
  editOwnComment,
  getComment,
  insertTeamComment,
  listCommentPage,
  moderateDeleteComment,
  setCommentHidden,
} from './store-comments.ts';
import { peopleByAlias } from '../people/index.ts';
import { bulkChangeFeatures } from './bulk.ts';
import { listManagedFeatures, similarFeatures } from './management-read-model.ts';
import { moderateRemoveVote } from './store-votes.ts';
import { votersOf } from './voters.ts';
import { presentComment, presentManagedFeature } from './management-presenter.ts';
import {
  BulkBody,
  BulkResult,
  CommentPage,
  CommentResult,
  CommentVisibilityBody,
  CommentParams,
  Counts,
  FeaturePage,
  FeatureParams,
  ListFeaturesQuery,
  ManagedFeature,
  MergeBody,
  MergeResult,
  OnBehalfBody,
  PageQuery,
  SimilarList,
  SimilarQuery,
  STATUS_CHANGE_FIELDS,
  TeamCommentBody,
  TriageBody,
  TriageResult,
  UPDATE_FIELDS,
  UpdateFeatureBody,
  VoteParams,
  VotePage,
} from './management-schemas.ts';
import { deleteFeature, getFeature, markTriaged, updateFeature, type FeatureRow } from './store.ts';

/** Items as the management API shows them, each with its tags. */
async function presentAll(db: Database, rows: FeatureRow[]) {
  const tags = await tagsOfFeatures(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => presentManagedFeature(row, tags.get(row.id) ?? []));
}

async function presentOne(db: Database, row: FeatureRow) {
  return (await presentAll(db, [row]))[0]!;
}

const tags = ['features'];

/** The people who wrote these comments on the board, by board user id. */
function commentAuthors(db: Database, projectId: string, rows: CommentRow[]) {
  return peopleByAlias(
    db,
    projectId,
    'board_user',
    rows.flatMap((row) => (row.board_user_id ? [row.board_user_id] : [])),
  );
}

export async function featureManagementRoutes(app: ManagementApp, { db, config }: ManagementDeps): Promise<void> {
  // The inbox's search answers, reused until the next commit that can change them (Database's
  // change marker: ideas, votes, tags, people…; not error reports or logs). A first search reads
  // a bounded number of matches (search-read-model.ts); the same search asked again, by the
  // dashboard's refetches or another teammate, costs a lookup. The answer is kept serialised
  // (through the route's own response schema), so a page of 50 matches costs what a page of 10
  // does: presenting and serialising the items again was most of a repeated search's time.
  const searches = new ChangeCache<string>(db, 200);
  const existing = async (projectId: string, featureId: string) => {
    const row = await getFeature(db, projectId, featureId);
    if (!row) throw new NotFoundError();
    return row;
  };

  app.get(
    '/projects/:projectId/features',
    {
      config: { access: { project: 'member' } },
      schema: {
        operationId: 'manageListFeatures',
        summary: 'List features, internal ones included; search, filter and sort',
        tags,
        params: ProjectParams,
        querystring: ListFeaturesQuery,
        response: { 200: FeaturePage, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const { projectId } = request.params;
      const limit = clampLimit(request.query.limit, 50, 200);
      const offset = request.query.offset ?? 0;
      const filter = { ...request.query, sort: request.query.sort ?? 'newest', limit, offset };
      const page = async () => {
        const { rows, total, totalCapped } = await listManagedFeatures(db, projectId, filter);
        const features = rows.map((row) => presentManagedFeature(row, row.tags, row.value));
        return { features, total, totalCapped, limit, offset };
      };
      if (!filter.q || !searches.enabled) return page();
      // The route's serializer (its response schema) writes a string.
      const body = await searches.get(
        `${projectId}\n${JSON.stringify(filter)}`,
        async () => reply.serialize(await page()) as string,
      );
      // A string with a JSON content type is sent as it is: it was serialised when it was kept.
      return reply.type('application/json; charset=utf-8').send(body as never);
    },
  );

  app.post(
    '/projects/:projectId/features',
    {
      config: { access: { project: 'admin' } },
      schema: {
        operationId: 'manageCreateFeatureOnBehalf',
        summary:
          "File an idea on behalf of one of the project's people (or a new address): theirs, with their vote, triaged",
        tags,
        params: ProjectParams,
        body: OnBehalfBody,
        response: { 201: ManagedFeature, ...errorResponses(400, 401, 403, 404, 413, 415) },
      },
    },
    async (request, reply) => {
      const { projectId } = request.params;
      const { personId, email, name, ...idea } = request.body;
      if ((personId === undefined) === (email === undefined)) {
        const message = 'give exactly one of personId and email';
        throw new BadRequestError(`Invalid body: ${message}`, [{ field: 'personId', message }]);
      }
      if (name !== undefined && email === undefined) {
        throw new BadRequestError('Invalid field name: goes only with email', [
          { field: 'name', message: 'goes only with email' },
        ]);
      }
      const author = personId !== undefined ? { personId } : { email: email!, name };
      const row = await createFeatureOnBehalf(db, projectId, config.platformProjectId, { ...idea, author });
      return reply.code(201).send(await presentOne(db, row));
    },
  );

  app.post(
    '/projects/:projectId/features/bulk',
    {
      config: { access: { project: 'admin' } },
      schema: {
        operationId: 'manageBulkUpdateFeatures',
        summary:
          'Change status, visibility or tags of up to 100 items at once, all or nothing; followers are told of a status change',
        tags,
        params: ProjectParams,
        body: BulkBody,
        response: { 200: BulkResult, ...errorResponses(400, 401, 403, 404, 413, 415) },
      },
    },
    async (request) => {
      const { projectId } = request.params;
      const rows = await bulkChangeFeatures(db, projectId, request.body);
      return { features: await presentAll(db, rows), updated: rows.length };
    },
  );

  app.post(
    '/projects/:projectId/features/triage',
    {
      config: { access: { project: 'admin' } },
      schema: {
        operationId: 'manageMarkTriaged',
        summary:
          'Mark items as triaged (looked at) without changing them: they leave the "needs triage" view; ids of other projects are ignored',
        tags,
        params: ProjectParams,
        body: TriageBody,
        response: { 200: TriageResult, ...errorResponses(400, 401, 403, 404, 413, 415) },
      },
    },
    async (request) => {
      const { projectId } = request.params;
      return { triaged: await markTriaged(db, projectId, request.body.ids) };
    },
  );

  app.get(
    '/projects/:projectId/features/:featureId/similar',
    {
      config: { access: { project: 'member' } },
      schema: {
        operationId: 'manageSimilarFeatures',
        summary: 'Items like this one (full-text search on its title), candidates for merging it',
        tags,
        params: FeatureParams,
        querystring: SimilarQuery,
        response: { 200: SimilarList, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { projectId, featureId } = request.params;
      const feature = await existing(projectId, featureId);
      const rows = await similarFeatures(db, feature, request.query.limit ?? 5);
      return { features: rows.map((row) => presentManagedFeature(row, row.tags)) };
    },
  );

  app.get(
    '/projects/:projectId/features/:featureId',
    {
      config: { access: { project: 'member' } },
      schema: {
        operationId: 'manageGetFeature',
        summary: 'Read one feature with its developer notes',
        tags,
        params: FeatureParams,
        response: { 200: ManagedFeature, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      const { projectId, featureId } = request.params;
      return presentOne(db, await existing(projectId, featureId));
    },
  );

  app.patch(
    '/projects/:projectId/features/:featureId',
    {
      config: { access: { project: 'admin' } },
      schema: {
        operationId: 'manageUpdateFeature',
        summary: 'Change status, visibility (internal), developer notes, title, description or type',
        tags,
        params: FeatureParams,
        body: UpdateFeatureBody,
        response: { 200: ManagedFeature, ...errorResponses(400, 401, 403, 404, 413, 415) },
      },
    },
    async (request) => {
      const { projectId, featureId } = request.params;
      requireSomeField(request.body, UPDATE_FIELDS);
      if (request.body.status === undefined) {
        const loose = STATUS_CHANGE_FIELDS.find((field) => request.body[field] !== undefined);
        if (loose) {
          throw new BadRequestError(`Invalid field ${loose}: goes only with status`, [
            { field: loose, message: 'goes only with status' },
          ]);
        }
      }
      const updated = await updateFeature(db, { projectId }, featureId, request.body);
      if (!updated) throw new NotFoundError();
      return presentOne(db, updated);
    },
  );

  app.delete(
    '/projects/:projectId/features/:featureId',
    {
      config: { access: { project: 'admin' } },
      schema: {
        operationId: 'manageDeleteFeature',
        summary: 'Delete a feature with its votes and comments; linked changelog entries keep its last status',
        tags,
        params: FeatureParams,
        response: { 204: { type: 'null', description: 'Deleted' }, ...errorResponses(401, 403, 404) },
      },
    },
    async (request, reply) => {
      const { projectId, featureId } = request.params;
      if (!(await deleteFeature(db, projectId, featureId))) throw new NotFoundError();
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/projects/:projectId/features/:featureId/merge',
    {
      config: { access: { project: 'admin' } },
      schema: {
        operationId: 'manageMergeFeature',
        summary:
          'Merge this duplicate into targetId: votes (each voter once), comments and followers move over, the duplicate is deleted',
        tags,
        params: FeatureParams,
        body: MergeBody,
        response: { 200: MergeResult, ...errorResponses(400, 401, 403, 404, 413, 415) },
      },
    },
    async (request) => {
      const { projectId, featureId } = request.params;
      const outcome = await mergeFeature(db, projectId, featureId, request.body.targetId);
      return { ...outcome, feature: await presentOne(db, outcome.feature), mergedId: featureId };
    },
  );

  app.get(
    '/projects/:projectId/features/:featureId/votes',
    {
      config: { access: { project: 'member' } },
      schema: {
        operationId: 'manageListVotes',
        summary: 'Voters of a feature, oldest first',
        tags,
        params: FeatureParams,
        querystring: PageQuery(100),
        response: { 200: VotePage, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { projectId, featureId } = request.params;
      await existing(projectId, featureId);
      const limit = clampLimit(request.query.limit, 100, 500);
      const offset = request.query.offset ?? 0;
      const { votes, total } = await votersOf(db, projectId, featureId, limit, offset);
      return { votes, total, limit, offset };
    },
  );

  app.delete(
    '/projects/:projectId/features/:featureId/votes/:voterId',
    {
      config: { access: { project: 'admin' } },
      schema: {
        operationId: 'manageRemoveVote',
        summary: "Remove one voter's vote; voteCount follows",
        tags,
        params: VoteParams,
        response: { 200: Counts, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      const { projectId, featureId, voterId } = request.params;
      const result = await moderateRemoveVote(db, projectId, featureId, voterId);
      if (!result) throw new NotFoundError();
      return { featureId, ...result };
    },
  );

  app.get(
    '/projects/:projectId/features/:featureId/comments',
    {
      config: { access: { project: 'member' } },
      schema: {
        operationId: 'manageListComments',
        summary: 'Comments of a feature, oldest first',
        tags,
        params: FeatureParams,
        querystring: PageQuery(50),
        response: { 200: CommentPage, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { projectId, featureId } = request.params;
      await existing(projectId, featureId);
      const limit = clampLimit(request.query.limit, 50, 200);
      const offset = request.query.offset ?? 0;
      const { rows, total } = await listCommentPage(db, featureId, limit, offset);
      const people = await commentAuthors(db, projectId, rows);
      return { comments: rows.map((row) => presentComment(row, people)), total, limit, offset };
    },
  );

  app.post(
    '/projects/:projectId/features/:featureId/comments',
    {
      config: { access: { project: 'admin' } },
      schema: {
        operationId: 'manageAddTeamComment',
        summary: 'Reply as the team (a "Team" badge on the board), or add an internal note only the team sees',
        tags,
        params: FeatureParams,
        body: TeamCommentBody,
        response: { 201: CommentResult, ...errorResponses(400, 401, 403, 404, 413, 415) },
      },
    },
    async (request, reply) => {
      const { projectId, featureId } = request.params;
      const account = requireAccount(request);
      const row = await insertTeamComment(db, projectId, featureId, {
        body: request.body.body,
        accountId: account.id,
        authorName: account.name,
        internal: request.body.internal ?? false,
      });
      if (!row) throw new NotFoundError();
      const counts = await getFeature(db, projectId, featureId);
      return reply.code(201).send({
        comment: presentComment(row),
        voteCount: Number(counts?.vote_count ?? 0),
        commentCount: Number(counts?.comment_count ?? 0),
      });
    },
  );

  app.patch(
    '/projects/:projectId/features/:featureId/comments/:commentId',
    {
      config: { access: { project: 'admin' } },
      schema: {
        operationId: 'manageSetCommentHidden',
        summary:
          'Hide a comment from the board and the public API, or show it again; or change the text of your own comment; commentCount follows',
        tags,
        params: CommentParams,
        body: CommentVisibilityBody,
        response: { 200: CommentResult, ...errorResponses(400, 401, 403, 404, 413, 415) },
      },
    },
    async (request) => {
      const { projectId, featureId, commentId } = request.params;
      const { hidden, body } = request.body;
      requireSomeField(request.body, ['hidden', 'body']);
      const account = requireAccount(request);
      if (body !== undefined) {
        const existingComment = await getComment(db, projectId, featureId, commentId);
        if (!existingComment) throw new NotFoundError();
        if (existingComment.account_id !== account.id) {
          throw new ForbiddenError("Only its author can change a comment's text");
        }
        await editOwnComment(db, projectId, featureId, commentId, account.id, body);
      }
      const result =
        hidden === undefined
          ? await (async () => {
              const feature = await getFeature(db, projectId, featureId);
              const comment = await getComment(db, projectId, featureId, commentId);
              return feature
                ? { comment, voteCount: Number(feature.vote_count), commentCount: Number(feature.comment_count) }
                : undefined;
            })()
          : await setCommentHidden(db, projectId, featureId, commentId, hidden);
      if (!result?.comment) throw new NotFoundError();
      return {
        comment: presentComment(result.comment, await commentAuthors(db, projectId, [result.comment])),
        voteCount: result.voteCount,
        commentCount: result.commentCount,
      };
    },
  );

  app.delete(
    '/projects/:projectId/features/:featureId/comments/:commentId',
    {
      config: { access: { project: 'admin' } },
      schema: {
        operationId: 'manageDeleteComment',
        summary: 'Delete a comment; commentCount follows',
        tags,
        params: CommentParams,
        response: { 200: Counts, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      const { projectId, featureId, commentId } = request.params;
      const result = await moderateDeleteComment(db, projectId, featureId, commentId);
      if (!result?.removed) throw new NotFoundError();
      return { featureId, ...result };
    },
  );
}
