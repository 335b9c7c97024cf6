// `npm test`: type-checks, then runs every workspace's own `test` script, one after another.
// Each package's README says what its tests cover; the server runs its suite on SQLite and PostgreSQL.
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const only = process.argv.slice(2);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

const packages = readdirSync(join(root, 'packages'))
  .map((dir) => join(root, 'packages', dir))
  .filter((dir) => existsSync(join(dir, 'package.json')))
  .map((dir) => ({ dir, manifest: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) }))
  .filter(({ manifest }) => manifest.scripts?.test)
  .filter(({ manifest }) => only.length === 0 || only.some((name) => manifest.name.endsWith(name)));

const prerequisites = spawnSync('bash', [join(root, 'scripts/test-prerequisites.sh')], { stdio: 'inherit' });
if (prerequisites.status !== 0) process.exit(1);

// The structure rules (import boundaries, SQL only in stores), the formatting and the lint rules
// hold before any test runs (CONTRIBUTING.md).
for (const check of ['check:structure', 'lint']) {
  console.log(`\n##### ${check} #####`);
  const result = spawnSync(npm, ['run', check, '--silent'], { cwd: root, stdio: 'inherit', env: process.env });
  if (result.status !== 0) {
    console.log('0 passed, 1 failed');
    process.exit(1);
  }
}

const results = [];
for (const { dir, manifest } of packages) {
  console.log(`\n##### ${manifest.name} #####`);
  const started = Date.now();
  const run = spawnSync(npm, ['run', 'test', '--silent'], { cwd: dir, stdio: 'inherit', env: process.env });
  results.push({ name: manifest.name, ok: run.status === 0, seconds: Math.round((Date.now() - started) / 1000) });
}

console.log('\n##### summary #####');
for (const result of results) console.log(`${result.ok ? 'ok  ' : 'FAIL'} ${result.name} (${result.seconds}s)`);
const failed = results.filter((result) => !result.ok).length;
console.log(`${results.length - failed} passed, ${failed} failed`);
process.exit(failed === 0 && results.length > 0 ? 0 : 1);
