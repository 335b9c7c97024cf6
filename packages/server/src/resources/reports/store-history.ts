/**
 * Occurrence history of error groups: one row per group (project, environment, fingerprint) and
 * UTC hour, counted by an upsert in the transaction that records the report, so two processes
 * counting the same hour at once both land (`count = count + 1` under the row lock of the
 * conflict). Hours older than the retention (`ERROR_HISTORY_RETENTION_DAYS`) are deleted after
 * writes, at most every PRUNE_EVERY_MS per process.
 */
import type { Database, Queryable } from '../../db/database.ts';
import type { Scope } from '../../kernel/scope.ts';

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;
export const PRUNE_EVERY_MS = 10 * 60 * 1000;

export const HISTORY_RANGES = ['24h', '14d'] as const;
export type HistoryRange = (typeof HISTORY_RANGES)[number];

/** The start of the UTC hour of `at`, as stored. */
export const hourOf = (at: Date): string => new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS).toISOString();

/** `count` more occurrences of a group in `hour` (from hourOf); call inside the recording transaction. */
export async function countOccurrence(
  tx: Queryable,
  scope: Scope,
  fingerprint: string,
  hour: string,
  count = 1,
): Promise<void> {
  await tx.run(
    `INSERT INTO error_occurrences_hourly (project_id, environment, fingerprint, hour, count)
     VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (project_id, environment, fingerprint, hour) DO UPDATE SET
       count = error_occurrences_hourly.count + excluded.count`,
    [scope.projectId, scope.environment, fingerprint, hour, count],
  );
}

/**
 * countOccurrence for many hours at once, one upsert: rows are (project, environment,
 * fingerprint, hour, count), distinct, in the order their rows should be locked.
 */
export async function countOccurrencesIn(
  tx: Queryable,
  rows: readonly (readonly [string, string, string, string, number])[],
): Promise<void> {
  await tx.run(
    `INSERT INTO error_occurrences_hourly (project_id, environment, fingerprint, hour, count)
     VALUES ${rows.map(() => '(?, ?, ?, ?, ?)').join(', ')}
     ON CONFLICT (project_id, environment, fingerprint, hour) DO UPDATE SET
       count = error_occurrences_hourly.count + excluded.count`,
    rows.flat(),
  );
}

let lastPruneAt = 0;

/**
 * Deletes the hours older than `retentionDays`, when this process has not done so for
 * PRUNE_EVERY_MS. Cheap: a range on the hour index. A failure (e.g. a PostgreSQL lock conflict
 * with another process pruning the same rows) is left for the next prune.
 */
export async function pruneHistory(db: Database, retentionDays: number, now: Date): Promise<number> {
  if (now.getTime() - lastPruneAt < PRUNE_EVERY_MS) return 0;
  lastPruneAt = now.getTime();
  const cutoff = hourOf(new Date(now.getTime() - retentionDays * DAY_MS));
  try {
    const { changes } = await db.run('DELETE FROM error_occurrences_hourly WHERE hour < ?', [cutoff]);
    return changes;
  } catch {
    return 0;
  }
}

export interface HistoryBucket {
  start: string;
  count: number;
}

/**
 * A group's occurrences over the range, zero-filled, UTC: 24 hourly buckets ending with the
 * current hour, or 14 daily buckets ending with the current day.
 */
export async function readHistory(
  db: Queryable,
  group: { projectId: string; environment: string; fingerprint: string },
  range: HistoryRange,
  now: Date,
): Promise<{ bucket: 'hour' | 'day'; buckets: HistoryBucket[]; total: number }> {
  const size = range === '24h' ? HOUR_MS : DAY_MS;
  const count = range === '24h' ? 24 : 14;
  const last = Math.floor(now.getTime() / size) * size;
  const first = last - (count - 1) * size;
  const rows = await db.all<{ hour: string; count: number }>(
    `SELECT hour, count FROM error_occurrences_hourly
      WHERE project_id = ? AND environment = ? AND fingerprint = ? AND hour >= ?`,
    [group.projectId, group.environment, group.fingerprint, new Date(first).toISOString()],
  );
  const counts = new Array<number>(count).fill(0);
  for (const row of rows) {
    const index = Math.floor((Date.parse(row.hour) - first) / size);
    if (index >= 0 && index < count) counts[index]! += Number(row.count);
  }
  return {
    bucket: range === '24h' ? 'hour' : 'day',
    buckets: counts.map((n, i) => ({ start: new Date(first + i * size).toISOString(), count: n })),
    total: counts.reduce((a, b) => a + b, 0),
  };
}

/** Test hook: lets the next write prune again. */
export function resetPruneClock(): void {
  lastPruneAt = 0;
}
