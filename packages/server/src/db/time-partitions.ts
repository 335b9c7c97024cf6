/**
 * Time partitions on PostgreSQL (issue 37). The tables that grow with time and expire by time
 * (error_events by `received_at`, release_session_users by `hour`, release_sessions by `started`,
 * log_lines by `ts` and log_line_spans by `max_ts`) are partitioned by RANGE on that
 * ISO-8601 text column, declared `COLLATE "C"` so that ranges compare as the text sorts, which is
 * as time sorts (a language's collation would skip the punctuation). One partition per UTC day or
 * ISO week (from Monday), named `<table>_p<yyyymmdd of its first day>`, and a DEFAULT partition,
 * `<table>_default`, for any row no partition covers: a write never fails for a partition not made
 * yet, and reads of the table see it wherever it landed.
 *
 * This module knows the bounds, lists a table's partitions from the catalog, makes a partition
 * (moving in what DEFAULT holds of its range) and drops one. When to do which is the partition
 * keeper's (partition-keeper.ts); the migration that partitioned the tables used it too. Table
 * and column names come from the code (the keeper's list), never from a request; DDL takes no
 * parameters, so bounds are written as literals, ISO strings this module made.
 *
 * SQLite has none of this: its tables stay whole and expire by bounded batch deletes.
 */
import type { Queryable } from './database.ts';
import { compareText } from '../kernel/compare-text.ts';

export type PartitionWidth = 'day' | 'week';

/** A table partitioned by RANGE on an ISO-8601 text column. */
export interface TimePartitioned {
  table: string;
  column: string;
  width: PartitionWidth;
}

/** One range partition: rows with `from <= column < to`. */
export interface Partition {
  name: string;
  from: string;
  to: string;
}

const DAY_MS = 86_400_000;
const widthMs = (width: PartitionWidth) => (width === 'day' ? DAY_MS : 7 * DAY_MS);

/** The first instant of the partition that holds `at`: UTC midnight, of the Monday for a week. */
export function slotStart(at: Date, width: PartitionWidth): Date {
  const day = Math.floor(at.getTime() / DAY_MS) * DAY_MS;
  if (width === 'day') return new Date(day);
  const sinceMonday = (new Date(day).getUTCDay() + 6) % 7;
  return new Date(day - sinceMonday * DAY_MS);
}

export const slotEnd = (start: Date, width: PartitionWidth): Date => new Date(start.getTime() + widthMs(width));

export const partitionName = (table: string, start: Date): string =>
  `${table}_p${start.toISOString().slice(0, 10).replaceAll('-', '')}`;

export const defaultPartitionName = (table: string): string => `${table}_default`;

const NAME = /^[a-z_][a-z0-9_]*$/;
const BOUND = /^FOR VALUES FROM \('([^']*)'[^)]*\) TO \('([^']*)'[^)]*\)$/;

/** The range partitions of `table`, oldest first, and whether it has its DEFAULT partition. */
export async function listPartitions(
  q: Queryable,
  table: string,
): Promise<{ partitions: Partition[]; hasDefault: boolean }> {
  const rows = await q.all<{ name: string; bound: string }>(
    `SELECT c.relname AS name, pg_get_expr(c.relpartbound, c.oid) AS bound
       FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = ?::regclass`,
    [table],
  );
  const partitions: Partition[] = [];
  let hasDefault = false;
  for (const row of rows) {
    if (row.bound === 'DEFAULT') hasDefault = true;
    const match = BOUND.exec(row.bound);
    if (match) partitions.push({ name: row.name, from: match[1]!, to: match[2]! });
  }
  partitions.sort((a, b) => compareText(a.from, b.from));
  return { partitions, hasDefault };
}

