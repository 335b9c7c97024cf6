/**
 * A page of ideas in trending order (votes cast since `since`, most first; ties by votes overall,
 * then newest) without ranking every idea of the project, which is what ORDER BY over a per-idea
 * count of recent votes does (a vote count per item and a sort of the project: ~300 ms at
 * 100,000 items on PostgreSQL). The order splits in two:
 *
 *   hot:  ideas with a vote since `since`, found from the recent votes (votes_recent), ranked;
 *         as many as the recent votes touch, however large the project;
 *   cold: every other idea, all tied at zero recent votes, so in "top" order: a walk along the
 *         list's top index that skips the hot ones (one votes_feature_recent seek each) and stops.
 *
 * The page is the hot rows from `offset`, then cold rows for what is left of `limit`.
 */
import type { Database, SqlValue } from '../../db/database.ts';
import type { ListQuery } from './store.ts';

export const TOP_ORDER = 'f.vote_count DESC, f.created_at DESC, f.id DESC';

/** What the list selects from `features f` (plus joins) and how it filters; the same for both halves. */
export interface TrendingSource {
  columns: string;
  /** Joined after `features f` (full-text search), may be empty. */
  join: string;
  joinParams: SqlValue[];
  where: string;
  whereParams: SqlValue[];
}

/**
 * The recent votes per idea. SQLite is told the index: without statistics of the range it would
 * rather walk votes in feature_id order (no sort for the GROUP BY) and read every vote ever cast.
 */
function recentVotes(dialect: Database['dialect']): string {
  const votes = dialect === 'sqlite' ? 'votes INDEXED BY votes_recent' : 'votes';
  return `SELECT feature_id, COUNT(*) AS recent FROM ${votes} WHERE created_at >= ? GROUP BY feature_id`;
}

export function trendingQueries(dialect: Database['dialect'], source: TrendingSource, since: string) {
  const hotFrom = `(${recentVotes(dialect)}) r JOIN features f ON f.id = r.feature_id ${source.join} WHERE ${source.where}`;
  const hotParams = [since, ...source.joinParams, ...source.whereParams];
  return {
    hot: (limit: number, offset: number): ListQuery => ({
      sql: `SELECT ${source.columns} FROM ${hotFrom} ORDER BY r.recent DESC, ${TOP_ORDER} LIMIT ? OFFSET ?`,
      params: [...hotParams, limit, offset],
    }),
    hotCount: (): ListQuery => ({ sql: `SELECT COUNT(*) AS n FROM ${hotFrom}`, params: hotParams }),
    cold: (limit: number, offset: number): ListQuery => ({
      sql: `SELECT ${source.columns} FROM features f ${source.join}
        WHERE ${source.where} AND NOT EXISTS (SELECT 1 FROM votes v WHERE v.feature_id = f.id AND v.created_at >= ?)
        ORDER BY ${TOP_ORDER} LIMIT ? OFFSET ?`,
      params: [...source.joinParams, ...source.whereParams, since, limit, offset],
    }),
  };
}

export async function trendingPage<Row>(
  db: Database,
  source: TrendingSource,
  since: string,
  limit: number,
  offset: number,
): Promise<Row[]> {
  const queries = trendingQueries(db.dialect, source, since);
  const hotQuery = queries.hot(limit, offset);
  const hot = await db.all<Row>(hotQuery.sql, hotQuery.params);
  if (hot.length >= limit) return hot;
  // Fewer than asked: the hot ideas end on this page, so their number is known, unless the page
  // started past them all (then count them, to know how far into the cold ones it starts).
  let hotTotal = offset + hot.length;
  if (hot.length === 0 && offset > 0) {
    const count = queries.hotCount();
    hotTotal = Number((await db.get<{ n: number | string }>(count.sql, count.params))?.n ?? 0);
  }
  const coldQuery = queries.cold(limit - hot.length, Math.max(0, offset - hotTotal));
  return [...hot, ...(await db.all<Row>(coldQuery.sql, coldQuery.params))];
}
