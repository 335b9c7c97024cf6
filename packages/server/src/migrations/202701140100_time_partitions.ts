/**
 * Time partitions on PostgreSQL (issue 37): error_events by `received_at` (a partition per ISO
 * week) and release_session_users by `hour` (per ISO week) become tables partitioned by RANGE, with
 * a DEFAULT partition each, so that retention drops whole partitions instead of deleting row by row
 * (db/time-partitions.ts, db/partition-keeper.ts). SQLite keeps its tables as they are: on it this
 * migration does nothing.
 *
 * Why weekly: error events are kept ERROR_EVENT_RETENTION_DAYS (90 by default), and a group's
 * events are read by group, never by time, so every read visits every partition: weeks keep that to
 * about 16 (13 of retention, the current one, two ahead). Of release health's counters one is large
 * and expired row by row: release_session_users, a row per user, hour and release, kept
 * SESSION_RETENTION_DAYS (90): partitioned by week of `hour`, which its key already holds (the
 * other counters are a row per hour and release, or per user and release, and stay whole).
 *
 * A key of a partitioned table must hold the partition column, so the primary keys gain it where
 * they lack it: error_events (group_id, ordinal, received_at), where ordinals stay unique per group
 * by the group row's lock; release_session_users' key holds `hour` already. Both stand a rolling
 * upgrade: the release before this one inserts events with no ON CONFLICT, and session users with
 * `ON CONFLICT` on exactly that key, so an old process keeps writing to the new tables.
 *
 * release_sessions is NOT partitioned here, though its rows are the shortest-lived: its key would
 * have to gain `started`, and the release before this one inserts sessions with
 * `ON CONFLICT (project_id, environment, sid) DO NOTHING`, a target no unique index of the
 * partitioned table matches (42P10): during a rolling upgrade every session envelope to an old
 * process would answer 500. This release inserts with a target-less `ON CONFLICT DO NOTHING`, which
 * stands on either key (release-health/store.ts); a later migration partitions release_sessions (by
 * UTC day of `started`) once every process runs that insert: the contract step of this expand.
 * Nothing references either partitioned table. The time columns are `COLLATE "C"`: ISO-8601 text
 * then sorts, and partitions by range, as time does.
 *
 * A module, not SQL: the partitions that hold the existing rows are made from the rows' range,
 * with the keeper's own code; then the rows are copied over, in one transaction with the swap.
 */
import type { Database, Queryable } from '../db/database.ts';
import { ensurePartitions, type TimePartitioned } from '../db/time-partitions.ts';

const DAY_MS = 86_400_000;

interface Conversion {
  spec: TimePartitioned;
  columns: string;
  create: string;
  /** Indexes of the old table, dropped before the new one takes their names. */
  oldIndexes: string[];
  indexes: string[];
  /** Partitions are made for the existing rows at most this far back (older ones go to DEFAULT). */
  backMs: number;
  /** And from at least this far back: the times new rows may have (a session started 5 days ago). */
  writesBackMs: number;
  aheadMs: number;
}

const CONVERSIONS: Conversion[] = [
  {
    spec: { table: 'error_events', column: 'received_at', width: 'week' },
    columns: 'group_id, ordinal, event_id, received_at, release, sdk_environment, user_key, handled, payload',
    create: `CREATE TABLE error_events (
      group_id TEXT NOT NULL REFERENCES error_groups(id) ON DELETE CASCADE,
      ordinal INTEGER NOT NULL,
      event_id TEXT NOT NULL,
      received_at TEXT COLLATE "C" NOT NULL,
      release TEXT,
      sdk_environment TEXT NOT NULL,
      user_key TEXT,
      handled INTEGER,
      payload TEXT NOT NULL,
      PRIMARY KEY (group_id, ordinal, received_at)
    ) PARTITION BY RANGE (received_at)`,
    oldIndexes: ['error_events_by_event_id'],
    indexes: [
      'CREATE INDEX error_events_by_event_id ON error_events (event_id)',
      // The retention's delete of the edge partition finds its old rows by time: a block-range
      // index is a few pages per partition and costs an event's write next to nothing.
      'CREATE INDEX error_events_received ON error_events USING brin (received_at)',
    ],
    backMs: 400 * DAY_MS,
    writesBackMs: 0,
    aheadMs: 14 * DAY_MS,
  },
  {
    spec: { table: 'release_session_users', column: 'hour', width: 'week' },
    columns: 'project_id, environment, release, sdk_environment, hour, distinct_id, crashed',
    create: `CREATE TABLE release_session_users (
      project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      environment TEXT NOT NULL,
      release TEXT NOT NULL,
      sdk_environment TEXT NOT NULL,
      hour TEXT COLLATE "C" NOT NULL,
      distinct_id TEXT NOT NULL,
      crashed INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (project_id, environment, release, sdk_environment, hour, distinct_id)
    ) PARTITION BY RANGE (hour)`,
    oldIndexes: ['release_session_users_hour'],
    indexes: ['CREATE INDEX release_session_users_hour ON release_session_users (hour)'],
    backMs: 400 * DAY_MS,
    writesBackMs: 5 * DAY_MS,
    aheadMs: 14 * DAY_MS,
  },
];

async function convert(q: Queryable, c: Conversion, now: Date): Promise<void> {
  const { table, column } = c.spec;
  const old = `${table}_unpartitioned`;
  await q.run(`ALTER TABLE ${table} RENAME TO ${old}`);
  // Index and key names are the schema's: the old ones go so the new table can take them.
  for (const index of c.oldIndexes) await q.run(`DROP INDEX ${index}`);
  await q.run(`ALTER TABLE ${old} DROP CONSTRAINT ${table}_pkey`);
  await q.run(c.create);
  await q.run(`CREATE TABLE ${table}_default PARTITION OF ${table} DEFAULT`);
  const range = await q.get<{ oldest: string | null }>(`SELECT MIN(${column}) AS oldest FROM ${old}`);
  const floor = new Date(now.getTime() - c.backMs);
  const writable = new Date(now.getTime() - c.writesBackMs);
  const oldest = range?.oldest ? new Date(range.oldest) : writable;
  const from = Number.isNaN(oldest.getTime()) || oldest < floor ? floor : oldest < writable ? oldest : writable;
  await ensurePartitions(q, c.spec, from, new Date(now.getTime() + c.aheadMs));
  await q.run(`INSERT INTO ${table} (${c.columns}) SELECT ${c.columns} FROM ${old}`);
  await q.run(`DROP TABLE ${old}`);
  for (const index of c.indexes) await q.run(index);
  await q.run(`ANALYZE ${table}`);
}

export async function up(q: Queryable, dialect: Database['dialect']): Promise<void> {
  if (dialect !== 'postgres') return;
  const now = new Date();
  for (const conversion of CONVERSIONS) await convert(q, conversion, now);
}
