/**
 * The benchmark is not a test, but it must keep running: this runs `npm run bench`'s script in
 * its shortest form (one round of one second per scenario after two seconds' warm-up) into a temporary folder
 * and checks that every scenario was measured with nothing but right answers: every scenario on
 * SQLite, and the PostgreSQL mode on the scenarios this mode added (its database is dropped after
 * it). It asserts no speed: figures from a test run mean nothing (see the README, "Reading the
 * numbers").
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const RUN = fileURLToPath(new URL('../src/run.ts', import.meta.url));
const SERVER_DIR = fileURLToPath(new URL('../../server/', import.meta.url));

// The bench runs the built server, as `npm run bench` builds it first (`npm test` at the root
// built it before any lane ran: scripts/test-build.mjs says why).
if (process.env['SIGNPOST_TEST_PREBUILT'] !== '1') {
  const build = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: SERVER_DIR, encoding: 'utf8' });
  assert.equal(build.status, 0, `the server did not build:\n${build.stdout}\n${build.stderr}`);
}
const README = fileURLToPath(new URL('../README.md', import.meta.url));

/** `npm run bench` in its shortest form, into `results`; extra environment and arguments on top. */
function runBench(results: string, extraEnv: Record<string, string> = {}, args: string[] = []) {
  const run = spawnSync(process.execPath, [RUN, ...args], {
    encoding: 'utf8',
    env: {
      ...process.env,
      BENCH_ROUNDS: '1',
      BENCH_SECONDS: '1',
      BENCH_CEILING_SECONDS: '1',
      // Two seconds of each scenario first, not counted: a page rendered cold by 32 connections at
      // once on a loaded machine (npm test's other lanes) completed no request in a one-second
      // window, and with one second of warm-up neither did repeated errors right after the
      // new-error scenario's writes (a whole run, 2026-11-29).
      BENCH_WARMUP: '2',
      // The large data sets at a fiftieth (seed.ts): the test asks for right answers, not speed.
      BENCH_SMOKE: '1',
      // The minute at rest before the third memory reading: the test reads the first two only.
      BENCH_REST_SECONDS: '0',
      BENCH_RESULTS_DIR: results,
      ...extraEnv,
    },
  });
  assert.equal(run.status, 0, `bench exited with ${run.status}:\n${run.stdout}\n${run.stderr}`);
  return run;
}

function assertRightAnswers(report: Report): void {
  for (const row of report.results) {
    assert.ok(row.requests > 0, `${row.db} ${row.id}: no request completed`);
    assert.deepEqual(Object.values(row.errors), [0, 0, 0, 0, 0], `${row.db} ${row.id}: ${JSON.stringify(row.errors)}`);
  }
  for (const database of report.databases) {
    // Resident memory read from /proc before the first request and after the last scenario.
    assert.ok((database.memory.idle?.rssMiB ?? 0) > 0, `${database.db}: no idle RSS`);
    assert.ok((database.memory.loaded?.rssMiB ?? 0) > 0, `${database.db}: no loaded RSS`);
  }
}

interface Report {
  settings: { db: string; smoke?: boolean };
  databases: {
    db: string;
    memory: { idle?: { rssMiB: number }; loaded?: { rssMiB: number; peakMiB: number } };
    pinnedBackends?: number;
  }[];
  results: {
    id: string;
    db: string;
    requests: number;
    requestsPerSecond: number;
    errors: Record<string, number>;
    met: boolean | null;
  }[];
}

// Ten minutes each at most: in `npm test` the server's suites run beside this one on the same two
// cores. The seeds are at a fiftieth of their size (BENCH_SMOKE): at full size they took most of
// the 907 s this file took in CI's run of 2026-11-28.
test('npm run bench measures every scenario with right answers only', { timeout: 600_000 }, () => {
  const results = mkdtempSync(join(os.tmpdir(), 'signpost-bench-test-'));
  const readmeBefore = readFileSync(README, 'utf8');
  try {
    runBench(results);
    const report = JSON.parse(readFileSync(join(results, 'latest.json'), 'utf8')) as Report;
    assert.equal(report.settings.smoke, true, 'a smoke run says so in its report');
    assert.deepEqual(
      report.results.map((row) => row.id),
      [
        'features',
        'features-metered',
        'site-config',
        'translations-304',
        'ofrep-bulk-304',
        'errors-new',
        'errors-duplicate',
        'envelope',
        'envelope-repeat',
        'sessions',
        'logs',
        'logs-distinct',
        'board-ideas',
        'board-ideas-304',
        'board-search',
        'board-idea',
        'roadmap-100',
        'roadmap-100k',
        'board-ideas-100',
        'board-typo-100',
        'board-ideas-100k',
        'board-typo-100k',
        'inbox-value-100',
        'inbox-search-100',
        'inbox-typo-100',
        'inbox-value-100k',
        'inbox-search-100k',
        'inbox-typo-100k',
        'logs-list',
        'logs-list-level',
        'logs-list-text',
        'logs-list-cursor',
        'logs-histogram',
        'mcp-logs-search',
        'release-page-1k',
        'release-page-1m',
      ],
    );
    assertRightAnswers(report);
    assert.ok(existsSync(join(results, 'latest.md')));
    // A run elsewhere leaves the recorded results alone.
    assert.equal(readFileSync(README, 'utf8'), readmeBefore);
  } finally {
    rmSync(results, { recursive: true, force: true });
  }
});

test('npm run bench -- --db postgres measures the new scenarios on a database of its own, then drops it', {
  timeout: 600_000,
}, () => {
  const results = mkdtempSync(join(os.tmpdir(), 'signpost-bench-test-'));
  const databaseExists = (name: string) =>
    execFileSync('psql', [
      '-h',
      '127.0.0.1',
      '-U',
      'postgres',
      '-tAc',
      `SELECT 1 FROM pg_database WHERE datname = '${name}'`,
    ])
      .toString()
      .trim() === '1';
  try {
    const run = runBench(results, { BENCH_ONLY: 'features,features-metered,roadmap-100,roadmap-100k' }, [
      '--db',
      'postgres',
    ]);
    assert.match(run.stdout, /\[PostgreSQL\] seeded in/);
    const report = JSON.parse(readFileSync(join(results, 'subset-postgres.json'), 'utf8')) as Report;
    assert.equal(report.settings.db, 'postgres');
    assert.deepEqual(
      report.results.map((row) => `${row.db} ${row.id}`),
      ['postgres features', 'postgres features-metered', 'postgres roadmap-100', 'postgres roadmap-100k'],
    );
    assertRightAnswers(report);
    // With taskset, the backends serving the server's connections were found and pinned.
    if (spawnSync('taskset', ['-c', '0', 'true']).status === 0 && os.cpus().length >= 2)
      assert.ok((report.databases[0]!.pinnedBackends ?? 0) > 0, 'no PostgreSQL backend pinned');
    // The run's database is named after its process id.
    assert.equal(databaseExists(`signpost_bench_${run.pid}`), false, 'the run left its database behind');
  } finally {
    rmSync(results, { recursive: true, force: true });
  }
});
