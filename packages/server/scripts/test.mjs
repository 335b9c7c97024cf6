// Runs the server's whole suite on SQLite, then on PostgreSQL: the same tests on both.
// Usage: node scripts/test.mjs [sqlite|postgres] [extra node --test args]
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';

const requested =
  process.argv[2] === 'sqlite' || process.argv[2] === 'postgres' ? [process.argv[2]] : ['sqlite', 'postgres'];
const extra = process.argv.slice(requested.length === 1 && process.argv[2] === requested[0] ? 3 : 2);
// Each test's time, with its file, also goes to test-results/ as JUnit XML: where a run's minutes went.
const results = new URL('../../../test-results/', import.meta.url).pathname;
mkdirSync(results, { recursive: true });
let failed = false;
for (const db of requested) {
  console.log(`\n=== server tests on ${db} ===`);
  const reporters = [
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    '--test-reporter=junit',
    `--test-reporter-destination=${results}server-${db}.junit.xml`,
  ];
  const result = spawnSync(
    process.execPath,
    ['--test', '--test-concurrency=2', '--test-timeout=120000', ...reporters, ...extra, 'test/**/*.test.ts'],
    { stdio: 'inherit', env: { ...process.env, SIGNPOST_TEST_DB: db } },
  );
  if (result.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
