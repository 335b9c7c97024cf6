/**
 * Durability and shutdown, on the suite's database (SQLite file or PostgreSQL), with the server
 * as its own process: an acknowledged write survives `kill -9`; SIGTERM finishes every request
 * the server has started and exits 0 within the grace period.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import http from 'node:http';
import { Api } from '../support/api.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { migratedProject, withDb } from '../support/database-project.ts';
import { startServerProcess, type ServerProcess } from '../support/server.ts';

// Generous: the burst must drain on a loaded 2-core machine too; the point is exit 0, not speed.
const GRACE_SECONDS = 15;

/** Runs `fn` on a direct connection to the test database while no server process has it open. */
/** Rows as plain objects (node:sqlite returns null-prototype rows). */
const plain = <T extends object>(rows: T[]): T[] => rows.map((row) => ({ ...row }));

/** Ends the process with SIGKILL: no shutdown code of the server runs. */
async function kill9(server: ServerProcess): Promise<void> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return;
  const exited = once(server.child, 'exit');
  server.child.kill('SIGKILL');
  const [code, signal] = await exited;
  assert.equal(code, null);
  assert.equal(signal, 'SIGKILL');
}

describe('durability and shutdown', () => {
  let database: TestDatabase;
  let projectId: string;
  let key: string;
  const running = new Set<ServerProcess>();

  const start = async (env: Record<string, string> = {}) => {
    const server = await startServerProcess(database, env);
    running.add(server);
    server.child.once('exit', () => running.delete(server));
    return server;
  };

  before(async () => {
    database = await createTestDatabase();
    ({ projectId, key } = await migratedProject(database, 'Durability'));
  });

  after(async () => {
    for (const server of running) await kill9(server);
    await database?.drop();
  });

  it('an acknowledged write survives kill -9 of the server', async () => {
    const first = await start();
    const api = new Api(first.baseUrl, key);
    await api.get('/features'); // loads the OpenAPI document before the writes

    const feature = await api.post('/features', {
      title: 'Survives a crash',
      description: 'Written, acknowledged, then kill -9.',
    });
    assert.equal(feature.status, 201);
    const error = await api.post('/errors', {
      title: 'Crash test error',
      message: 'Reported just before kill -9',
      errorType: 'CrashTest',
    });
    assert.equal(error.status, 201);
    const bug = await api.post('/bugs', { title: 'Crash test bug', message: 'Reported just before kill -9.' });
    assert.equal(bug.status, 201);
    const logs = await api.post('/logs', {
      logs: [
        { level: 'error', message: 'Crash test log line', category: 'durability' },
        { level: 'error', message: 'Crash test log line', category: 'durability' },
        { level: 'info', message: 'Another crash test line', fingerprint: 'crash-fp' },
      ],
    });
    assert.equal(logs.status, 200);
    await kill9(first);

    const second = await start();
    const api2 = new Api(second.baseUrl, key);
    const read = await api2.get(`/features/${feature.body.id}`);
    assert.equal(read.status, 200);
    assert.equal(read.body.title, 'Survives a crash');
    const listed = await api2.get('/features');
    assert.ok(listed.body.features.some((item: { id: string }) => item.id === feature.body.id));
    // The same error again is a duplicate of the record written before the crash.
    const again = await api2.post('/errors', {
      title: 'Crash test error',
      message: 'Reported after the restart',
      errorType: 'CrashTest',
    });
    assert.equal(again.status, 200);
    assert.equal(again.body.id, error.body.id);
    assert.equal(again.body.duplicate, true);
    assert.equal(await second.stop('SIGTERM'), 0);

    await withDb(database, async (db) => {
      assert.deepEqual(plain(await db.all('SELECT occurrences FROM error_reports WHERE id = ?', [error.body.id])), [
        { occurrences: 2 },
      ]);
      assert.deepEqual(plain(await db.all('SELECT occurrences FROM bug_reports WHERE id = ?', [bug.body.id])), [
        { occurrences: 1 },
      ]);
      const groups = await db.all<{ message: string; occurrences: number }>(
        'SELECT message, occurrences FROM log_groups WHERE project_id = ? ORDER BY message',
        [projectId],
      );
      assert.deepEqual(plain(groups), [
        { message: 'Another crash test line', occurrences: 1 },
        { message: 'Crash test log line', occurrences: 2 },
      ]);
    });
  });

  it('every write acknowledged before kill -9 under load is stored', async () => {
    const server = await start();
    const total = 120;
    const acknowledged: string[] = [];
    const refusedBeforeKill: string[] = [];
    let killed: Promise<void> | undefined;
    // Distinct errors sent at once; the process is killed as soon as 40 are acknowledged,
    // while the rest are still queued or in flight.
    const requests = Array.from({ length: total }, (_, i) =>
      fetch(`${server.baseUrl}/errors`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': key },
        body: JSON.stringify({ title: `Load crash error ${i}`, message: `Distinct error number ${i} under load` }),
      })
        .then(async (res) => {
          const body = (await res.json()) as { id: string };
          if (res.status !== 201) throw new Error(`status ${res.status}`);
          acknowledged.push(body.id);
          if (acknowledged.length === 40) killed = kill9(server);
        })
        // After the kill the rest fail; before it, a failure is a finding: say what it was.
        .catch((error: Error) => {
          if (!killed) refusedBeforeKill.push(String(error.cause ?? error.message));
        }),
    );
    await Promise.all(requests);
    await killed;
    assert.ok(
      acknowledged.length >= 40,
      `${acknowledged.length} acknowledged; failed before the kill: ${[...new Set(refusedBeforeKill)].join('; ')}`,
    );

    await withDb(database, async (db) => {
      const stored = await db.all<{ id: string }>(
        `SELECT id FROM error_reports WHERE project_id = ? AND title LIKE 'Load crash error %'`,
        [projectId],
      );
      const ids = new Set(stored.map((row) => row.id));
      const lost = acknowledged.filter((id) => !ids.has(id));
      assert.deepEqual(lost, [], `${lost.length} of ${acknowledged.length} acknowledged writes were lost`);
    });
  });

  it('SIGTERM finishes every request in flight and exits 0 within the grace period', async () => {
    const server = await start({ SHUTDOWN_GRACE_SECONDS: String(GRACE_SECONDS) });
    const exited = once(server.child, 'exit');
    const logged = (pattern: RegExp) => pattern.test(server.output());
    const until = async (condition: () => boolean, what: string) => {
      for (let waited = 0; !condition(); waited += 10) {
        if (waited > 10_000) throw new Error(`timed out waiting for ${what}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    };

    // 1. A slow upload, on a keep-alive connection as browsers and SDK clients use: the server
    //    has started it (headers read) but half its body is still to come when SIGTERM arrives.
    const agent = new http.Agent({ keepAlive: true });
    const slowBody = JSON.stringify({
      logs: Array.from({ length: 40 }, (_, n) => ({
        level: 'info',
        message: `Slow upload line ${n}`,
        category: 'shutdown',
      })),
    });
    const half = Math.floor(slowBody.length / 2);
    const url = new URL(`${server.baseUrl}/logs`);
    const slowRequest = http.request({
      host: url.hostname,
      port: url.port,
      path: url.pathname,
      method: 'POST',
      agent,
      headers: {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(slowBody),
        'x-api-key': key,
        'x-request-id': 'grace-slow',
      },
    });
    const slowResponse = new Promise<{ status: number; body: string }>((resolve, reject) => {
      slowRequest.on('response', (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, body }));
        res.on('error', reject);
      });
      slowRequest.on('error', reject);
    });
    slowRequest.write(slowBody.slice(0, half));
    await until(() => logged(/"reqId":"grace-slow"[^\n]*"msg":"incoming request"/), 'the slow request to start');

    // 2. A burst of 200 requests of three kinds, each with its own request id.
    type Outcome = { id: string; status?: number; body?: unknown; error?: string };
    const send = async (i: number): Promise<Outcome> => {
      const id = `grace-${i}`;
      const kind = i % 4;
      const path = kind === 0 ? '/features' : kind === 1 ? '/errors' : '/logs';
      const body =
        kind === 0
          ? undefined
          : JSON.stringify(
              kind === 1
                ? { title: `Shutdown error ${i}`, message: `Sent while the server shuts down (${i})` }
                : {
                    logs: Array.from({ length: 50 }, (_, n) => ({ level: 'info', message: `Shutdown line ${i}/${n}` })),
                  },
            );
      try {
        const res = await fetch(server.baseUrl + path, {
          method: kind === 0 ? 'GET' : 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': key, 'x-request-id': id },
          ...(body ? { body } : {}),
        });
        // A complete response: the whole body arrives and parses.
        return { id, status: res.status, body: JSON.parse(await res.text()) };
      } catch (error) {
        return { id, error: String(error) };
      }
    };
    const burst = Promise.all(Array.from({ length: 200 }, (_, i) => send(i)));

    // 3. SIGTERM once the server is busy with the burst; then the slow upload finishes.
    await until(() => (server.output().match(/"msg":"incoming request"/g) ?? []).length >= 20, 'the burst to start');
    const signalledAt = Date.now();
    server.child.kill('SIGTERM');
    await until(() => logged(/"msg":"shutting down: finishing requests in flight"/), 'shutdown to begin');
    slowRequest.end(slowBody.slice(half));

    const [outcomes, slow] = await Promise.all([burst, slowResponse]);
    const [code] = await exited;
    const exitedAfter = Date.now() - signalledAt;
    agent.destroy();

    assert.equal(slow.status, 200, slow.body);
    assert.deepEqual(JSON.parse(slow.body), { accepted: 40 });
    assert.equal(code, 0, `exit code ${code}:\n${server.output().slice(-1500)}`);
    assert.ok(exitedAfter < GRACE_SECONDS * 1000, `exited ${exitedAfter} ms after SIGTERM`);

    // What the server started (logged "incoming request") it finished ("request completed").
    const lines = server
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { reqId?: string; msg?: string; res?: { statusCode: number } });
    const ours = (l: { reqId?: string }) => l.reqId?.startsWith('grace-') === true;
    const started = new Set(lines.filter((l) => l.msg === 'incoming request' && ours(l)).map((l) => l.reqId));
    const completed = new Map(
      lines.filter((l) => l.msg === 'request completed' && ours(l)).map((l) => [l.reqId, l.res?.statusCode]),
    );
    for (const id of started) assert.ok(completed.has(id), `${id} was started but never completed`);
    const shutdownLine = lines.findIndex((l) => l.msg === 'shutting down: finishing requests in flight');
    assert.ok(
      lines.slice(shutdownLine).some((l) => l.msg === 'request completed' && l.reqId === 'grace-slow'),
      'the slow request was completed after shutdown began',
    );

    // Every request the server started was answered in full, with the status it logged;
    // the others were refused (connection closed or 503) without being processed.
    for (const outcome of outcomes) {
      if (started.has(outcome.id)) {
        assert.equal(outcome.error, undefined, `${outcome.id} was started by the server but failed: ${outcome.error}`);
        assert.equal(outcome.status, completed.get(outcome.id));
        assert.ok([200, 201].includes(outcome.status!), `${outcome.id} answered ${outcome.status}`);
      } else if (outcome.status !== undefined) {
        assert.equal(outcome.status, 503, `${outcome.id} answered ${outcome.status} without being logged`);
        assert.equal(typeof (outcome.body as { error?: unknown }).error, 'string');
      }
    }

    // Every acknowledged error report is stored.
    const acknowledgedErrors = outcomes
      .filter((o) => o.status === 201 && Number(o.id.slice('grace-'.length)) % 4 === 1)
      .map((o) => (o.body as { id: string }).id);
    await withDb(database, async (db) => {
      const stored = new Set(
        (
          await db.all<{ id: string }>(
            `SELECT id FROM error_reports WHERE project_id = ? AND title LIKE 'Shutdown error %'`,
            [projectId],
          )
        ).map((row) => row.id),
      );
      assert.deepEqual(
        acknowledgedErrors.filter((id) => !stored.has(id)),
        [],
      );
      const slowGroups = await db.get<{ n: number }>(
        `SELECT COUNT(*) AS n FROM log_groups WHERE project_id = ? AND category = 'shutdown'`,
        [projectId],
      );
      assert.equal(Number(slowGroups?.n), 40);
    });
  });
});
