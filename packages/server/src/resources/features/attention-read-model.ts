/**
 * Ideas that need someone's attention across every project of an account's teams (the dashboard's
 * home): those waiting for triage (no `triaged_at`) and the most-voted ones still in play. Reads `projects`
 * (resources/projects) and `team_members` (resources/teams) to find the account's projects.
 *
 * Each list is one ordered index range per project (and status), merged and cut at `limit`, as
 * the roadmap does (store.ts): it reads about `limit` rows however many ideas the projects hold,
 * never a sort of them (indexes of migration 202611280200).
 */
import type { Database, SqlValue } from '../../db/database.ts';
import type { ListQuery } from './store.ts';
import { countHeldByProject } from './store-moderation.ts';
import { compareNames } from '../../kernel/compare-text.ts';

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

const COLUMNS = 'id, project_id, environment, title, status, vote_count, comment_count, created_at';
// Ties by id descending, as every other list of ideas: the same index serves them all.
const NEWEST = 'ORDER BY created_at DESC, id DESC';
const MOST_VOTED = 'ORDER BY vote_count DESC, created_at DESC, id DESC';

interface Range {
  where: string;
  params: SqlValue[];
}

/** SQLite allows 500 arms in a compound SELECT; an account with more ranges than this is sorted. */
const MAX_MERGED_RANGES = 400;

/**
 * The first `limit` rows of features over several ranges, each read in `order` along an index:
 * SQLite merges a compound SELECT's arms in index order; PostgreSQL plans a Merge Append when
 * each arm is ordered and limited in parentheses.
 */
export function mergedRangesQuery(
  dialect: Database['dialect'],
  ranges: readonly Range[],
  order: string,
  limit: number,
): ListQuery {
  const arm = (range: Range) => `SELECT ${COLUMNS} FROM features WHERE ${range.where}`;
  if (ranges.length > MAX_MERGED_RANGES) {
    return {
      sql: `SELECT ${COLUMNS} FROM features WHERE ${ranges.map((range) => `(${range.where})`).join(' OR ')} ${order} LIMIT ?`,
      params: [...ranges.flatMap((range) => range.params), limit],
    };
  }
  if (dialect === 'postgres') {
    return {
      sql: `SELECT * FROM (${ranges.map((range) => `(${arm(range)} ${order} LIMIT ?)`).join(' UNION ALL ')}) AS merged ${order} LIMIT ?`,
      params: [...ranges.flatMap((range) => [...range.params, limit]), limit],
    };
  }
  return {
    sql: `${ranges.map(arm).join(' UNION ALL ')} ${order} LIMIT ?`,
    params: [...ranges.flatMap((range) => range.params), limit],
  };
}

export function triageQuery(dialect: Database['dialect'], projectIds: readonly string[], limit: number): ListQuery {
  const ranges = projectIds.map((id) => ({
    where: 'project_id = ? AND triaged_at IS NULL AND held = 0',
    params: [id],
  }));
  return mergedRangesQuery(dialect, ranges, NEWEST, limit);
}

export function mostVotedQuery(dialect: Database['dialect'], projectIds: readonly string[], limit: number): ListQuery {
  const ranges = projectIds.flatMap((id) =>
    OPEN_STATUSES.map((status) => ({
      where: 'project_id = ? AND status = ? AND vote_count > 0',
      params: [id, status],
    })),
  );
  return mergedRangesQuery(dialect, ranges, MOST_VOTED, limit);
}

async function accountProjects(db: Database, accountId: string): Promise<Map<string, string>> {
  const rows = await db.all<{ id: string; name: string }>(
    `SELECT p.id, p.name FROM projects p JOIN team_members m ON m.team_id = p.team_id AND m.account_id = ?
      ORDER BY p.id`,
    [accountId],
  );
  return new Map(rows.map((row) => [row.id, row.name]));
}

async function attentionList(
  db: Database,
  accountId: string,
  build: (projectIds: string[]) => ListQuery,
): Promise<AttentionIdeaRow[]> {
  const projects = await accountProjects(db, accountId);
  if (projects.size === 0) return [];
  const { sql, params } = build([...projects.keys()]);
  const rows = await db.all<Omit<AttentionIdeaRow, 'project_name'>>(sql, params);
  return rows.map((row) => ({ ...row, project_name: projects.get(row.project_id) ?? '' }));
}

/** Items of the account's projects the team has not triaged yet (held ones wait in moderation), newest first. */
export function listIdeasToTriage(db: Database, accountId: string, limit: number): Promise<AttentionIdeaRow[]> {
  return attentionList(db, accountId, (ids) => triageQuery(db.dialect, ids, limit));
}

/** Ideas of the account's projects still in play with at least one vote, most votes first. */
export function listMostVotedOpenIdeas(db: Database, accountId: string, limit: number): Promise<AttentionIdeaRow[]> {
  return attentionList(db, accountId, (ids) => mostVotedQuery(db.dialect, ids, limit));
}

/** Projects of the account with ideas or comments held for moderation, with how many, most first. */
export async function listAwaitingModeration(
  db: Database,
  accountId: string,
  limit: number,
): Promise<{ project_id: string; project_name: string; count: number }[]> {
  const projects = await accountProjects(db, accountId);
  const counts = await countHeldByProject(db, [...projects.keys()]);
  return [...counts]
    .map(([id, count]) => ({ project_id: id, project_name: projects.get(id) ?? '', count }))
    .sort((a, b) => b.count - a.count || compareNames(a.project_name, b.project_name))
    .slice(0, limit);
}
