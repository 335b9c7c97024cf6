/**
 * The comments table. Each write and its counter update share one transaction that holds the
 * feature's row lock (store.ts), so `comment_count` stays exact under any interleaving.
 */
import type { Database, Queryable } from '../../db/database.ts';
import { emitDomainEvent } from '../../db/domain-events.ts';
import { newId, nowIso } from '../../kernel/ids.ts';
import { page } from '../../db/page.ts';
import { Where } from '../../db/query.ts';
import {
  bumpCounter,
  countPublicComment,
  featureCounts,
  lockFeature,
  lockPublicFeature,
  markTriaged,
} from './store.ts';
import type { Scope } from '../../kernel/scope.ts';

export interface CommentRow {
  id: string;
  feature_id: string;
  body: string;
  author_name: string | null;
  created_at: string;
  /** Waiting for moderation: not public, not counted. */
  held?: number;
  board_user_id?: string | null;
  /** Written by the team (dashboard, management API): a "Team" badge. */
  team?: number;
  /** A note for the team only: never public, never counted, never e-mailed. */
  internal?: number;
  /** The team member who wrote it. */
  account_id?: string | null;
  edited_at?: string | null;
}

export async function listComments(
  db: Queryable,
  featureId: string,
  limit: number,
  offset: number,
): Promise<CommentRow[]> {
  return db.all<CommentRow>(
    'SELECT * FROM comments WHERE feature_id = ? AND held = 0 AND internal = 0 ORDER BY created_at ASC, id ASC LIMIT ? OFFSET ?',
    [featureId, limit, offset],
  );
}

/** Adds a comment and bumps `comment_count` in one transaction; undefined when the feature is not public. */
export async function insertComment(
  db: Database,
  scope: Scope,
  featureId: string,
  input: {
    body: string;
    authorName?: string | undefined;
    /** Moderation holds it: written, but not public and not counted until approved. */
    held?: boolean | undefined;
    boardUserId?: string | undefined;
  },
): Promise<CommentRow | undefined> {
  return db.transaction(async (tx) => {
    const visible = input.held
      ? await lockPublicFeature(tx, scope, featureId)
      : await countPublicComment(tx, scope, featureId);
    if (!visible) return undefined;
    const row: CommentRow = {
      id: newId('cmt'),
      feature_id: featureId,
      body: input.body,
      author_name: input.authorName ?? null,
      created_at: nowIso(),
    };
    await tx.run(
      'INSERT INTO comments (id, feature_id, body, author_name, held, board_user_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      [
        row.id,
        row.feature_id,
        row.body,
        row.author_name,
        input.held ? 1 : 0,
        input.boardUserId ?? null,
        row.created_at,
      ],
    );
    if (!input.held) {
      await emitDomainEvent(tx, 'comment.created', {
        projectId: scope.projectId,
        environment: scope.environment,
        featureId,
        commentId: row.id,
        body: row.body,
        authorName: row.author_name,
      });
    }
    return row;
  });
}

// Moderation: any feature of the project, internal ones included.

export async function listCommentPage(db: Queryable, featureId: string, limit: number, offset: number) {
  return page<CommentRow>(
    db,
    'comments',
    new Where('feature_id = ?', featureId),
    '*',
    'created_at ASC, id ASC',
    limit,
    offset,
  );
}

/** undefined: no such feature; `removed` false: the feature has no such comment. */
export async function moderateDeleteComment(db: Database, projectId: string, featureId: string, commentId: string) {
  return db.transaction(async (tx) => {
    if (!(await lockFeature(tx, projectId, featureId))) return undefined;
    const [removed] = await tx.all<{ held: number; internal: number }>(
      'DELETE FROM comments WHERE id = ? AND feature_id = ? RETURNING held, internal',
      [commentId, featureId],
    );
    // A held comment or an internal note was never counted (store-moderation.ts).
    if (removed && Number(removed.held) === 0 && Number(removed.internal) === 0) {
      await bumpCounter(tx, featureId, 'comment_count', -1);
    }
    return { removed: removed !== undefined, ...(await featureCounts(tx, featureId)) };
  });
}

