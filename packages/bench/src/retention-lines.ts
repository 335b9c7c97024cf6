/**
 * Retention of log lines on PostgreSQL (issue 37), for the retention bench (retention.ts): two
 * databases with the same lines, one migrated to just before 202701290100_log_line_partitions
 * (log_lines and log_line_spans whole: the lines worker deletes a thousand lines a statement by
 * time, `expireLines`, still SQLite's path), the other to the end (both by day: the keeper drops
 * the days wholly past, `expireLines` deletes the rest of the edge day). The same two steps are
 * timed on each: the oldest whole day (a cutoff on a day's end), then half a day more.
 *
 *   BENCH_RETENTION_LINE_DAYS (15), BENCH_RETENTION_LINES_PER_DAY (20000)
 */
import type { Database } from '../../server/src/db/database.ts';
import { loadMigrations, migrate } from '../../server/src/db/migrate.ts';
import { openDatabase } from '../../server/src/db/open.ts';
import { dropPartitionsBefore, slotStart } from '../../server/src/db/time-partitions.ts';
import { expireLines, LINE_BATCH, logLinePartitions } from '../../server/src/resources/logs/index.ts';
import { createProject } from '../../server/src/resources/projects/index.ts';
import { prepareDatabase } from './databases.ts';

const DAYS = Number(process.env['BENCH_RETENTION_LINE_DAYS'] ?? 15);
const PER_DAY = Number(process.env['BENCH_RETENTION_LINES_PER_DAY'] ?? 20_000);
const DAY = 86_400_000;

/** The same lines in both: PER_DAY a day over DAYS days back from `now`, 1,000 groups in runs of ten ids. */
async function seed(db: Database, now: number): Promise<void> {
  await createProject(db, { id: 'lines', name: 'Lines', slug: 'lines', monthlyQuota: null });
  const total = DAYS * PER_DAY;
  await db.run(
    `INSERT INTO log_lines (group_id, project_id, environment, ts, level, source, data)
     SELECT 'g' || ((n / 10) % 1000), 'lines', 'live',
            to_char(to_timestamp((?::float8 + n * ?::float8) / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
            'info', 'source-' || (n % 10), jsonb_build_object('orderId', n % 10000, 'path', '/api/' || n)
       FROM generate_series(0, ?::int - 1) AS n`,
    [now - DAYS * DAY, (DAYS * DAY) / total, total],
  );
  // The spans store-lines.ts would have written: one per run of consecutive ids of one group.
  await db.run(
    `INSERT INTO log_line_spans (group_id, max_ts, first_id, last_id, min_ts, n, project_id)
     SELECT group_id, MAX(ts), MIN(id), MAX(id), MIN(ts), COUNT(*), MIN(project_id)
       FROM (SELECT group_id, id, ts, project_id, id - ROW_NUMBER() OVER (PARTITION BY group_id ORDER BY id) AS run
               FROM log_lines) lines
      GROUP BY group_id, run`,
  );
  await db.run('ANALYZE log_lines');
  await db.run('ANALYZE log_line_spans');
}

async function timed<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const start = process.hrtime.bigint();
  const result = await fn();
  return [Number(process.hrtime.bigint() - start) / 1e6, result];
}

/** The lines worker's retention: a thousand lines a statement until none is older. */
async function expireAll(db: Database, cutoff: string): Promise<number> {
  let deleted = 0;
  for (let n = LINE_BATCH; n === LINE_BATCH; deleted += n) n = await expireLines(db, 'lines', cutoff);
  return deleted;
}

/** The keeper's drops (lines, then spans), then the worker's retention of the edge day. */
async function expireByPartitions(db: Database, cutoff: string): Promise<number> {
  for (const spec of logLinePartitions(14)) await db.transaction((tx) => dropPartitionsBefore(tx, spec, cutoff));
  return expireAll(db, cutoff);
}

const countOf = async (db: Database) =>
  Number((await db.get<{ n: number }>('SELECT COUNT(*)::int AS n FROM log_lines'))!.n);

/** Rows of the retention bench's table: [step, rows one table, ms, rows partitioned, ms]. */
export async function logLineRetention(
  dir: string,
): Promise<{ note: string; rows: [string, number, number, number, number][] }> {
  const plainDb = await prepareDatabase('postgres', dir, '_lines_plain');
  const partedDb = await prepareDatabase('postgres', dir, '_lines_parted');
  const all = loadMigrations();
  const cut = all.findIndex((migration) => migration.id === '202701290100_log_line_partitions');
  const plain = openDatabase({ databaseUrl: plainDb.databaseUrl, dataDir: dir });
  const parted = openDatabase({ databaseUrl: partedDb.databaseUrl, dataDir: dir });
  try {
    // Anchored at noon, so the oldest day's lines start on a partition's start.
    const now = slotStart(new Date(), 'day').getTime() + 12 * 3600_000;
    await migrate(plain, all.slice(0, cut));
    await migrate(parted, all.slice(0, cut));
    await seed(plain, now);
    await seed(parted, now);
    // The partitioned one is migrated with its lines in it, as an upgrade would be.
    const [migrateMs] = await timed(() => migrate(parted, all));
    const load = (await plain.get<{ load: string }>(
      "SELECT pg_size_pretty(pg_total_relation_size('log_lines')) AS load",
    ))!;
    const note = `${DAYS * PER_DAY} log lines (${PER_DAY} a day, ${DAYS} days, ${load.load}); partitioned in ${(migrateMs / 1000).toFixed(1)} s`;
    const oldest = slotStart(new Date(now - DAYS * DAY), 'day').getTime();
    const rows: [string, number, number, number, number][] = [];
    for (const [label, cutoff] of [
      ['log lines: the oldest whole day', oldest + DAY],
      ['log lines: half a day more', oldest + 1.5 * DAY],
    ] as const) {
      const iso = new Date(cutoff).toISOString();
      const [plainMs, plainN] = await timed(() => expireAll(plain, iso));
      const before = await countOf(parted);
      const [partedMs] = await timed(() => expireByPartitions(parted, iso));
      rows.push([label, plainN, plainMs, before - (await countOf(parted)), partedMs]);
    }
    return { note, rows };
  } finally {
    await plain.close();
    await parted.close();
    await plainDb.drop();
    await partedDb.drop();
  }
}
