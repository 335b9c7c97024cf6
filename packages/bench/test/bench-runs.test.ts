/**
 * The benchmark is not a test, but it must keep running: this runs `npm run bench`'s script in
 * its shortest form (one round of one second per scenario, no warm-up) into a temporary folder
 * and checks that every scenario was measured with nothing but right answers. It asserts no
 * speed: figures from a test run mean nothing (see the README, "Reading the numbers").
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const RUN = fileURLToPath(new URL('../src/run.ts', import.meta.url));
const README = fileURLToPath(new URL('../README.md', import.meta.url));

interface Report {
  results: {
    id: string;
    requests: number;
    requestsPerSecond: number;
    errors: Record<string, number>;
    met: boolean | null;
  }[];
}

test('npm run bench measures every scenario with right answers only', { timeout: 300_000 }, () => {
  const results = mkdtempSync(join(os.tmpdir(), 'signpost-bench-test-'));
  const readmeBefore = readFileSync(README, 'utf8');
  try {
    const run = spawnSync(process.execPath, [RUN], {
      encoding: 'utf8',
      env: {
        ...process.env,
        BENCH_ROUNDS: '1',
        BENCH_SECONDS: '1',
        BENCH_CEILING_SECONDS: '1',
        BENCH_WARMUP: '0',
        BENCH_RESULTS_DIR: results,
      },
    });
    assert.equal(run.status, 0, `bench exited with ${run.status}:\n${run.stdout}\n${run.stderr}`);
    const report = JSON.parse(readFileSync(join(results, 'latest.json'), 'utf8')) as Report;
    assert.deepEqual(
      report.results.map((row) => row.id),
      [
        'features',
        'site-config',
        'translations-304',
        'errors-new',
        'errors-duplicate',
        'logs',
        'logs-distinct',
        'board-ideas',
        'board-ideas-304',
        'board-search',
        'board-idea',
        'logs-list',
        'logs-list-level',
        'logs-list-text',
        'logs-list-cursor',
        'logs-histogram',
      ],
    );
    for (const row of report.results) {
      assert.ok(row.requests > 0, `${row.id}: no request completed`);
      assert.deepEqual(Object.values(row.errors), [0, 0, 0, 0, 0], `${row.id}: ${JSON.stringify(row.errors)}`);
    }
    assert.ok(existsSync(join(results, 'latest.md')));
    // A run elsewhere leaves the recorded results alone.
    assert.equal(readFileSync(README, 'utf8'), readmeBefore);
  } finally {
    rmSync(results, { recursive: true, force: true });
  }
});
