// `npm test`: checks the structure and formatting, builds every package once, then runs every
// workspace's own `test` script in three lanes side by side: the server's suite on SQLite, the
// same suite on PostgreSQL, and the other packages one after another. The registry check, which
// packs and so rebuilds every package, runs alone at the end.
// Usage: node scripts/test-all.mjs [package-name-suffix ...] (only those packages, same lanes).
//
// Why lanes: the suites spend much of their time waiting (servers starting, browsers, timers), so
// on CI's two cores three lanes finish in far less than their sum. Why one build first: a package's
// build empties its dist/, and another lane loading from it meanwhile would fail at random; with
// SIGNPOST_TEST_PREBUILT=1 no package builds again (scripts/test-build.mjs). Each lane's output is
// kept in test-results/<lane>.log and printed whole when a package finishes, so lines never mix.
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const only = process.argv.slice(2);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const results = join(root, 'test-results');

const packages = readdirSync(join(root, 'packages'))
  .map((dir) => join(root, 'packages', dir))
  .filter((dir) => existsSync(join(dir, 'package.json')))
  .map((dir) => ({ dir, manifest: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) }))
  .filter(({ manifest }) => manifest.scripts?.test)
  .filter(({ manifest }) => only.length === 0 || only.some((name) => manifest.name.endsWith(name)));
const named = (name) => packages.find(({ manifest }) => manifest.name === name);

/** Runs a step in the foreground with its output shown; exits on failure. */
function step(title, command, args, cwd = root) {
  console.log(`\n##### ${title} #####`);
  const result = spawnSync(command, args, { cwd, stdio: 'inherit', env: process.env });
  if (result.status !== 0) {
    console.log(`${title} failed`);
    console.log('0 passed, 1 failed');
    process.exit(1);
  }
}

const started = Date.now();
const clock = () => `${Math.round((Date.now() - started) / 1000)}s`;

step('test prerequisites', 'bash', [join(root, 'scripts/test-prerequisites.sh')]);
// The structure rules (import boundaries, SQL only in stores), the formatting and the lint rules
// hold before any test runs (CONTRIBUTING.md).
for (const check of ['check:structure', 'lint']) step(check, npm, ['run', check, '--silent']);

// Every package the tests load, in dependency order (each SDK's build builds sdk-core first).
const buildOrder = [
  'sdk-core',
  'error-tracker',
  'logger',
  'i18n',
  'site-manager',
  'feature-reporter',
  'docs-mcp',
  'cli',
  'dashboard',
  'server',
];
for (const name of buildOrder)
  step(`build @signpost/${name}`, npm, ['run', 'build', '--silent', '-w', `@signpost/${name}`]);
const server = named('@signpost/server');
if (server) step('typecheck @signpost/server', npm, ['run', 'typecheck', '--silent'], server.dir);
// Every test file, server and CLI run is a Node process that loads hundreds of TypeScript
// modules: Node's compile cache keeps their stripped and compiled code on disk, which halves what
// loading the server costs a process (about 0.8 s of CPU to 0.4 s, measured by importing
// test/support/server.ts). Entries are keyed by the source's content, so an edit is never served stale.
const env = {
  ...process.env,
  SIGNPOST_TEST_PREBUILT: '1',
  NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE ?? join(root, 'node_modules', '.cache', 'node-compile'),
};

/** Runs one package's tests (or one command) with its output into the lane's log; resolves its result. */
function runInLane(lane, log, name, command, args, cwd) {
  return new Promise((resolve) => {
    const began = Date.now();
    console.log(`[${clock()}] ${lane}: ${name} started`);
    const chunks = [];
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const keep = (chunk) => {
      chunks.push(chunk);
      log.write(chunk);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('close', (code) => {
      const ok = code === 0;
      const seconds = Math.round((Date.now() - began) / 1000);
      const output = Buffer.concat(chunks);
      console.log(`\n##### ${name} (${lane}) #####`);
      process.stdout.write(output);
      console.log(`[${clock()}] ${lane}: ${name} ${ok ? 'passed' : 'FAILED'} in ${seconds}s`);
      resolve({ name, ok, seconds, output: ok ? '' : output.toString('utf8') });
    });
  });
}

/**
 * The start of what node:test's spec reporter lists under "failing tests" (each failure's name
 * and error), else the output's last lines.
 */
function failureExcerpt(output, maxLines = 30) {
  const lines = output.split('\n');
  const start = lines.findLastIndex((line) => line.includes('✖ failing tests:'));
  const picked = start >= 0 ? lines.slice(start + 1) : lines.slice(-maxLines);
  return picked
    .filter((line) => line.trim() !== '' && !/^\s+at /.test(line))
    .slice(0, maxLines)
    .map((line) => (line.length > 300 ? `${line.slice(0, 297)}...` : line))
    .join('\n');
}

/** A lane: its steps one after another, each as its own result. */
async function lane(title, steps) {
  mkdirSync(results, { recursive: true });
  const log = createWriteStream(join(results, `${title.replace(/\W+/g, '-')}.log`));
  const done = [];
  for (const { name, command, args, cwd } of steps) done.push(await runInLane(title, log, name, command, args, cwd));
  log.end();
  return done;
}

const testScript = ({ dir, manifest }) => ({
  name: manifest.name,
  command: npm,
  args: ['run', 'test', '--silent'],
  cwd: dir,
});
const lastAlone = ['@signpost/release-check'];
const others = packages.filter(
  ({ manifest }) => manifest.name !== '@signpost/server' && !lastAlone.includes(manifest.name),
);
const lanes = [];
if (server) {
  for (const db of ['sqlite', 'postgres']) {
    const suite = {
      name: `@signpost/server on ${db}`,
      command: process.execPath,
      args: ['scripts/test.mjs', db],
      cwd: server.dir,
    };
    lanes.push(lane(`server-${db}`, [suite]));
  }
}
lanes.push(lane('packages', others.map(testScript)));
const outcomes = (await Promise.all(lanes)).flat();
const alone = packages.filter(({ manifest }) => lastAlone.includes(manifest.name));
outcomes.push(...(await lane('last', alone.map(testScript))));

console.log('\n##### summary #####');
for (const outcome of outcomes) console.log(`${outcome.ok ? 'ok  ' : 'FAIL'} ${outcome.name} (${outcome.seconds}s)`);
console.log(`whole run: ${clock()}`);
const failed = outcomes.filter((outcome) => !outcome.ok).length;
console.log(`${outcomes.length - failed} passed, ${failed} failed`);
// CI keeps only the tail of this output: the first lines of each failure come last, so the reason
// survives with the summary (a whole run once failed a browser test with no message left).
for (const outcome of outcomes.filter((o) => !o.ok)) {
  console.log(`\n##### why ${outcome.name} failed (first lines; the whole log is in test-results/) #####`);
  console.log(failureExcerpt(outcome.output));
}
if (failed > 0) console.log(`\n${outcomes.length - failed} passed, ${failed} failed`);
process.exit(failed === 0 && outcomes.length > 0 ? 0 : 1);
