// Runs the server's whole suite on SQLite, then on PostgreSQL: the same tests on both.
// Usage: node scripts/test.mjs [sqlite|postgres] [extra node --test args]
import { spawnSync } from 'node:child_process';

const requested =
  process.argv[2] === 'sqlite' || process.argv[2] === 'postgres' ? [process.argv[2]] : ['sqlite', 'postgres'];
const extra = process.argv.slice(requested.length === 1 && process.argv[2] === requested[0] ? 3 : 2);
let failed = false;
for (const db of requested) {
  console.log(`\n=== server tests on ${db} ===`);
  const result = spawnSync(
    process.execPath,
    ['--test', '--test-concurrency=2', '--test-timeout=120000', ...extra, 'test/**/*.test.ts'],
    { stdio: 'inherit', env: { ...process.env, SIGNPOST_TEST_DB: db } },
  );
  if (result.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
