/**
 * Retention of release health's rows: batches of rows older than a cutoff deleted, and the
 * running totals (store-totals.ts, store-checks.ts) moved with their hour rows in one transaction.
 */
import type { Database } from '../../db/database.ts';
import { expireCheckHours } from './store-checks.ts';
import { noDelta, subtractExpiredTotals, type TotalsDelta } from './store-totals.ts';

/** The tables the retention worker expires. */
export type ExpiringTable =
  | 'release_sessions'
  | 'release_session_hours'
  | 'release_session_users'
  | 'release_users'
  | 'release_checks';

/**
 * Deletes up to `limit` rows of one table older than `cutoff`; the number deleted. Session
 * state goes once no update of it can be accepted any more, the counts after the retention.
 */
export async function expireBatch(db: Database, table: ExpiringTable, cutoff: string, limit: number): Promise<number> {
  const column = table === 'release_sessions' ? 'started' : table === 'release_users' ? 'last_hour' : 'hour';
  const key = {
    release_sessions: 'project_id, environment, sid, started',
    release_session_hours: 'project_id, environment, release, sdk_environment, hour',
    release_session_users: 'project_id, environment, release, sdk_environment, hour, distinct_id',
    release_users: 'project_id, environment, release, sdk_environment, distinct_id',
    release_checks: 'project_id, release, hour',
  }[table];
  // The outer condition repeats the inner one: on a table partitioned by that column (PostgreSQL's
  // `release_session_users` and `release_sessions`, partitions.ts) it lets the delete visit only
  // the partitions that can hold old rows (the edge and DEFAULT; the keeper drops the ones wholly
  // past); elsewhere it costs nothing. Those tables' keys hold the column, as their primary keys must.
  const sql = `DELETE FROM ${table} WHERE ${column} < ? AND (${key}) IN (SELECT ${key} FROM ${table} WHERE ${column} < ? LIMIT ?)`;
  if (table === 'release_session_hours') return expireSessionHours(db, sql, cutoff, limit);
  if (table === 'release_checks') return expireCheckHours(db, sql, cutoff, limit);
  const { changes } = await db.run(sql, [cutoff, cutoff, limit]);
  return changes;
}

/** Expired hour rows leave their key's running totals in the same transaction. */
async function expireSessionHours(db: Database, sql: string, cutoff: string, limit: number): Promise<number> {
  return db.transaction(async (tx) => {
    const rows = await tx.all<{
      project_id: string;
      environment: string;
      release: string;
      sdk_environment: string;
      healthy: number;
      errored: number;
      unhandled: number;
      abnormal: number;
      crashed: number;
      last_users: number;
      last_crashed_users: number;
    }>(
      `${sql} RETURNING project_id, environment, release, sdk_environment, healthy, errored, unhandled, abnormal, crashed, last_users, last_crashed_users`,
      [cutoff, cutoff, limit],
    );
    const byKey = new Map<string, { key: string[]; d: TotalsDelta }>();
    for (const row of rows) {
      const key = [row.project_id, row.environment, row.release, row.sdk_environment];
      const id = key.join('\u0000');
      let entry = byKey.get(id);
      if (!entry) {
        entry = { key, d: noDelta() };
        byKey.set(id, entry);
      }
      entry.d.healthy += Number(row.healthy);
      entry.d.errored += Number(row.errored);
      entry.d.unhandled += Number(row.unhandled);
      entry.d.abnormal += Number(row.abnormal);
      entry.d.crashed += Number(row.crashed);
      entry.d.users += Number(row.last_users);
      entry.d.crashedUsers += Number(row.last_crashed_users);
    }
    for (const { key, d } of [...byKey.values()].sort((a, b) => (a.key.join() < b.key.join() ? -1 : 1))) {
      await subtractExpiredTotals(tx, key, d, cutoff);
    }
    return rows.length;
  });
}
