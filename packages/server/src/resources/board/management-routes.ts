/**
 * Management of a project's public board: its settings (read: member; change: admin), its SSO
 * secret (rotate: admin, shown once) and the moderation queue of held ideas and comments (read:
 * member; approve and reject: admin).
 */
import { clampLimit, errorResponses } from '../../http/common-schemas.ts';
import { ProjectParams, requireSomeField } from '../../http/management-schemas.ts';
import { ConflictError, NotFoundError } from '../../kernel/errors.ts';
import { projectAccess } from '../../routing/management/declared-access.ts';
import type { ManagementApp, ManagementDeps } from '../../routing/management/context.ts';
import {
  approveHeldComment,
  approveHeldFeature,
  heldItemAuthor,
  listModerationQueue,
  rejectHeldComment,
  rejectHeldFeature,
  type ModerationOutcome,
} from '../features/index.ts';
import { presentBoard, presentModerationItem } from './presenter.ts';
import {
  BoardSettings,
  ModerationCommentParams,
  ModerationDecision,
  ModerationIdeaParams,
  ModerationPage,
  ModerationQuery,
  SsoSecret,
  UPDATE_FIELDS,
  UpdateBoardBody,
} from './schemas.ts';
import { changeBoardSettings } from './service.ts';
import { rotateSsoSecret } from './sso-secret.ts';
import { setBoardUserSpam } from './store-users.ts';
import { readBoard } from './store.ts';

class NotHeldError extends ConflictError {
  constructor(kind: 'idea' | 'comment') {
    super(`This ${kind} is not waiting for approval`);
  }
}

function decided(outcome: ModerationOutcome, kind: 'idea' | 'comment'): void {
  if (outcome === 'missing') throw new NotFoundError();
  if (outcome === 'not-held') throw new NotHeldError(kind);
}

export async function boardManagementRoutes(app: ManagementApp, { db, config }: ManagementDeps): Promise<void> {
  const tags = ['board'];

  app.get(
    '/projects/:projectId/board',
    {
      config: { access: { project: 'member' } },
      schema: {
        operationId: 'getBoardSettings',
        summary: 'The public board’s settings and address',
        tags,
        params: ProjectParams,
        response: { 200: BoardSettings, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      const project = projectAccess(request);
      return presentBoard(await readBoard(db, project.id), config.publicUrl, project.slug);
    },
  );

  app.patch(
    '/projects/:projectId/board',
    {
      config: { access: { project: 'admin' } },
      schema: {
        operationId: 'updateBoardSettings',
        summary:
          'Turn the board on or off, make it private, set its title, logo, accent colour, custom domain, anonymous votes or moderation',
        tags,
        params: ProjectParams,
        body: UpdateBoardBody,
        response: { 200: BoardSettings, ...errorResponses(400, 401, 403, 404, 409, 413, 415) },
      },
    },
    async (request) => {
      const project = projectAccess(request);
      requireSomeField(request.body, UPDATE_FIELDS);
      const settings = await changeBoardSettings(db, config.publicUrl, project.id, request.body);
      return presentBoard(settings, config.publicUrl, project.slug);
    },
  );

  app.post(
    '/projects/:projectId/board/sso-secret',
    {
      config: { access: { project: 'admin' } },
      schema: {
        operationId: 'rotateBoardSsoSecret',
        summary:
          'Make a new secret for signed identify (SSO) from your app; shown only in this answer. The previous secret stops working',
        tags,
        params: ProjectParams,
        response: { 200: SsoSecret, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      const project = projectAccess(request);
      return rotateSsoSecret(db, config, project.id);
    },
  );

  app.get(
    '/projects/:projectId/moderation',
    {
      config: { access: { project: 'member' } },
      schema: {
        operationId: 'listModerationQueue',
        summary: 'Held ideas and comments waiting for approval, oldest first',
        tags,
        params: ProjectParams,
        querystring: ModerationQuery,
        response: { 200: ModerationPage, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { projectId } = request.params;
      const limit = clampLimit(request.query.limit, 50, 200);
      const offset = request.query.offset ?? 0;
      const { rows, total } = await listModerationQueue(db, projectId, { kind: request.query.kind, limit, offset });
      return { items: rows.map(presentModerationItem), total, limit, offset };
    },
  );

  for (const [action, approve] of [
    ['approve', true],
    ['reject', false],
  ] as const) {
    const decision = approve ? ('approved' as const) : ('rejected' as const);

    app.post(
      `/projects/:projectId/moderation/ideas/:featureId/${action}`,
      {
        config: { access: { project: 'admin' } },
        schema: {
          operationId: approve ? 'approveHeldIdea' : 'rejectHeldIdea',
          summary: approve
            ? 'Approve a held idea: it becomes public'
            : 'Reject a held idea: it is deleted with its votes and comments',
          tags,
          params: ModerationIdeaParams,
          response: { 200: ModerationDecision, ...errorResponses(401, 403, 404, 409) },
        },
      },
      async (request) => {
        const { projectId, featureId } = request.params;
        const outcome = approve
          ? await approveHeldFeature(db, projectId, featureId)
          : await rejectHeldFeature(db, projectId, featureId);
        decided(outcome, 'idea');
        return { kind: 'idea' as const, id: featureId, featureId, decision };
      },
    );

    app.post(
      `/projects/:projectId/moderation/comments/:commentId/${action}`,
      {
        config: { access: { project: 'admin' } },
        schema: {
          operationId: approve ? 'approveHeldComment' : 'rejectHeldComment',
          summary: approve
            ? 'Approve a held comment: it becomes public and counts on its idea'
            : 'Reject a held comment: it is deleted',
          tags,
          params: ModerationCommentParams,
          response: { 200: ModerationDecision, ...errorResponses(401, 403, 404, 409) },
        },
      },
      async (request) => {
        const { projectId, commentId } = request.params;
        const { outcome, featureId } = approve
          ? await approveHeldComment(db, projectId, commentId)
          : await rejectHeldComment(db, projectId, commentId);
        decided(outcome, 'comment');
        return { kind: 'comment' as const, id: commentId, featureId: featureId!, decision };
      },
    );
  }
  for (const kind of ['idea', 'comment'] as const) {
    app.post(
      kind === 'idea'
        ? '/projects/:projectId/moderation/ideas/:featureId/spam'
        : '/projects/:projectId/moderation/comments/:commentId/spam',
      {
        config: { access: { project: 'admin' } },
        schema: {
          operationId: kind === 'idea' ? 'markHeldIdeaSpam' : 'markHeldCommentSpam',
          summary: `Mark a held ${kind} as spam: it is deleted, and the board user who wrote it is marked so that what they post next is held`,
          tags,
          params: kind === 'idea' ? ModerationIdeaParams : ModerationCommentParams,
          response: { 200: ModerationDecision, ...errorResponses(401, 403, 404, 409) },
        },
      },
      async (request) => {
        const params = request.params as { projectId: string; featureId?: string; commentId?: string };
        const { projectId } = params;
        const id = (kind === 'idea' ? params.featureId : params.commentId) ?? '';
        const author = await heldItemAuthor(db, projectId, kind, id);
        let featureId = id;
        if (kind === 'idea') decided(await rejectHeldFeature(db, projectId, id), kind);
        else {
          const result = await rejectHeldComment(db, projectId, id);
          decided(result.outcome, kind);
          featureId = result.featureId!;
        }
        const marked = typeof author === 'string' && (await setBoardUserSpam(db, projectId, author, true));
        return { kind, id, featureId, decision: 'spam' as const, authorMarkedSpam: marked };
      },
    );
  }
}
