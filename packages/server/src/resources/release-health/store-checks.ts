/**
 * The only writes of version checks (release_checks per release and hour, release_check_totals
 * per release): the tally's flushes add to both, their expiry takes from both.
 */
import type { Database, Queryable } from '../../db/database.ts';

/** Adds version-check counts (the in-memory tally of one flush) in one transaction. */
export async function addVersionChecks(
  tx: Queryable,
  counts: readonly { projectId: string; release: string; hour: string; checks: number }[],
): Promise<void> {
  for (const count of counts) {
    await tx.run(
      `INSERT INTO release_checks (project_id, release, hour, checks) VALUES (?, ?, ?, ?)
       ON CONFLICT (project_id, release, hour) DO UPDATE SET checks = release_checks.checks + excluded.checks`,
      [count.projectId, count.release, count.hour, count.checks],
    );
    await tx.run(
      `INSERT INTO release_check_totals (project_id, release, first_hour, last_hour, checks) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (project_id, release) DO UPDATE SET
         first_hour = CASE WHEN excluded.first_hour < release_check_totals.first_hour THEN excluded.first_hour ELSE release_check_totals.first_hour END,
         last_hour = CASE WHEN excluded.last_hour > release_check_totals.last_hour THEN excluded.last_hour ELSE release_check_totals.last_hour END,
         checks = release_check_totals.checks + excluded.checks`,
      [count.projectId, count.release, count.hour, count.hour, count.checks],
    );
  }
}

/**
 * Runs `sql` (store-expiry.ts's batch delete of release_checks) and takes what the deleted hours
 * held out of each release's totals in the same transaction; a release with nothing left goes.
 */
export async function expireCheckHours(db: Database, sql: string, cutoff: string, limit: number): Promise<number> {
  return db.transaction(async (tx) => {
    const rows = await tx.all<{ project_id: string; release: string; checks: number }>(
      `${sql} RETURNING project_id, release, checks`,
      [cutoff, cutoff, limit],
    );
    const byKey = new Map<string, { projectId: string; release: string; checks: number }>();
    for (const row of rows) {
      const id = `${row.project_id}\u0000${row.release}`;
      const entry = byKey.get(id) ?? { projectId: row.project_id, release: row.release, checks: 0 };
      entry.checks += Number(row.checks);
      byKey.set(id, entry);
    }
    for (const entry of [...byKey.values()].sort((a, b) =>
      a.projectId + a.release < b.projectId + b.release ? -1 : 1,
    )) {
      await tx.run(
        `UPDATE release_check_totals SET checks = checks - ?, first_hour = CASE WHEN first_hour < ? THEN ? ELSE first_hour END
         WHERE project_id = ? AND release = ?`,
        [entry.checks, cutoff, cutoff, entry.projectId, entry.release],
      );
      await tx.run('DELETE FROM release_check_totals WHERE project_id = ? AND release = ? AND last_hour < ?', [
        entry.projectId,
        entry.release,
        cutoff,
      ]);
    }
    return rows.length;
  });
}
