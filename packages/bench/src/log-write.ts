/**
 * POST /logs's write without HTTP (issue 32): `storeLogBatch` called by 32 concurrent loops, as 32
 * connections would, with the bench's two bodies (the same 100 entries every time, and 100 new
 * entries every time). Prints entries per second of each; run it with `--cpu-prof` to see where
 * a line's cost goes.
 *
 *   node packages/bench/src/log-write.ts            # SQLite; BENCH_LOGS_PG_URL=postgres://… for PostgreSQL
 *
 * Settings: BENCH_WRITE_SECONDS (each case, default 5), BENCH_WRITE_CASES (repeat,distinct).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { migrate } from '../../server/src/db/migrate.ts';
import { openDatabase } from '../../server/src/db/open.ts';
import { createProject } from '../../server/src/resources/projects/index.ts';
import { storeLogBatch, type LogEntry } from '../../server/src/resources/logs/index.ts';

const SECONDS = Number(process.env['BENCH_WRITE_SECONDS'] ?? 5);
const CASES = (process.env['BENCH_WRITE_CASES'] ?? 'repeat,distinct').split(',');
const PROJECT = 'bench-write';
const levels = ['error', 'warn', 'info', 'debug', 'trace'] as const;

let counter = 0;
const batch = (distinct: boolean): LogEntry[] =>
  Array.from({ length: 100 }, (_, i) => ({
    level: levels[i % 5]!,
    message: distinct ? `Request ${counter++} handled` : `Request step ${i} handled`,
    category: 'http',
    source: 'api',
    data: { requestId: `r-${i}`, durationMs: i * 3, path: '/api/orders' },
  }));

async function run(databaseUrl: string, dataDir: string): Promise<void> {
  const db = openDatabase({ databaseUrl, dataDir });
  try {
    await migrate(db);
    await db.transaction((tx) => createProject(tx, { id: PROJECT, name: 'Write', slug: PROJECT, monthlyQuota: null }));
    const scope = { projectId: PROJECT, environment: 'live' as const };
    const same = batch(false);
    for (const name of CASES) {
      const distinct = name === 'distinct';
      let entries = 0;
      const end = performance.now() + SECONDS * 1000;
      const loop = async () => {
        while (performance.now() < end) {
          await storeLogBatch(db, scope, distinct ? batch(true) : same, new Date());
          entries += 100;
        }
      };
      await Promise.all(Array.from({ length: 32 }, loop));
      process.stdout.write(`${db.dialect} ${name}: ${Math.round(entries / SECONDS).toLocaleString('en')} entries/s\n`);
    }
  } finally {
    await db.close();
  }
}

const pgAdmin = process.env['BENCH_LOGS_PG_URL'];
if (pgAdmin) {
  const admin = new pg.Client({ connectionString: pgAdmin });
  await admin.connect();
  const name = `signpost_bench_${randomBytes(4).toString('hex')}`;
  await admin.query(`CREATE DATABASE ${name}`);
  const dir = mkdtempSync(join(tmpdir(), 'signpost-bench-write-'));
  try {
    const url = new URL(pgAdmin);
    url.pathname = `/${name}`;
    await run(url.toString(), dir);
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
    rmSync(dir, { recursive: true, force: true });
  }
} else {
  const dir = mkdtempSync(join(tmpdir(), 'signpost-bench-write-'));
  try {
    await run(`sqlite:${join(dir, 'bench.db')}`, dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
