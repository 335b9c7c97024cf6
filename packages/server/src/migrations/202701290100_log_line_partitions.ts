/**
 * Log lines in time partitions on PostgreSQL (issue 37, as 202701140100_time_partitions did for
 * error events): log_lines by UTC day of `ts` (the line's own time) and log_line_spans by UTC day
 * of `max_ts` (its newest line's time), each with a DEFAULT partition, so that retention drops a
 * day's lines and spans whole (db/time-partitions.ts, db/partition-keeper.ts,
 * resources/logs/partitions.ts). SQLite keeps its tables: on it this migration does nothing.
 *
 * Why days, not weeks: lines are kept LOG_LINE_RETENTION_DAYS, 14 by default, and are the most
 * numerous rows there are. The partition that holds the cutoff has rows on both sides of it, and
 * the lines worker deletes its older ones row by row (exact retention): a day's partition leaves
 * at most a day of dead rows until it is dropped, a week's up to a week, a third of what 14 days
 * keep. 14 days are about 17 partitions (the window, the edge, two ahead); the reads that name no
 * time (a group's lines by id through its spans, a line by id, the live tail's newest ids) visit
 * each, an index probe apiece, and a group's page prunes to its spans' days (store-line-reads.ts).
 * A span's lines are all as old as its `max_ts` or older, so a spans partition is dropped only when
 * all its spans' lines are past the retention too.
 *
 * Keys must hold the partition column: log_lines' primary key becomes (id, ts) (ids stay unique:
 * one sequence gives them), log_line_spans' (group_id, max_ts, first_id) holds max_ts already. The
 * id was an identity column, which a partitioned table takes only from PostgreSQL 17: it becomes a
 * column with its own sequence's default, `log_lines_id_seq` as before, continuing where the old
 * one stopped (ids never come back: the live tail reads lines after an id). The time columns are
 * `COLLATE "C"`: ISO-8601 text then sorts, and partitions by range, as time does.
 *
 * A rolling upgrade: the release before this one inserts lines without an id and spans with no
 * ON CONFLICT, and deletes and updates by id and time: every statement of it stands on the new
 * tables (test/db/log-line-partitions.test.ts runs them, test/server/rolling-upgrade.test.ts sends
 * log lines to both versions).
 */
import type { Database, Queryable } from '../db/database.ts';
import { ensurePartitions, type TimePartitioned } from '../db/time-partitions.ts';

const DAY_MS = 86_400_000;
/** Partitions are made for the existing rows at most this far back (older rows go to DEFAULT). */
const BACK_MS = 31 * DAY_MS;
/**
 * And at least this far back, as the keeper makes them with the default LOG_LINE_RETENTION_DAYS
 * (a line's time is its sender's): the keeper's first pass then has no days to make and no rows
 * to move out of DEFAULT.
 */
const WINDOW_MS = 14 * DAY_MS;
/** And ahead of now, as the keeper makes them (resources/logs/partitions.ts). */
const AHEAD_MS = 2 * DAY_MS;

const LINE_COLUMNS =
  'id, group_id, project_id, environment, ts, level, severity, source, app_version, user_id, data, trace_id, span_id';
const SPAN_COLUMNS = 'group_id, max_ts, first_id, last_id, min_ts, n, project_id';

/** Makes `spec`'s partitions for the rows of `old` (from the oldest, within BACK_MS), the window and ahead. */
async function partitionsFor(q: Queryable, spec: TimePartitioned, old: string, now: Date): Promise<void> {
  await q.run(`CREATE TABLE ${spec.table}_default PARTITION OF ${spec.table} DEFAULT`);
  const range = await q.get<{ oldest: string | null }>(`SELECT MIN(${spec.column}) AS oldest FROM ${old}`);
  const floor = new Date(now.getTime() - BACK_MS);
  const window = new Date(now.getTime() - WINDOW_MS);
  const oldest = range?.oldest ? new Date(range.oldest) : window;
  const from = Number.isNaN(oldest.getTime()) || oldest < floor ? floor : oldest > window ? window : oldest;
  await ensurePartitions(q, spec, from, new Date(now.getTime() + AHEAD_MS));
}

