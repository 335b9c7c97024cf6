/**
 * Ideas that need someone's attention across every project of an account's teams (the dashboard's
 * home): new ones waiting for triage and the most-voted ones still in play. Joins `projects`
 * (resources/projects) and `team_members` (resources/teams) to scope the list to the account.
 */
import type { Queryable } from '../../db/database.ts';

export type AttentionIdeaRow = {
  id: string;
  project_id: string;
  project_name: string;
  environment: 'live' | 'test';
  title: string;
  status: string;
  vote_count: number | string;
  comment_count: number | string;
  created_at: string;
};

/** Statuses of ideas still in play: not new (those are triaged first), not finished or declined. */
const OPEN_STATUSES = ['open', 'planned', 'in-progress', 'in-review', 'accepted'] as const;

const COLUMNS = `f.id, f.project_id, p.name AS project_name, f.environment, f.title, f.status,
       f.vote_count, f.comment_count, f.created_at`;
const SCOPE = `FROM features f
       JOIN projects p ON p.id = f.project_id
       JOIN team_members m ON m.team_id = p.team_id AND m.account_id = ?`;

/** Ideas in status `new` of the account's projects, newest first. */
export function listIdeasToTriage(db: Queryable, accountId: string, limit: number): Promise<AttentionIdeaRow[]> {
  return db.all<AttentionIdeaRow>(
    `SELECT ${COLUMNS} ${SCOPE} WHERE f.status = ? ORDER BY f.created_at DESC, f.id LIMIT ?`,
    [accountId, 'new', limit],
  );
}

/** Ideas of the account's projects still in play with at least one vote, most votes first. */
export function listMostVotedOpenIdeas(db: Queryable, accountId: string, limit: number): Promise<AttentionIdeaRow[]> {
  const marks = OPEN_STATUSES.map(() => '?').join(', ');
  return db.all<AttentionIdeaRow>(
    `SELECT ${COLUMNS} ${SCOPE} WHERE f.status IN (${marks}) AND f.vote_count > 0
      ORDER BY f.vote_count DESC, f.created_at DESC, f.id LIMIT ?`,
    [accountId, ...OPEN_STATUSES, limit],
  );
}
