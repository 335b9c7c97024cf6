/**
 * Retention of kept error events on PostgreSQL (issue 37): two databases with the same rows, one
 * migrated to just before the time partitions (error_events one table: retention walks the groups
 * and deletes row by row, store-groups.ts `pruneGroupEvents`, still SQLite's path), the other to
 * the end (error_events by week: the keeper drops the weeks wholly past, `pruneEventsBefore`
 * deletes the rest of the edge week by time). Measured side by side in one run, as ratios:
 *
 * - expiring the oldest whole week (the cutoff on a week's end: the partitions drop it whole),
 * - expiring half a week more (the cutoff mid-week: both delete rows, the partitioned one only in
 *   the edge week),
 * - writing the same new events into each (what the partition key in the primary key and the BRIN
 *   index cost a write);
 * - and the same two steps for log lines by day (retention-lines.ts).
 *
 *   npm run retention -w @signpost/bench      BENCH_RETENTION_WEEKS (13), BENCH_RETENTION_PER_WEEK (20000),
 *                                             BENCH_RETENTION_GROUPS (2000), and retention-lines.ts's
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Database } from '../../server/src/db/database.ts';
import { loadMigrations, migrate } from '../../server/src/db/migrate.ts';
import { openDatabase } from '../../server/src/db/open.ts';
import { dropPartitionsBefore, slotStart } from '../../server/src/db/time-partitions.ts';
import { errorEventPartitions, pruneEventsBefore, pruneGroupEvents } from '../../server/src/resources/reports/index.ts';
import { createProject } from '../../server/src/resources/projects/index.ts';
import { prepareDatabase } from './databases.ts';
import { logLineRetention } from './retention-lines.ts';

const WEEKS = Number(process.env['BENCH_RETENTION_WEEKS'] ?? 13);
const PER_WEEK = Number(process.env['BENCH_RETENTION_PER_WEEK'] ?? 20_000);
const GROUPS = Number(process.env['BENCH_RETENTION_GROUPS'] ?? 2000);
const DAY = 86_400_000;
const WEEK = 7 * DAY;
const PAYLOAD = 'x'.repeat(600);

/** The same events in both: GROUPS groups, PER_WEEK events a week spread over WEEKS weeks back from `now`. */
async function seed(db: Database, now: number): Promise<void> {
  await createProject(db, { id: 'ret', name: 'Retention', slug: 'retention', monthlyQuota: null });
  const first = new Date(now - WEEKS * WEEK).toISOString();
  await db.run(
    `INSERT INTO error_groups (id, project_id, environment, sdk_environment, group_key, title, level, first_seen_at, last_seen_at)
     SELECT 'eg' || lpad(g::text, 6, '0'), 'ret', 'live', 'production', 'k' || g, 'E' || g, 'error', ?, ?
       FROM generate_series(1, ?::int) AS g`,
    [first, new Date(now).toISOString(), GROUPS],
  );
  const total = WEEKS * PER_WEEK;
  // Event n of all: group n % GROUPS, received evenly from the oldest week to now, in time order.
  await db.run(
    `INSERT INTO error_events (group_id, ordinal, event_id, received_at, release, sdk_environment, user_key, handled, payload)
     SELECT 'eg' || lpad((n % ?::int + 1)::text, 6, '0'), n / ?::int + 1, md5(n::text),
            to_char(to_timestamp((?::float8 + n * ?::float8) / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
            NULL, 'production', NULL, 1, ?
       FROM generate_series(0, ?::int - 1) AS n`,
    [GROUPS, GROUPS, now - WEEKS * WEEK, (WEEKS * WEEK) / total, PAYLOAD, total],
  );
  await db.run('ANALYZE error_events');
}

async function timed<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const start = process.hrtime.bigint();
  const result = await fn();
  return [Number(process.hrtime.bigint() - start) / 1e6, result];
}

/** Old path: every group first seen before the cutoff, a hundred per statement. */
async function pruneByGroups(db: Database, cutoff: string): Promise<number> {
  let deleted = 0;
  let after: string | undefined = '';
  while (after !== undefined) {
    const batch = await pruneGroupEvents(db, cutoff, after, 100);
    deleted += batch.deleted;
    after = batch.next;
  }
  return deleted;
}

/** New path: whole weeks dropped, the edge week's older rows deleted a thousand at a time; the rows it deleted. */
async function pruneByPartitions(db: Database, cutoff: string): Promise<number> {
  const spec = errorEventPartitions(90);
  await db.transaction((tx) => dropPartitionsBefore(tx, spec, cutoff));
  let deleted = 0;
  for (let n = 1000; n === 1000; deleted += n) n = await pruneEventsBefore(db, cutoff, 1000);
  return deleted;
}

