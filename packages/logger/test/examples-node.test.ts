import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { test } from 'node:test';
import { sdkTestEnv } from '@signpost/test-support/env';
import { node18 } from '@signpost/test-support/node18';

const run = promisify(execFile);
const examples = fileURLToPath(new URL('../examples/', import.meta.url));
const { server } = await sdkTestEnv();

const rows = (projectId: string) =>
  server.db.all<{
    level: string;
    message: string;
    category: string | null;
    source: string | null;
    occurrences: number;
    fingerprint: string;
  }>('SELECT * FROM log_groups WHERE project_id = ? ORDER BY message', [projectId]);

async function runExample(file: string, node = process.execPath) {
  const p = await server.createProject();
  const { stdout } = await run(node, [file], {
    cwd: examples,
    env: { ...process.env, SIGNPOST_API_KEY: p.liveKey, SIGNPOST_URL: server.baseUrl },
    timeout: 30_000,
  });
  return { p, stdout };
}

test('examples/node.mjs runs and its entries arrive', async () => {
  const { p, stdout } = await runExample('node.mjs');
  assert.match(stdout, /sent 6 entries/);
  const stored = await rows(p.projectId);
  assert.deepEqual(
    stored.filter((r) => r.level !== 'error').map((r) => [r.level, r.category, r.message, r.occurrences]),
    [
      ['info', 'jobs', 'Job finished', 1],
      ['warn', 'jobs', 'Retrying SMTP connection (attempt 3)', 3],
      ['info', 'worker', 'Worker started', 1],
    ],
  );
  assert.equal(stored.length, 4);
  assert.equal(stored.find((r) => r.fingerprint === 'smtp-retry')?.occurrences, 3);
  assert.ok(stored.some((r) => r.level === 'error' && r.category === 'jobs'));
});

test('examples/node.mjs runs on Node.js 18', async (t) => {
  const bin = node18();
  if (!bin) return t.skip('node@18 could not be installed from npm');
  const { p, stdout } = await runExample('node.mjs', bin);
  assert.match(stdout, /sent 6 entries/);
  assert.equal((await rows(p.projectId)).length, 4);
});

test('examples/node.pino.mjs ships pino logs through the transport', async () => {
  const { p, stdout } = await runExample('node.pino.mjs');
  assert.match(stdout, /pino transport flushed/);
  const stored = await rows(p.projectId);
  assert.deepEqual(
    stored.map((r) => [r.level, r.category, r.source, r.message, r.fingerprint]),
    [
      ['info', 'billing', 'pino', 'Invoice sent', stored[0]!.fingerprint],
      ['error', 'billing', 'pino', 'Payment failed', 'card-declined'],
    ],
  );
});

test('pino transport: levels, data, timestamps, and flush on end', async () => {
  // pino's end() blocks this thread while the worker flushes, so the pino side runs in its own
  // process (the test server lives in this one).
  const p = await server.createProject();
  await run(process.execPath, [fileURLToPath(new URL('./fixtures/pino-levels.mjs', import.meta.url))], {
    env: { ...process.env, SIGNPOST_API_KEY: p.liveKey, SIGNPOST_URL: server.baseUrl },
    timeout: 30_000,
  });
  const stored = await server.db.all<{
    level: string;
    message: string;
    category: string | null;
    data: string;
    last_seen_at: string;
  }>('SELECT level, message, category, data, last_seen_at FROM log_groups WHERE project_id = ? ORDER BY message', [
    p.projectId,
  ]);
  assert.deepEqual(
    stored.map((r) => [r.message, r.level]),
    [
      ['d', 'debug'],
      ['e', 'error'],
      ['f', 'error'],
      ['i', 'info'],
      ['t', 'trace'],
      ['w', 'warn'],
    ],
  );
  const info = stored.find((r) => r.message === 'i')!;
  assert.deepEqual(JSON.parse(info.data).user, { id: 7 });
  assert.equal(info.last_seen_at.slice(0, 4), '2025');
  assert.equal(stored.find((r) => r.message === 'f')!.category, 'boot');
});

test('the README quick start works as written', async () => {
  const { quickStartModule } = await import('@signpost/test-support/readme');
  const p = await server.createProject();
  const { code, file } = quickStartModule(fileURLToPath(new URL('..', import.meta.url)), p.liveKey, server.baseUrl);
  assert.equal(code.split('\n').length, 1);
  await run(process.execPath, [file], { timeout: 30_000 });
  assert.deepEqual(
    (await rows(p.projectId)).map((r) => r.message),
    ['Hello from my app'],
  );
});