/**
 * Makes the partition of `spec` that starts at `start` (a slot start). It is made as a table of
 * its own, filled with the rows DEFAULT holds in its range (normally none: a restore, or writes
 * while no keeper ran), then attached: ATTACH takes only a SHARE UPDATE EXCLUSIVE lock on the
 * parent, so reads and writes of the other partitions go on meanwhile (unless rows move: see
 * below); the parent's indexes, keys and foreign keys are made on it as it attaches. Answers the
 * partition.
 */
export async function createPartition(q: Queryable, spec: TimePartitioned, start: Date): Promise<Partition> {
  const { table, column, width } = spec;
  const name = partitionName(table, start);
  if (![table, column, name].every((part) => NAME.test(part))) throw new Error(`not a plain name: ${table}.${column}`);
  const from = start.toISOString();
  const to = slotEnd(start, width).toISOString();
  await q.run(`CREATE TABLE ${name} (LIKE ${table} INCLUDING DEFAULTS)`);
  const columns = await q.all<{ name: string }>(
    `SELECT attname AS name FROM pg_attribute WHERE attrelid = ?::regclass AND attnum > 0 AND NOT attisdropped
      ORDER BY attnum`,
    [table],
  );
  const list = columns.map((c) => `"${c.name}"`).join(', ');
  const fallback = defaultPartitionName(table);
  const { hasDefault } = await listPartitions(q, table);
  const waiting =
    hasDefault &&
    (await q.get(`SELECT 1 AS one FROM ${fallback} WHERE ${column} >= ? AND ${column} < ? LIMIT 1`, [from, to]));
  if (waiting) {
    // Rows move out of DEFAULT. A statement planned before this commits knows no new partition,
    // and run after it would find the moved rows in neither place (seen: a test's insert from
    // log_lines found 0 of 100,000 lines while the keeper's first pass moved them). The parent's
    // ACCESS EXCLUSIVE lock waits for statements already planned and makes later ones wait and
    // plan again. Taken only when rows move: the keeper makes partitions ahead, empty, so rows
    // wait in DEFAULT only after it fell behind; its lock_timeout bounds the wait.
    await q.run(`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
    await q.run(
      `WITH moved AS (DELETE FROM ${fallback} WHERE ${column} >= ? AND ${column} < ? RETURNING ${list})
       INSERT INTO ${name} (${list}) SELECT ${list} FROM moved`,
      [from, to],
    );
  }
  await q.run(`ALTER TABLE ${table} ATTACH PARTITION ${name} FOR VALUES FROM ('${from}') TO ('${to}')`);
  return { name, from, to };
}

/** Drops a partition and its rows at once (its file goes; no row is deleted one by one). */
export async function dropPartition(q: Queryable, partition: Partition): Promise<void> {
  if (!NAME.test(partition.name)) throw new Error(`not a plain name: ${partition.name}`);
  await q.run(`DROP TABLE ${partition.name}`);
}

/**
 * Makes every missing partition from the one holding `from` to the one holding `until`; answers
 * the partitions made. A slot that an existing partition overlaps is left alone.
 */
export async function ensurePartitions(
  q: Queryable,
  spec: TimePartitioned,
  from: Date,
  until: Date,
): Promise<Partition[]> {
  const { partitions } = await listPartitions(q, spec.table);
  const made: Partition[] = [];
  for (let start = slotStart(from, spec.width); start <= until; start = slotEnd(start, spec.width)) {
    const lo = start.toISOString();
    const hi = slotEnd(start, spec.width).toISOString();
    if (partitions.some((p) => p.from < hi && p.to > lo)) continue;
    made.push(await createPartition(q, spec, start));
  }
  return made;
}

/** Drops the partitions that end at or before `cutoff` (all their rows are older); answers them. */
export async function dropPartitionsBefore(q: Queryable, spec: TimePartitioned, cutoff: string): Promise<Partition[]> {
  const { partitions } = await listPartitions(q, spec.table);
  const gone = partitions.filter((p) => p.to <= cutoff);
  for (const partition of gone) await dropPartition(q, partition);
  return gone;
}
