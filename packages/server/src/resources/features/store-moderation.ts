/**
 * Moderation of votes and comments. Each removal and its counter update share one transaction
 * that holds the feature's row lock, the same lock the public vote and comment writes take, so
 * `vote_count` and `comment_count` stay exact under any interleaving.
 */
import type { Database, Queryable } from '../../db/database.ts';
import type { CommentRow } from './store-comments.ts';
import { page, Where } from '../../management/support/query.ts';

export type { CommentRow };

export interface VoteRow {
  voter_id: string;
  created_at: string;
}

export async function listVotes(db: Queryable, featureId: string, limit: number, offset: number) {
  return page<VoteRow>(db, 'votes', new Where('feature_id = ?', featureId), 'voter_id, created_at', 'created_at ASC, voter_id ASC', limit, offset);
}

export async function listComments(db: Queryable, featureId: string, limit: number, offset: number) {
  return page<CommentRow>(db, 'comments', new Where('feature_id = ?', featureId), '*', 'created_at ASC, id ASC', limit, offset);
}

async function lockFeature(tx: Queryable, projectId: string, featureId: string): Promise<boolean> {
  const { changes } = await tx.run('UPDATE features SET vote_count = vote_count WHERE id = ? AND project_id = ?', [featureId, projectId]);
  return changes === 1;
}

async function counts(tx: Queryable, featureId: string): Promise<{ voteCount: number; commentCount: number }> {
  const row = await tx.get<{ vote_count: number; comment_count: number }>(
    'SELECT vote_count, comment_count FROM features WHERE id = ?',
    [featureId],
  );
  return { voteCount: Number(row?.vote_count ?? 0), commentCount: Number(row?.comment_count ?? 0) };
}

/** undefined: no such feature; `removed` false: that voter had not voted. */
export async function removeVote(db: Database, projectId: string, featureId: string, voterId: string) {
  return db.transaction(async (tx) => {
    if (!(await lockFeature(tx, projectId, featureId))) return undefined;
    const { changes } = await tx.run('DELETE FROM votes WHERE feature_id = ? AND voter_id = ?', [featureId, voterId]);
    if (changes === 1) await tx.run('UPDATE features SET vote_count = vote_count - 1 WHERE id = ?', [featureId]);
    return { removed: changes === 1, ...(await counts(tx, featureId)) };
  });
}

export async function deleteComment(db: Database, projectId: string, featureId: string, commentId: string) {
  return db.transaction(async (tx) => {
    if (!(await lockFeature(tx, projectId, featureId))) return undefined;
    const { changes } = await tx.run('DELETE FROM comments WHERE id = ? AND feature_id = ?', [commentId, featureId]);
    if (changes === 1) await tx.run('UPDATE features SET comment_count = comment_count - 1 WHERE id = ?', [featureId]);
    return { removed: changes === 1, ...(await counts(tx, featureId)) };
  });
}
