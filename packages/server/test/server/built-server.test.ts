/**
 * The built server (`npm run build`, dist/) started through its bin, as `@signpost/server` runs:
 * the JavaScript modules resolve their imports, the SQL and module migrations are found beside
 * them, the board's assets load, and a management read runs on the SQLite read worker (a .js
 * file in dist/). The bin's shebang gives Node its memory flag; the process shows it. Where
 * jemalloc is installed the bin starts the server on it (the process maps the library), and
 * `SIGNPOST_ALLOCATOR=system` keeps the C library's malloc.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { DEFAULT_DEMO_API_KEY } from '../../src/config.ts';
import { loadMigrations } from '../../src/db/migrate.ts';
import { signUp } from '../support/management.ts';
import { createTestDatabase, startServerProcess, type ServerProcess, type TestDatabase } from '../support/server.ts';

const PACKAGE_DIR = fileURLToPath(new URL('../../', import.meta.url));
const BIN = `${PACKAGE_DIR}bin/signpost-server.js`;
const JEMALLOC = [
  `/usr/lib/${process.arch === 'arm64' ? 'aarch64' : 'x86_64'}-linux-gnu/libjemalloc.so.2`,
  '/usr/lib64/libjemalloc.so.2',
  '/usr/lib/libjemalloc.so.2',
  '/usr/local/lib/libjemalloc.so.2',
].find((path) => existsSync(path));

function mapsJemalloc(pid: number | undefined): boolean {
  return readFileSync(`/proc/${pid}/maps`, 'utf8').includes('libjemalloc');
}

describe('the built server', () => {
  let database: TestDatabase;
  let server: ServerProcess;

  before(async () => {
    // `npm test` at the root built dist/ before any lane ran (scripts/test-build.mjs says why).
    if (process.env['SIGNPOST_TEST_PREBUILT'] !== '1') {
      const build = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: PACKAGE_DIR, encoding: 'utf8' });
      assert.equal(build.status, 0, `${build.stdout}\n${build.stderr}`);
    }
    database = await createTestDatabase();
    server = await startServerProcess(database, {}, [BIN]);
  });
  after(async () => {
    await server?.stop();
    await database?.drop();
  });

  it('applies every migration of the source tree from dist/', async () => {
    const built = loadMigrations(`${PACKAGE_DIR}dist/migrations/`).map((migration) => migration.id);
    const source = loadMigrations().map((migration) => migration.id);
    assert.deepEqual(built, source);
    assert.ok(
      built.some((id) => id.endsWith('_log_group_keys')),
      'the module migration is built too',
    );
    assert.equal((await fetch(`${server.origin}/readyz`)).status, 200);
  });

  it('answers the public API, the board and the management API', async () => {
    const features = await fetch(`${server.baseUrl}/features`, { headers: { 'x-api-key': DEFAULT_DEMO_API_KEY } });
    assert.equal(features.status, 200);
    assert.ok(Array.isArray(((await features.json()) as { features: unknown[] }).features));
    const home = await fetch(`${server.origin}/`);
    assert.equal(home.status, 200);
    const css = /href="([^"]+\.css)"/.exec(await home.text())?.[1];
    assert.ok(css, 'the page links its stylesheet');
    assert.equal((await fetch(new URL(css, server.origin))).status, 200);
    const { api } = await signUp(server.origin);
    const projects = await api.get('/projects');
    assert.equal(projects.status, 200, projects.text);
  });

  it('runs with the heap sizing its shebang gives Node', () => {
    const shebang = readFileSync(BIN, 'utf8').split('\n', 1)[0];
    assert.match(shebang!, /--max-semi-space-size=4\b/);
    assert.match(shebang!, /--heap-growing-percent=50\b/);
    const argv = readFileSync(`/proc/${server.child.pid}/cmdline`, 'utf8').split('\0');
    assert.ok(argv.includes('--max-semi-space-size=4'), argv.join(' '));
    assert.ok(argv.includes('--heap-growing-percent=50'), argv.join(' '));
  });

  it('starts on jemalloc where it is installed, on the system allocator when told', {
    skip: process.platform !== 'linux' || !JEMALLOC ? 'no libjemalloc.so.2 on this machine' : false,
  }, async () => {
    assert.ok(mapsJemalloc(server.child.pid), 'the server maps libjemalloc');
    const argv = readFileSync(`/proc/${server.child.pid}/cmdline`, 'utf8').split('\0');
    assert.ok(argv.includes('--max-semi-space-size=4'), 'the flags survive the restart on jemalloc');
    assert.ok(argv.includes('--heap-growing-percent=50'), 'the flags survive the restart on jemalloc');
    const system = await startServerProcess(database, { SIGNPOST_ALLOCATOR: 'system' }, [BIN]);
    try {
      assert.equal((await fetch(`${system.origin}/readyz`)).status, 200);
      assert.ok(!mapsJemalloc(system.child.pid), 'SIGNPOST_ALLOCATOR=system keeps malloc');
    } finally {
      await system.stop();
    }
  });
});