async function partitionLines(q: Queryable, now: Date): Promise<void> {
  await q.run('ALTER TABLE log_lines RENAME TO log_lines_unpartitioned');
  for (const index of ['log_lines_by_time', 'log_lines_data']) await q.run(`DROP INDEX ${index}`);
  await q.run('ALTER TABLE log_lines_unpartitioned DROP CONSTRAINT log_lines_pkey');
  // The next id the old identity would have given; its sequence goes with the identity.
  const next = await q.get<{ id: string | number }>(
    "SELECT nextval(pg_get_serial_sequence('log_lines_unpartitioned', 'id')) AS id",
  );
  await q.run('ALTER TABLE log_lines_unpartitioned ALTER COLUMN id DROP IDENTITY');
  await q.run(`CREATE SEQUENCE log_lines_id_seq START WITH ${BigInt(next!.id).toString()}`);
  await q.run(`CREATE TABLE log_lines (
    id BIGINT NOT NULL DEFAULT nextval('log_lines_id_seq'),
    group_id TEXT NOT NULL,
    project_id TEXT NOT NULL,
    environment TEXT NOT NULL,
    ts TEXT COLLATE "C" NOT NULL,
    level TEXT NOT NULL,
    severity TEXT,
    source TEXT,
    app_version TEXT,
    user_id TEXT,
    data JSONB,
    trace_id TEXT,
    span_id TEXT,
    PRIMARY KEY (id, ts)
  ) PARTITION BY RANGE (ts)`);
  await q.run('ALTER SEQUENCE log_lines_id_seq OWNED BY log_lines.id');
  await partitionsFor(q, { table: 'log_lines', column: 'ts', width: 'day' }, 'log_lines_unpartitioned', now);
  await q.run(`INSERT INTO log_lines (${LINE_COLUMNS}) SELECT ${LINE_COLUMNS} FROM log_lines_unpartitioned`);
  await q.run('DROP TABLE log_lines_unpartitioned');
  await q.run('CREATE INDEX log_lines_by_time ON log_lines (project_id, ts, id)');
  await q.run('CREATE INDEX log_lines_data ON log_lines USING GIN (data jsonb_path_ops)');
  await q.run('ANALYZE log_lines');
}

async function partitionSpans(q: Queryable, now: Date): Promise<void> {
  await q.run('ALTER TABLE log_line_spans RENAME TO log_line_spans_unpartitioned');
  await q.run('ALTER TABLE log_line_spans_unpartitioned DROP CONSTRAINT log_line_spans_pkey');
  await q.run(`CREATE TABLE log_line_spans (
    group_id TEXT NOT NULL,
    max_ts TEXT COLLATE "C" NOT NULL,
    first_id BIGINT NOT NULL,
    last_id BIGINT NOT NULL,
    min_ts TEXT COLLATE "C" NOT NULL,
    n BIGINT NOT NULL,
    project_id TEXT NOT NULL,
    PRIMARY KEY (group_id, max_ts, first_id)
  ) PARTITION BY RANGE (max_ts)`);
  await partitionsFor(
    q,
    { table: 'log_line_spans', column: 'max_ts', width: 'day' },
    'log_line_spans_unpartitioned',
    now,
  );
  await q.run(`INSERT INTO log_line_spans (${SPAN_COLUMNS}) SELECT ${SPAN_COLUMNS} FROM log_line_spans_unpartitioned`);
  await q.run('DROP TABLE log_line_spans_unpartitioned');
  await q.run('ANALYZE log_line_spans');
}

export async function up(q: Queryable, dialect: Database['dialect']): Promise<void> {
  if (dialect !== 'postgres') return;
  const now = new Date();
  await partitionLines(q, now);
  await partitionSpans(q, now);
}