const countOf = async (db: Database) =>
  Number((await db.get<{ n: number }>('SELECT COUNT(*)::int AS n FROM error_events'))!.n);

async function writeEvents(db: Database, now: number, count: number, from: number): Promise<void> {
  for (let i = 0; i < count; i += 100) {
    const rows = Math.min(100, count - i);
    const params: (string | number)[] = [];
    const values: string[] = [];
    for (let j = 0; j < rows; j++) {
      const n = from + i + j;
      values.push("(?, ?, ?, ?, NULL, 'production', NULL, 1, ?)");
      params.push(
        `eg${String((n % GROUPS) + 1).padStart(6, '0')}`,
        1_000_000 + n,
        `w${n}`,
        new Date(now - 60_000 + j).toISOString(),
        PAYLOAD,
      );
    }
    await db.run(
      `INSERT INTO error_events (group_id, ordinal, event_id, received_at, release, sdk_environment, user_key, handled, payload) VALUES ${values.join(', ')}`,
      params,
    );
  }
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'signpost-retention-'));
  const plainDb = await prepareDatabase('postgres', dir, '_plain');
  const partedDb = await prepareDatabase('postgres', dir, '_parted');
  const all = loadMigrations();
  const cut = all.findIndex((migration) => migration.id === '202701140100_time_partitions');
  const plain = openDatabase({ databaseUrl: plainDb.databaseUrl, dataDir: dir });
  const parted = openDatabase({ databaseUrl: partedDb.databaseUrl, dataDir: dir });
  try {
    // Anchored so that the oldest week starts on a partition's start: the first cutoff drops it whole.
    const now = slotStart(new Date(), 'week').getTime() + 3 * DAY + 12 * 3600_000;
    await migrate(plain, all.slice(0, cut));
    await migrate(parted, all.slice(0, cut));
    const [seedMs] = await timed(async () => {
      await seed(plain, now);
      await seed(parted, now);
    });
    // The partitioned one is migrated with its rows in it, as an upgrade would be.
    const [migrateMs] = await timed(() => migrate(parted, all));
    await parted.run('ANALYZE error_events');
    const load = (await plain.get<{ load: string }>(
      "SELECT pg_size_pretty(pg_total_relation_size('error_events')) AS load",
    ))!;
    console.log(
      `${WEEKS * PER_WEEK} events (${PER_WEEK} a week, ${WEEKS} weeks, ${GROUPS} groups, ${load.load}); seeded both in ${(seedMs / 1000).toFixed(1)} s, partitioned in ${(migrateMs / 1000).toFixed(1)} s`,
    );
    const oldest = slotStart(new Date(now - WEEKS * WEEK), 'week').getTime();
    const rows: [string, number, number, number, number][] = [];
    for (const [label, cutoff] of [
      ['the oldest whole week', oldest + WEEK],
      ['half a week more', oldest + WEEK + 3.5 * DAY],
    ] as const) {
      const iso = new Date(cutoff).toISOString();
      const [plainMs, plainN] = await timed(() => pruneByGroups(plain, iso));
      // Rows counted outside the timing: a drop does not count what it removes.
      const before = await countOf(parted);
      const [partedMs] = await timed(() => pruneByPartitions(parted, iso));
      rows.push([label, plainN, plainMs, before - (await countOf(parted)), partedMs]);
    }
    const lines = await logLineRetention(dir);
    console.log(lines.note);
    rows.push(...lines.rows);
    const WRITES = 20_000;
    const writes: number[][] = [[], []];
    for (let round = 0; round < 3; round++) {
      writes[0]!.push((await timed(() => writeEvents(plain, now, WRITES, round * WRITES)))[0]);
      writes[1]!.push((await timed(() => writeEvents(parted, now, WRITES, round * WRITES)))[0]);
    }
    console.log(
      '\n| Retention step | rows | one table (groups walked) | partitioned (drop + edge) | partitioned / one table |',
    );
    console.log('|---|---:|---:|---:|---:|');
    for (const [label, plainN, plainMs, partedN, partedMs] of rows) {
      const n = plainN === partedN ? String(plainN) : `${plainN} / ${partedN}`;
      console.log(
        `| ${label} | ${n} | ${plainMs.toFixed(0)} ms | ${partedMs.toFixed(0)} ms | ${(partedMs / plainMs).toFixed(3)}× |`,
      );
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const [w0, w1] = [median(writes[0]!), median(writes[1]!)];
    console.log(
      `\nWriting ${WRITES} events (100 a statement, median of 3 rounds, alternating): one table ${w0.toFixed(0)} ms, partitioned ${w1.toFixed(0)} ms: ${(w1 / w0).toFixed(2)}×`,
    );
  } finally {
    await plain.close();
    await parted.close();
    await plainDb.drop();
    await partedDb.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
