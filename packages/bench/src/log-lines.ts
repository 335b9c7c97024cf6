/**
 * The log explorer's line queries (issue 32) at 10,000 and at 1,000,000 lines, timed in-process:
 * lines written through the logs store (POST /logs's write: groups, lines, volume), spread over
 * the last 7 days in 1,000 groups, each line's data with an `orderId` (one of 100,000) and a path.
 * Each case runs the query one explorer request runs; the table gives medians at both sizes and
 * their ratio (the issue asks for at most 1.2).
 *
 *   node packages/bench/src/log-lines.ts        # SQLite; BENCH_LOGS_PG_URL=postgres://… adds PostgreSQL
 *
 * Settings: BENCH_LINES_SIZES (default 10000,1000000), BENCH_LINES_ITERATIONS (default 50),
 * BENCH_LINES_SQLITE=0 (PostgreSQL only), BENCH_LINES_KEEP=1 (the seeded databases are kept and
 * named, to read a query's plan with EXPLAIN afterwards; drop them yourself).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { migrate } from '../../server/src/db/migrate.ts';
import { openDatabase } from '../../server/src/db/open.ts';
import { createProject } from '../../server/src/resources/projects/index.ts';
import {
  listLinePage,
  logHistogram,
  parseLogSearch,
  storeLogBatch,
  type LineFilter,
  type LogEntry,
} from '../../server/src/resources/logs/index.ts';

const SIZES = (process.env['BENCH_LINES_SIZES'] ?? '10000,1000000').split(',').map(Number);
const ITERATIONS = Number(process.env['BENCH_LINES_ITERATIONS'] ?? 50);
const KEEP = process.env['BENCH_LINES_KEEP'] === '1';
const PROJECT = 'bench-lines';
const GROUPS = 1000;
const DAY = 86_400_000;
type Db = ReturnType<typeof openDatabase>;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function seed(db: Db, lines: number): Promise<number> {
  await migrate(db);
  await db.transaction((tx) => createProject(tx, { id: PROJECT, name: 'Lines', slug: PROJECT, monthlyQuota: null }));
  const scope = { projectId: PROJECT, environment: 'live' as const };
  const now = Date.now();
  const started = performance.now();
  const levels = ['error', 'warn', 'info', 'debug', 'trace'] as const;
  for (let done = 0; done < lines; ) {
    const batches: Promise<void>[] = [];
    for (let b = 0; b < 16 && done < lines; b++) {
      const entries: LogEntry[] = [];
      for (let i = 0; i < 100 && done < lines; i++, done++) {
        const group = done % GROUPS;
        entries.push({
          level: levels[group % 5]!,
          message: `Step ${group} of request handling`,
          category: `module-${group % 20}`,
          source: `service-${group % 10}`,
          data: { orderId: done % 100_000, path: `/api/orders/${done % 100_000}` },
          // Oldest first, as logs arrive: spread evenly over the last 7 days.
          timestamp: new Date(now - 7 * DAY + Math.floor((done / lines) * 7 * DAY)).toISOString(),
        });
      }
      batches.push(storeLogBatch(db, scope, entries, new Date()));
    }
    await Promise.all(batches);
  }
  return (performance.now() - started) / 1000;
}

async function measure(label: string, databaseUrl: string, dataDir: string, lines: number) {
  const db = openDatabase({ databaseUrl, dataDir });
  try {
    const seconds = await seed(db, lines);
    // As autovacuum would after a bulk load: statistics, and GIN's pending list merged into the index.
    if (db.dialect === 'postgres') {
      await db.run('ANALYZE');
      // log_lines is partitioned by day (server partitions.ts): its GIN index is one per partition.
      await db.all(
        `SELECT gin_clean_pending_list(i.inhrelid::regclass) FROM pg_inherits i
          WHERE i.inhparent = 'log_lines_data'::regclass`,
      );
    }
    const week: LineFilter = { from: new Date(Date.now() - 7 * DAY).toISOString(), to: new Date().toISOString() };
    const field = (q: string) => ({ ...week, fields: parseLogSearch(q).fields });
    const cases: [string, () => Promise<unknown>][] = [
      ['Lines: first page of 100 (7 days)', () => listLinePage(db, PROJECT, week, 100, undefined)],
      ['Lines: level=error', () => listLinePage(db, PROJECT, { ...week, levels: ['error'] }, 100, undefined)],
      ['Lines: source', () => listLinePage(db, PROJECT, { ...week, source: 'service-3' }, 100, undefined)],
      [
        'Lines: field data.orderId = 42 (1 in 100,000)',
        () => listLinePage(db, PROJECT, field('data.orderId = 42'), 100, undefined),
      ],
      [
        'Lines: field data.path = /api/orders/1* (prefix)',
        () => listLinePage(db, PROJECT, field('data.path = /api/orders/1*'), 100, undefined),
      ],
      ['Histogram: 24 hours by hour', () => logHistogram(db, PROJECT, {}, undefined, undefined)],
      [
        'Histogram: 7 days by hour',
        () => logHistogram(db, PROJECT, {}, new Date(Date.now() - 7 * DAY).toISOString(), undefined),
      ],
      [
        'Histogram: last hour by minute',
        () => logHistogram(db, PROJECT, {}, new Date(Date.now() - 3_600_000).toISOString(), undefined),
      ],
    ];
    for (const [, run] of cases) await run();
    const times = new Map<string, number[]>(cases.map(([name]) => [name, []]));
    for (let i = 0; i < ITERATIONS; i++)
      for (const [name, run] of cases) {
        const t = performance.now();
        await run();
        times.get(name)!.push(performance.now() - t);
      }
    const result = new Map([...times].map(([name, values]) => [name, median(values)]));
    process.stderr.write(`${label} ${lines.toLocaleString('en')} lines: seeded in ${seconds.toFixed(1)} s\n`);
    return { result, seconds };
  } finally {
    await db.close();
  }
}

async function onDatabase(label: string, open: () => Promise<{ url: string; dir: string; done: () => Promise<void> }>) {
  const runs = [];
  for (const size of SIZES) {
    const target = await open();
    try {
      runs.push({ size, ...(await measure(label, target.url, target.dir, size)) });
    } finally {
      await target.done();
    }
  }
  const lines = [
    `${label}: median of ${ITERATIONS} runs each (seeded through the logs store in ${runs.map((r) => `${r.seconds.toFixed(0)} s`).join(' and ')}: ${runs.map((r) => `${Math.round(r.size / r.seconds).toLocaleString('en')} entries/s`).join(', ')}).`,
    '',
    `| Query | ${runs.map((r) => `${r.size.toLocaleString('en')} lines`).join(' | ')} | ratio |`,
    `|---|${runs.map(() => '---:').join('|')}|---:|`,
  ];
  for (const name of runs[0]!.result.keys()) {
    const values = runs.map((r) => r.result.get(name)!);
    lines.push(
      `| ${name} | ${values.map((v) => `${v.toFixed(2)} ms`).join(' | ')} | ${(values.at(-1)! / values[0]!).toFixed(2)} |`,
    );
  }
  return lines;
}

const out: string[] = [];
if (process.env['BENCH_LINES_SQLITE'] !== '0')
  out.push(
    ...(await onDatabase('SQLite', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'signpost-bench-lines-'));
      return {
        url: `sqlite:${join(dir, 'bench.db')}`,
        dir,
        done: async () => {
          if (KEEP) process.stderr.write(`kept: ${join(dir, 'bench.db')}\n`);
          else rmSync(dir, { recursive: true, force: true });
        },
      };
    })),
    '',
  );
const pgAdmin = process.env['BENCH_LOGS_PG_URL'];
if (pgAdmin) {
  const admin = new pg.Client({ connectionString: pgAdmin });
  await admin.connect();
  try {
    out.push(
      ...(await onDatabase('PostgreSQL', async () => {
        const name = `signpost_bench_${randomBytes(4).toString('hex')}`;
        await admin.query(`CREATE DATABASE ${name}`);
        const url = new URL(pgAdmin);
        url.pathname = `/${name}`;
        const dir = mkdtempSync(join(tmpdir(), 'signpost-bench-lines-'));
        return {
          url: url.toString(),
          dir,
          done: async () => {
            if (KEEP) process.stderr.write(`kept: ${url.toString()}\n`);
            else await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
            rmSync(dir, { recursive: true, force: true });
          },
        };
      })),
      '',
    );
  } finally {
    await admin.end();
  }
}
process.stdout.write(`${out.join('\n')}\n`);
