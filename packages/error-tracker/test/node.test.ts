import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { sdkTestEnv } from '@signpost/test-support/env';
import { node18 } from '@signpost/test-support/node18';

const { server } = await sdkTestEnv();

const rows = (projectId: string) =>
  server.db.all<{
    title: string;
    error_type: string;
    severity: string;
    breadcrumbs: string | null;
    metadata: string | null;
    device: string;
    app: string;
  }>('SELECT * FROM error_reports WHERE project_id = ? ORDER BY first_seen_at, title', [projectId]);

function runNode(file: string, args: string[], env: Record<string, string>, node = process.execPath) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(node, [file, ...args], {
      env: { ...process.env, ...env },
      cwd: fileURLToPath(new URL('.', import.meta.url)),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill(), 20_000);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const example = fileURLToPath(new URL('../examples/node.mjs', import.meta.url));
const rejection = fileURLToPath(new URL('./fixtures/rejection.mjs', import.meta.url));

async function checkExample(node?: string) {
  const p = await server.createProject();
  const run = await runNode(example, [], { SIGNPOST_API_KEY: p.liveKey, SIGNPOST_URL: server.baseUrl }, node);
  assert.equal(run.code, 1, run.stderr);
  assert.match(run.stdout, /reported \S+/);
  assert.match(run.stderr, /RangeError: Invalid array length in the nightly report/);
  const stored = await rows(p.projectId);
  assert.deepEqual(
    stored.map((r) => [r.error_type, r.severity]),
    [
      ['SyntaxError', 'low'],
      ['Message', 'medium'],
      ['RangeError', 'critical'],
    ],
  );
  const uncaught = stored[2]!;
  assert.deepEqual(JSON.parse(uncaught.metadata!), { mechanism: 'uncaughtException', handled: false });
  const crumbs = JSON.parse(uncaught.breadcrumbs!) as { type: string; message: string; level?: string }[];
  assert.ok(crumbs.some((c) => c.type === 'console' && c.level === 'warn' && c.message === 'Disk usage at 91%'));
  assert.ok(
    crumbs.every((c) => !c.message.includes('/errors')),
    'own requests are not breadcrumbs',
  );
  assert.equal(JSON.parse(uncaught.app).userId, 'worker-7');
  return JSON.parse(uncaught.device) as { userAgent: string };
}

test('examples/node.mjs: handled reports, then an uncaught error reported before exiting with 1', async () => {
  await checkExample();
});

test('examples/node.mjs runs on Node.js 18', async (t) => {
  const bin = node18();
  if (!bin) return t.skip('node@18 could not be installed from npm');
  const device = await checkExample(bin);
  assert.match(device.userAgent, /^Node\.js\/v18\./);
});

test('unhandled rejections: reported, then exit (default) or warn and go on', async () => {
  const p = await server.createProject();
  const env = { SIGNPOST_API_KEY: p.liveKey, SIGNPOST_URL: server.baseUrl };
  const exit = await runNode(rejection, ['exit'], env);
  assert.equal(exit.code, 1);
  assert.doesNotMatch(exit.stdout, /still running/);
  const warn = await runNode(rejection, ['warn'], env);
  assert.equal(warn.code, 0);
  assert.match(warn.stdout, /still running/);
  assert.match(warn.stderr, /Unhandled promise rejection: Error: rejected in mode warn/);
  const stored = await rows(p.projectId);
  assert.deepEqual(
    stored.map((r) => [r.title, r.severity]),
    [
      ['Error: rejected in mode exit', 'critical'],
      ['Error: rejected in mode warn', 'critical'],
    ],
  );
});

test('the README quick start works as written', async () => {
  const { quickStartModule } = await import('@signpost/test-support/readme');
  const p = await server.createProject();
  const { code, file } = quickStartModule(
    fileURLToPath(new URL('..', import.meta.url)),
    p.liveKey,
    server.baseUrl,
    `const { captureMessage } = await import('@signpost/error-tracker'); await captureMessage('The quick start works');`,
  );
  assert.equal(code.split('\n').length, 1);
  const run = await runNode(file, [], {});
  assert.equal(run.code, 0, run.stderr);
  assert.deepEqual(
    (await rows(p.projectId)).map((r) => r.title),
    ['Message: The quick start works'],
  );
});
