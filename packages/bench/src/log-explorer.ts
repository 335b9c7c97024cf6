/**
 * The log explorer's queries over 100,000 log groups, timed in-process (no HTTP, no wrk): the
 * queries each list or histogram request runs, through the logs store, on SQLite and, with
 * BENCH_LOGS_PG_URL, on PostgreSQL too. The baseline, measured in the same run and interleaved
 * with every case, is one group read by id (GET /logs/{id}'s query); each row gives its median
 * time and its ratio to the baseline's.
 *
 *   node packages/bench/src/log-explorer.ts      # about 30 s per database
 *
 * Settings: BENCH_LOGS_ITERATIONS (default 200), BENCH_LOGS_PG_URL (an admin URL, e.g.
 * postgres://postgres@127.0.0.1:5432/postgres: a fresh database is made and dropped).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase } from '../../server/src/db/open.ts';
import {
  cappedLogStatusCounts,
  countLogGroups,
  getLogGroup,
  listLogPage,
  logHistogramRows,
  type LogFilter,
} from '../../server/src/resources/logs/index.ts';
import { BENCH_LOG_GROUPS, BENCH_LOGS_PROJECT_ID, seedBenchDatabase } from './seed.ts';

const ITERATIONS = Number(process.env['BENCH_LOGS_ITERATIONS'] ?? 200);
const PAGE = 50;
type Db = ReturnType<typeof openDatabase>;

/** What one list request runs: the page (one row more for hasMore), the capped total, the capped status counts. */
async function listRequest(db: Db, filter: LogFilter, after: Parameters<typeof listLogPage>[4]) {
  await Promise.all([
    listLogPage(db, BENCH_LOGS_PROJECT_ID, filter, PAGE, after),
    countLogGroups(db, BENCH_LOGS_PROJECT_ID, filter),
    cappedLogStatusCounts(db, BENCH_LOGS_PROJECT_ID, undefined),
  ]);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function measure(label: string, databaseUrl: string, dataDir: string): Promise<string[]> {
  const started = Date.now();
  await seedBenchDatabase(databaseUrl, dataDir, { logGroups: true, roadmapSizes: [] });
  const seeded = ((Date.now() - started) / 1000).toFixed(1);
  const db = openDatabase({ databaseUrl, dataDir });
  try {
    // PostgreSQL plans by its statistics: fresh after a bulk load, as autovacuum would make them.
    if (db.dialect === 'postgres') await db.run('ANALYZE log_groups');
    const first = await listLogPage<{ id: string; last_seen_at: string }>(db, BENCH_LOGS_PROJECT_ID, {}, PAGE, {
      offset: 0,
    });
    const last = first.rows.at(-1)!;
    const cursor = { cursor: { lastSeenAt: last.last_seen_at, id: last.id } };
    const now = Date.now();
    const week = { since: new Date(now - 7 * 86_400_000).toISOString(), until: new Date(now).toISOString() };
    const day = { since: new Date(now - 86_400_000).toISOString(), until: new Date(now).toISOString() };
    const cases: [string, () => Promise<unknown>][] = [
      ['List: first page', () => listRequest(db, {}, { offset: 0 })],
      ['List: level=error', () => listRequest(db, { levels: ['error'] }, { offset: 0 })],
      ['List: level=error,warn', () => listRequest(db, { levels: ['error', 'warn'] }, { offset: 0 })],
      ['List: category', () => listRequest(db, { category: 'category-7' }, { offset: 0 })],
      ['List: text q=checkout', () => listRequest(db, { q: 'checkout' }, { offset: 0 })],
      ['List: second page (cursor)', () => listRequest(db, {}, cursor)],
      ['List: page 1,000 by offset (for comparison)', () => listRequest(db, {}, { offset: 999 * PAGE })],
      ['Histogram: 24 hours by hour', () => logHistogramRows(db, BENCH_LOGS_PROJECT_ID, day, 'hour')],
      ['Histogram: 7 days by hour', () => logHistogramRows(db, BENCH_LOGS_PROJECT_ID, week, 'hour')],
    ];
    const baseline = () => getLogGroup(db, BENCH_LOGS_PROJECT_ID, last.id);
    // Warm up every case once.
    for (const [, run] of cases) await run();
    const times = new Map<string, number[]>(cases.map(([name]) => [name, []]));
    const base: number[] = [];
    for (let i = 0; i < ITERATIONS; i++) {
      for (const [name, run] of cases) {
        let t = performance.now();
        await baseline();
        base.push(performance.now() - t);
        t = performance.now();
        await run();
        times.get(name)!.push(performance.now() - t);
      }
    }
    const baseMs = median(base);
    const lines = [
      `${label}: ${BENCH_LOG_GROUPS.toLocaleString('en')} log groups (seeded in ${seeded} s), median of ${ITERATIONS} runs each, interleaved with the baseline.`,
      '',
      '| Query (what one request runs) | median | p90 | × baseline |',
      '|---|---:|---:|---:|',
      `| Baseline: one group by id | ${baseMs.toFixed(3)} ms | ${[...base].sort((a, b) => a - b)[Math.floor(base.length * 0.9)]!.toFixed(3)} ms | 1 |`,
    ];
    for (const [name, values] of times) {
      const sorted = [...values].sort((a, b) => a - b);
      const m = median(values);
      lines.push(
        `| ${name} | ${m.toFixed(2)} ms | ${sorted[Math.floor(sorted.length * 0.9)]!.toFixed(2)} ms | ${(m / baseMs).toFixed(0)} |`,
      );
    }
    return lines;
  } finally {
    await db.close();
  }
}

const out: string[] = [];
const dir = mkdtempSync(join(tmpdir(), 'signpost-bench-logs-'));
try {
  out.push(...(await measure('SQLite', `sqlite:${join(dir, 'bench.db')}`, dir)), '');
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const pgAdmin = process.env['BENCH_LOGS_PG_URL'];
if (pgAdmin) {
  const name = `signpost_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: pgAdmin });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(pgAdmin);
  url.pathname = `/${name}`;
  const pgDir = mkdtempSync(join(tmpdir(), 'signpost-bench-logs-'));
  try {
    out.push(...(await measure('PostgreSQL', url.toString(), pgDir)), '');
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
    rmSync(pgDir, { recursive: true, force: true });
  }
}
process.stdout.write(`${out.join('\n')}\n`);
