/**
 * Release health from the tracker itself: Node.js processes with `release` set send their
 * session to POST /sessions (start, first error, end); the server counts one session per
 * process by its worst status, and users by `setUser`.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { sdkTestEnv } from '@signpost/test-support/env';

const { server } = await sdkTestEnv();
const fixture = fileURLToPath(new URL('./fixtures/session.mjs', import.meta.url));

function runNode(args: string[], env: Record<string, string>) {
  return new Promise<number | null>((resolve, reject) => {
    const child = spawn(process.execPath, [fixture, ...args], { env: { ...process.env, ...env }, stdio: 'ignore' });
    const timer = setTimeout(() => child.kill(), 20_000);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

test('a process is one session: ended as exited, errored by a handled error, crashed by an uncaught one', async () => {
  const p = await server.createProject();
  const env = { SIGNPOST_API_KEY: p.liveKey, SIGNPOST_URL: server.baseUrl };
  assert.equal(await runNode(['jobs@3.1.0', 'ada', 'ok'], env), 0);
  assert.equal(await runNode(['jobs@3.1.0', 'bob', 'handled'], env), 0);
  assert.equal(await runNode(['jobs@3.1.0', 'cyd', 'crash'], env), 1);
  const [counts] = await server.db.all<Record<string, number>>(
    `SELECT SUM(healthy) AS healthy, SUM(errored) AS errored, SUM(crashed) AS crashed, SUM(unhandled) AS unhandled
     FROM release_session_hours WHERE project_id = ? AND release = ?`,
    [p.projectId, '3.1.0'],
  );
  assert.deepEqual(Object.fromEntries(Object.entries(counts!).map(([k, v]) => [k, Number(v)])), {
    healthy: 1,
    errored: 1,
    crashed: 1,
    unhandled: 0,
  });
  const users = await server.db.all<{ distinct_id: string; crashed: number }>(
    'SELECT distinct_id, crashed FROM release_session_users WHERE project_id = ? ORDER BY distinct_id',
    [p.projectId],
  );
  assert.deepEqual(
    users.map((u) => [u.distinct_id, Number(u.crashed)]),
    [
      ['ada', 0],
      ['bob', 0],
      ['cyd', 1],
    ],
  );
});