/**
 * Hides a comment of the feature from every public read, or shows it again: `held` is the flag
 * (hidden and held for moderation are one state: not public, not counted), so showing a comment
 * that waited for moderation approves it. Under the feature's row lock, the counter follows.
 * undefined: no such feature in the project; `comment` undefined: the feature has no such comment.
 */
export async function setCommentHidden(
  db: Database,
  projectId: string,
  featureId: string,
  commentId: string,
  hidden: boolean,
) {
  return db.transaction(async (tx) => {
    if (!(await lockFeature(tx, projectId, featureId))) return undefined;
    const { changes } = await tx.run(
      'UPDATE comments SET held = ? WHERE id = ? AND feature_id = ? AND held = ? AND internal = 0',
      [hidden ? 1 : 0, commentId, featureId, hidden ? 0 : 1],
    );
    if (changes === 1) await bumpCounter(tx, featureId, 'comment_count', hidden ? -1 : 1);
    const comment = await tx.get<CommentRow>('SELECT * FROM comments WHERE id = ? AND feature_id = ?', [
      commentId,
      featureId,
    ]);
    return { comment, ...(await featureCounts(tx, featureId)) };
  });
}

/**
 * A comment by a team member (dashboard, management API) on any idea of the project: `team`, with
 * the account; an internal note is not counted and emits nothing (webhooks never see it). Either
 * marks the idea triaged.
 * undefined: no such feature in the project.
 */
export async function insertTeamComment(
  db: Database,
  projectId: string,
  featureId: string,
  input: { body: string; accountId: string | null; authorName: string; internal: boolean },
): Promise<CommentRow | undefined> {
  return db.transaction(async (tx) => {
    if (!(await lockFeature(tx, projectId, featureId))) return undefined;
    const id = newId('cmt');
    const [row] = await tx.all<CommentRow>(
      `INSERT INTO comments (id, feature_id, body, author_name, held, team, internal, account_id, created_at)
       VALUES (?, ?, ?, ?, 0, 1, ?, ?, ?) RETURNING *`,
      [id, featureId, input.body, input.authorName, input.internal ? 1 : 0, input.accountId, nowIso()],
    );
    // The team answered (or noted): the idea has been looked at.
    await markTriaged(tx, projectId, [featureId]);
    if (!input.internal) {
      await bumpCounter(tx, featureId, 'comment_count', 1);
      const feature = await tx.get<{ environment: string }>('SELECT environment FROM features WHERE id = ?', [
        featureId,
      ]);
      await emitDomainEvent(tx, 'comment.created', {
        projectId,
        environment: feature!.environment as Scope['environment'],
        featureId,
        commentId: id,
        body: input.body,
        authorName: input.authorName,
      });
    }
    return row;
  });
}

/** A comment of the feature in the project, whatever its state (for edits and deletes). */
export async function getComment(db: Queryable, projectId: string, featureId: string, commentId: string) {
  return db.get<CommentRow>(
    `SELECT c.* FROM comments c JOIN features f ON f.id = c.feature_id
     WHERE c.id = ? AND c.feature_id = ? AND f.project_id = ?`,
    [commentId, featureId, projectId],
  );
}

/** Changes the text of a comment its author wrote; undefined when it is not theirs (or not there). */
export async function editOwnComment(
  db: Queryable,
  projectId: string,
  featureId: string,
  commentId: string,
  accountId: string,
  body: string,
): Promise<CommentRow | undefined> {
  const [row] = await db.all<CommentRow>(
    `UPDATE comments SET body = ?, edited_at = ? WHERE id = ? AND feature_id = ? AND account_id = ?
       AND feature_id IN (SELECT id FROM features WHERE project_id = ?) RETURNING *`,
    [body, nowIso(), commentId, featureId, accountId, projectId],
  );
  return row;
}
