/**
 * How many features match a list's equality filters, from feature_counts (kept by the triggers of
 * migration 202611280300): a sum of at most 128 rows of one project, read through its primary
 * key, instead of a count over every matching item (3.5 ms on SQLite, 14–25 ms on PostgreSQL at
 * 100,000 items, per request). Filters it cannot answer (a tag, search text) count the items.
 */
import type { Queryable, SqlValue } from '../../db/database.ts';
import { Where } from '../../db/query.ts';
import type { ListQuery } from './store.ts';

export interface CountFilter {
  environment?: string | undefined;
  status?: string | undefined;
  type?: string | undefined;
  internal?: 0 | 1 | undefined;
  held?: 0 | 1 | undefined;
}

export function featureCountQuery(projectId: string, filter: CountFilter): ListQuery {
  const where = new Where('project_id = ?', projectId);
  for (const column of ['environment', 'status', 'type', 'internal', 'held'] as const) {
    const value: SqlValue | undefined = filter[column];
    if (value !== undefined) where.add(`${column} = ?`, value);
  }
  return { sql: `SELECT COALESCE(SUM(n), 0) AS total FROM feature_counts WHERE ${where.sql}`, params: where.params };
}

export async function countFeatures(db: Queryable, projectId: string, filter: CountFilter): Promise<number> {
  const { sql, params } = featureCountQuery(projectId, filter);
  return Number((await db.get<{ total: number | string }>(sql, params))?.total ?? 0);
}
