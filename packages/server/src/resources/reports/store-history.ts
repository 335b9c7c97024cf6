/**
 * Occurrence history of error groups (project, environment, fingerprint), per UTC hour.
 *
 * A group's records count it: the dedup window is an hour, so each record's reports fall in the
 * hour of its first report and the hour of its last, and the record keeps how many fell in the
 * latter (`last_hour_occurrences`, added to by the upsert that records a report, so counts from
 * several processes add up under the row lock). A group's history is the sum over its records.
 *
 * Records from before that (migration 202612020100, `last_hour_occurrences` NULL) are counted in
 * error_occurrences_hourly: one row per group and hour, counted by an upsert in the transaction
 * that records the report. Those hours are deleted once older than the retention
 * (`ERROR_HISTORY_RETENTION_DAYS`), after writes, at most every PRUNE_EVERY_MS per process.
 */
import type { Database, Queryable } from '../../db/database.ts';
import { idFloor } from '../../kernel/ids.ts';
import type { Scope } from '../../kernel/scope.ts';

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;
export const PRUNE_EVERY_MS = 10 * 60 * 1000;
/** newId's prefix of error_reports ids. */
export const ERROR_ID_PREFIX = 'error';

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

interface HistoryRecord {
  first_seen_at: string;
  last_seen_at: string;
  occurrences: number;
  last_hour_occurrences: number;
}

/** Each record's count in its first hour and in its last (a record spans at most two). */
function addRecords(records: readonly HistoryRecord[], add: (hour: number, n: number) => void): void {
  for (const record of records) {
    const firstHour = Math.floor(Date.parse(record.first_seen_at) / HOUR_MS) * HOUR_MS;
    const lastHour = Math.floor(Date.parse(record.last_seen_at) / HOUR_MS) * HOUR_MS;
    const inLastHour = lastHour > firstHour ? Number(record.last_hour_occurrences) : 0;
    add(firstHour, Number(record.occurrences) - inLastHour);
    add(lastHour, inLastHour);
  }
}

/**
 * The history of an error group (issue 31): the records that point to it or to a group merged into
 * it (`family`), counted as readHistory counts a fingerprint's. Records from before records counted
 * their hours are left out (their groups are the 'legacy:' ones, whose history readHistory reads).
 */
export async function readGroupHistory(db: Queryable, family: readonly string[], range: HistoryRange, now: Date) {
  const size = range === '24h' ? HOUR_MS : DAY_MS;
  const count = range === '24h' ? 24 : 14;
  const last = Math.floor(now.getTime() / size) * size;
  const first = last - (count - 1) * size;
  const counts = new Array<number>(count).fill(0);
  const add = (hour: number, n: number) => {
    const index = Math.floor((hour - first) / size);
    if (index >= 0 && index < count) counts[index]! += n;
  };
  const records = await db.all<HistoryRecord>(
    `SELECT first_seen_at, last_seen_at, occurrences, last_hour_occurrences FROM error_reports
      WHERE group_id IN (${family.map(() => '?').join(', ')}) AND last_seen_at >= ? AND last_hour_occurrences IS NOT NULL`,
    [...family, new Date(first - HOUR_MS).toISOString()],
  );
  addRecords(records, add);
  return {
    bucket: range === '24h' ? ('hour' as const) : ('day' as const),
    buckets: counts.map((n, i) => ({ start: new Date(first + i * size).toISOString(), count: n })),
    total: counts.reduce((a, b) => a + b, 0),
  };
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
  const since = new Date(first).toISOString();
  const counts = new Array<number>(count).fill(0);
  const add = (hour: number, n: number) => {
    const index = Math.floor((hour - first) / size);
    if (index >= 0 && index < count) counts[index]! += n;
  };
  const recordsQuery = historyRecordsQuery(group, first);
  addRecords(await db.all<HistoryRecord>(recordsQuery.sql, recordsQuery.params), add);
  const hours = await db.all<{ hour: string; count: number }>(
    `SELECT hour, count FROM error_occurrences_hourly
      WHERE project_id = ? AND environment = ? AND fingerprint = ? AND hour >= ?`,
    [group.projectId, group.environment, group.fingerprint, since],
  );
  for (const row of hours) add(Date.parse(row.hour), Number(row.count));
  return {
    bucket: range === '24h' ? 'hour' : 'day',
    buckets: counts.map((n, i) => ({ start: new Date(first + i * size).toISOString(), count: n })),
    total: counts.reduce((a, b) => a + b, 0),
  };
}

/**
 * The records of a group with reports from `since` on (ms), read along the group's index
 * (202612010200): the open record (slot '') and the closed ones made since the window before
 * `since`, a range of slots, as a closed record's slot is its id, made when its first report was
 * written. Exported for the query-plan test.
 */
export function historyRecordsQuery(
  group: { projectId: string; environment: string; fingerprint: string },
  since: number,
): { sql: string; params: string[] } {
  const records = (slot: string) => `SELECT first_seen_at, last_seen_at, occurrences, last_hour_occurrences
      FROM error_reports
     WHERE project_id = ? AND environment = ? AND fingerprint = ? AND ${slot}
       AND last_seen_at >= ? AND last_hour_occurrences IS NOT NULL`;
  const keyed = [group.projectId, group.environment, group.fingerprint];
  const from = new Date(since).toISOString();
  return {
    // Two ranges of the index as two reads: an OR of both let SQLite's planner take the project's
    // time index instead, a walk of every group's records in range.
    sql: `${records("dedup_slot = ''")}\n    UNION ALL\n    ${records('dedup_slot >= ?')}`,
    // The margin of a second hour covers clocks of processes a little apart.
    params: [...keyed, from, ...keyed, idFloor(ERROR_ID_PREFIX, since - 2 * HOUR_MS), from],
  };
}

/** Test hook: lets the next write prune again. */
export function resetPruneClock(): void {
  lastPruneAt = 0;
}
