/**
 * Moderation of held ideas and comments (a board with moderation on holds what its users write
 * until the team approves it). A held idea or comment is not public: every public read filters
 * `held = 0` like `internal = 0`. Approving clears the flag; rejecting deletes the item. A held
 * comment is not counted in its idea's `comment_count`: approving it counts it, in the same
 * transaction, after the idea's row lock (store.ts `lockFeature`).
 */
import type { Database, Queryable } from '../../db/database.ts';
import type { KeyEnvironment } from '../../kernel/api-keys.ts';
import { page } from '../../db/page.ts';
import { Where } from '../../db/query.ts';
import { bumpCounter, deleteFeature, getFeature, lockFeature } from './store.ts';

export type ModerationKind = 'idea' | 'comment';

/** One item waiting for the team: a held idea, or a held comment with the title of its idea. */
export interface ModerationRow {
  kind: ModerationKind;
  id: string;
  feature_id: string;
  feature_title: string;
  /** The idea's description or the comment's text. */
  body: string;
  environment: KeyEnvironment;
  author_name: string | null;
  board_user_id: string | null;
  created_at: string;
}

const QUEUE = `(
  SELECT 'idea' AS kind, id, id AS feature_id, title AS feature_title, description AS body, environment,
         NULL AS author_name, board_user_id, created_at, project_id
    FROM features WHERE held = 1
  UNION ALL
  SELECT 'comment' AS kind, c.id, c.feature_id, f.title AS feature_title, c.body, f.environment,
         c.author_name, c.board_user_id, c.created_at, f.project_id
    FROM comments c JOIN features f ON f.id = c.feature_id WHERE c.held = 1
) queue`;

/** The project's held ideas and comments, oldest first, in both key environments. */
export async function listModerationQueue(
  db: Queryable,
  projectId: string,
  filter: { kind?: ModerationKind | undefined; limit: number; offset: number },
): Promise<{ rows: ModerationRow[]; total: number }> {
  const where = new Where('project_id = ?', projectId).when(filter.kind, 'kind = ?', filter.kind ?? null);
  return page<ModerationRow>(
    db,
    QUEUE,
    where,
    'kind, id, feature_id, feature_title, body, environment, author_name, board_user_id, created_at',
    'created_at ASC, id ASC',
    filter.limit,
    filter.offset,
  );
}

/** `missing`: the project has no such item; `not-held`: it exists but waits for no one. */
export type ModerationOutcome = 'done' | 'missing' | 'not-held';

/** Holds a public idea again: it leaves every public read until approved. */
export async function holdFeature(db: Queryable, projectId: string, featureId: string): Promise<boolean> {
  const { changes } = await db.run('UPDATE features SET held = 1 WHERE id = ? AND project_id = ?', [
    featureId,
    projectId,
  ]);
  return changes === 1;
}

/** Makes a held idea public. */
export async function approveHeldFeature(
  db: Queryable,
  projectId: string,
  featureId: string,
): Promise<ModerationOutcome> {
  const { changes } = await db.run('UPDATE features SET held = 0 WHERE id = ? AND project_id = ? AND held = 1', [
    featureId,
    projectId,
  ]);
  if (changes === 1) return 'done';
  return (await getFeature(db, projectId, featureId)) ? 'not-held' : 'missing';
}

/** Deletes a held idea with its votes and comments, through the one delete of features. */
export async function rejectHeldFeature(
  db: Database,
  projectId: string,
  featureId: string,
): Promise<ModerationOutcome> {
  if (await deleteFeature(db, projectId, featureId, { onlyHeld: true })) return 'done';
  return (await getFeature(db, projectId, featureId)) ? 'not-held' : 'missing';
}

async function commentOf(tx: Queryable, projectId: string, commentId: string) {
  return tx.get<{ feature_id: string; held: number }>(
    'SELECT c.feature_id, c.held FROM comments c JOIN features f ON f.id = c.feature_id WHERE c.id = ? AND f.project_id = ?',
    [commentId, projectId],
  );
}

/**
 * Approves or rejects a held comment of the project: under its idea's row lock, approving clears
 * `held` and counts the comment; rejecting deletes it (it was never counted).
 */
async function decideComment(
  db: Database,
  projectId: string,
  commentId: string,
  approve: boolean,
): Promise<{ outcome: ModerationOutcome; featureId?: string }> {
  return db.transaction(async (tx) => {
    const found = await commentOf(tx, projectId, commentId);
    if (!found || !(await lockFeature(tx, projectId, found.feature_id))) return { outcome: 'missing' };
    const featureId = found.feature_id;
    const { changes } = approve
      ? await tx.run('UPDATE comments SET held = 0 WHERE id = ? AND feature_id = ? AND held = 1', [
          commentId,
          featureId,
        ])
      : await tx.run('DELETE FROM comments WHERE id = ? AND feature_id = ? AND held = 1', [commentId, featureId]);
    if (changes !== 1) return { outcome: (await commentOf(tx, projectId, commentId)) ? 'not-held' : 'missing' };
    if (approve) await bumpCounter(tx, featureId, 'comment_count', 1);
    return { outcome: 'done', featureId };
  });
}

export const approveHeldComment = (db: Database, projectId: string, commentId: string) =>
  decideComment(db, projectId, commentId, true);

export const rejectHeldComment = (db: Database, projectId: string, commentId: string) =>
  decideComment(db, projectId, commentId, false);

/** Holds a public comment again: it leaves the public list and its idea's `comment_count`. */
export async function holdComment(db: Database, projectId: string, commentId: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const found = await commentOf(tx, projectId, commentId);
    if (!found || !(await lockFeature(tx, projectId, found.feature_id))) return false;
    const { changes } = await tx.run('UPDATE comments SET held = 1 WHERE id = ? AND held = 0 AND internal = 0', [
      commentId,
    ]);
    if (changes === 1) await bumpCounter(tx, found.feature_id, 'comment_count', -1);
    return true;
  });
}

/**
 * The board user who wrote a held idea or comment of the project: undefined when there is no
 * such held item, null when it came through the API (no board user).
 */
export async function heldItemAuthor(
  db: Queryable,
  projectId: string,
  kind: ModerationKind,
  id: string,
): Promise<string | null | undefined> {
  const row =
    kind === 'idea'
      ? await db.get<{ board_user_id: string | null }>(
          'SELECT board_user_id FROM features WHERE id = ? AND project_id = ? AND held = 1',
          [id, projectId],
        )
      : await db.get<{ board_user_id: string | null }>(
          'SELECT c.board_user_id FROM comments c JOIN features f ON f.id = c.feature_id WHERE c.id = ? AND f.project_id = ? AND c.held = 1',
          [id, projectId],
        );
  return row ? row.board_user_id : undefined;
}

/** How many ideas and comments wait for approval in each of the given projects (only those with any). */
export async function countHeldByProject(db: Queryable, projectIds: readonly string[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  if (projectIds.length === 0) return counts;
  const marks = projectIds.map(() => '?').join(', ');
  const rows = await db.all<{ project_id: string; n: number | string }>(
    `SELECT project_id, COUNT(*) AS n FROM (
       SELECT project_id FROM features WHERE held = 1 AND project_id IN (${marks})
       UNION ALL
       SELECT f.project_id FROM comments c JOIN features f ON f.id = c.feature_id
        WHERE c.held = 1 AND f.project_id IN (${marks})
     ) held GROUP BY project_id`,
    [...projectIds, ...projectIds],
  );
  for (const row of rows) counts.set(row.project_id, Number(row.n));
  return counts;
}
