/**
 * Erasing a person (issue 36, GDPR article 17) on the features resource's tables, in the caller's
 * transaction: their votes stay counted under a new random voter id that nothing links to them,
 * their ideas and comments lose their author (anonymise) or go (delete, with the counters moved as
 * a moderator's delete moves them).
 */
import { placeholders, type Queryable } from '../../db/database.ts';
import { newId } from '../../kernel/ids.ts';
import { detachEntriesFromFeature } from '../changelog/index.ts';
import { unlinkBugsFromFeature } from '../reports/index.ts';
import type { FeatureStatus } from './schemas.ts';
import { STATUS_LABELS } from './status-labels.ts';
import { bumpCounter } from './store.ts';

/** How one end user is known to the features tables. */
export interface AuthorKeys {
  voterIds: readonly string[];
  boardUserIds: readonly string[];
  /** Lower-case addresses (contact e-mails of ideas). */
  emails: readonly string[];
}

export type ContentErasure = 'anonymise' | 'delete';

export interface FeatureErasure {
  ideas: number;
  comments: number;
  votes: number;
}

function authoredWhere(keys: AuthorKeys): { sql: string; params: string[] } | undefined {
  const parts: string[] = [];
  const params: string[] = [];
  if (keys.boardUserIds.length > 0) {
    parts.push(`board_user_id IN (${placeholders(keys.boardUserIds.length)})`);
    params.push(...keys.boardUserIds);
  }
  if (keys.emails.length > 0) {
    parts.push(`LOWER(contact_email) IN (${placeholders(keys.emails.length)})`);
    params.push(...keys.emails);
  }
  return parts.length === 0 ? undefined : { sql: `(${parts.join(' OR ')})`, params };
}

export async function eraseFeatureActivity(
  tx: Queryable,
  projectId: string,
  keys: AuthorKeys,
  mode: ContentErasure,
): Promise<FeatureErasure> {
  const result: FeatureErasure = { ideas: 0, comments: 0, votes: 0 };

  // Votes: one fresh id per vote (a person voting the same idea under two aliases has two rows).
  if (keys.voterIds.length > 0) {
    const votes = await tx.all<{ feature_id: string; voter_id: string }>(
      `SELECT v.feature_id, v.voter_id FROM votes v JOIN features f ON f.id = v.feature_id
       WHERE f.project_id = ? AND v.voter_id IN (${placeholders(keys.voterIds.length)})`,
      [projectId, ...keys.voterIds],
    );
    for (const vote of votes) {
      await tx.run('UPDATE votes SET voter_id = ? WHERE feature_id = ? AND voter_id = ?', [
        newId('erased'),
        vote.feature_id,
        vote.voter_id,
      ]);
    }
    result.votes = votes.length;
  }

  if (keys.boardUserIds.length > 0) {
    const comments = await tx.all<{ id: string; feature_id: string; held: number; internal: number }>(
      `SELECT c.id, c.feature_id, c.held, c.internal FROM comments c JOIN features f ON f.id = c.feature_id
       WHERE f.project_id = ? AND c.board_user_id IN (${placeholders(keys.boardUserIds.length)})`,
      [projectId, ...keys.boardUserIds],
    );
    for (const comment of comments) {
      if (mode === 'anonymise') {
        await tx.run('UPDATE comments SET author_name = NULL, board_user_id = NULL WHERE id = ?', [comment.id]);
        continue;
      }
      // Lock the feature row as every writer of its counters does, then delete and count down.
      await tx.run('UPDATE features SET vote_count = vote_count WHERE id = ?', [comment.feature_id]);
      await tx.run('DELETE FROM comments WHERE id = ?', [comment.id]);
      if (Number(comment.held) === 0 && Number(comment.internal) === 0) {
        await bumpCounter(tx, comment.feature_id, 'comment_count', -1);
      }
    }
    result.comments = comments.length;
  }

  const authored = authoredWhere(keys);
  if (authored) {
    const ideas = await tx.all<{ id: string; status: FeatureStatus }>(
      `SELECT id, status FROM features WHERE project_id = ? AND ${authored.sql}`,
      [projectId, ...authored.params],
    );
    for (const idea of ideas) {
      if (mode === 'anonymise') {
        await tx.run('UPDATE features SET contact_email = NULL, board_user_id = NULL WHERE id = ?', [idea.id]);
        continue;
      }
      // As deleteFeature: changelog entries keep the status frozen, bug reports are unlinked.
      await tx.run('UPDATE features SET vote_count = vote_count WHERE id = ?', [idea.id]);
      await detachEntriesFromFeature(tx, idea.id, { key: idea.status, label: STATUS_LABELS[idea.status] });
      await unlinkBugsFromFeature(tx, idea.id);
      await tx.run('DELETE FROM features WHERE id = ? AND project_id = ?', [idea.id, projectId]);
    }
    result.ideas = ideas.length;
  }
  return result;
}
