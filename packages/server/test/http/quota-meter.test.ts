/**
 * The plan quota counted in memory and flushed in batches (src/http/quota-meter.ts), through real
 * server processes: one process stays exact and writes its count on shutdown, not per request;
 * a flush comes within about one interval of a burst; two processes on one PostgreSQL database
 * admit at least the quota and at most the overshoot the README states, and the database ends
 * holding exactly what was admitted.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Database } from '../../src/db/database.ts';
import { migrate } from '../../src/db/migrate.ts';
import { openDatabase } from '../../src/db/open.ts';
import { quotaPeriod } from '../../src/http/quota.ts';
import { newId } from '../../src/kernel/ids.ts';
import { ALL_PUBLIC_SCOPES, createApiKey, createProject } from '../../src/resources/projects/index.ts';
import { Api, type ApiResponse } from '../support/api.ts';
import { createTestDatabase, testDbKind, type TestDatabase } from '../support/database.ts';
import { startServerProcess, type ServerProcess } from '../support/server.ts';

let database: TestDatabase;
let db: Database;
const running: ServerProcess[] = [];

before(async () => {
  database = await createTestDatabase();
  db = openDatabase({ databaseUrl: database.url, dataDir: database.dataDir });
  await migrate(db);
});

after(async () => {
  await Promise.all(running.map((proc) => proc.stop('SIGTERM')));
  await db?.close();
  await database?.drop();
});

async function start(env: Record<string, string>): Promise<ServerProcess> {
  const proc = await startServerProcess(database, env);
  running.push(proc);
  return proc;
}

async function stop(proc: ServerProcess): Promise<void> {
  assert.equal(await proc.stop('SIGTERM'), 0, proc.output());
  running.splice(running.indexOf(proc), 1);
}

async function meteredProject(monthlyQuota: number): Promise<{ projectId: string; key: string }> {
  const projectId = newId('proj');
  await createProject(db, { id: projectId, name: 'Metered', slug: projectId, monthlyQuota });
  return { projectId, key: (await createApiKey(db, projectId, 'live', ALL_PUBLIC_SCOPES)).key };
}

async function storedUsage(projectId: string): Promise<number | undefined> {
  const row = await db.get<{ used: number | string }>(
    'SELECT used FROM quota_usage WHERE project_id = ? AND period = ?',
    [projectId, quotaPeriod(new Date())],
  );
  return row === undefined ? undefined : Number(row.used);
}

/**
 * Sends `total` GETs with `concurrency` in flight, each worker pausing `pauseMs` between its
 * requests (so the run spans several flush intervals); every answer, with when it arrived.
 */
async function hammer(
  api: Api,
  total: number,
  concurrency: number,
  pauseMs: number,
): Promise<{ at: number; response: ApiResponse }[]> {
  const answers: { at: number; response: ApiResponse }[] = [];
  let sent = 0;
  const worker = async () => {
    while (sent < total) {
      sent += 1;
      const response = await api.get('/features');
      answers.push({ at: performance.now(), response });
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return answers;
}

describe('plan quota metered in memory, one process', () => {
  it('started mid-month, answers exactly the rest of the quota, then 429 with the same headers; writes on shutdown, not per request', async () => {
    const quota = 25;
    const { projectId, key } = await meteredProject(quota);
    // Another process used 5 before this one started: it must not start from zero.
    await db.run('INSERT INTO quota_usage (project_id, period, used) VALUES (?, ?, 5)', [
      projectId,
      quotaPeriod(new Date()),
    ]);
    // A flush interval longer than the test: the only write is the one on shutdown.
    const proc = await start({ QUOTA_FLUSH_INTERVAL_MS: '60000' });
    const api = new Api(proc.baseUrl, key);

    const answers = await Promise.all(Array.from({ length: 30 }, () => api.get('/features')));
    const admitted = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status === 429);
    assert.equal(admitted.length, 20);
    assert.equal(refused.length, 10);
    const remaining = admitted.map((a) => Number(a.headers.get('ratelimit-remaining'))).sort((x, y) => x - y);
    assert.deepEqual(
      remaining,
      Array.from({ length: 20 }, (_, i) => i),
    );
    for (const a of admitted) {
      assert.equal(a.headers.get('ratelimit-limit'), String(quota));
      assert.ok(Number(a.headers.get('ratelimit-reset')) > 0);
      assert.equal(a.headers.get('retry-after'), null);
    }
    for (const r of refused) {
      assert.deepEqual(r.body, { error: 'Quota exceeded', code: 'TooManyRequests' });
      assert.equal(r.headers.get('ratelimit-limit'), String(quota));
      assert.equal(r.headers.get('ratelimit-remaining'), '0');
      assert.ok(Number(r.headers.get('retry-after')) >= 1);
    }
    // Counted in memory: nothing written yet.
    assert.equal(await storedUsage(projectId), 5);
    // A project deleted with counts not yet written drops them without failing the others' flush.
    const gone = await meteredProject(100);
    assert.equal((await new Api(proc.baseUrl, gone.key).get('/features')).status, 200);
    await db.run('DELETE FROM projects WHERE id = ?', [gone.projectId]);

    await stop(proc);
    assert.equal(await storedUsage(projectId), quota);
    assert.equal(await storedUsage(gone.projectId), undefined);
    assert.doesNotMatch(proc.output(), /quota meter/);
  });

  it('writes a burst within about one flush interval, while the process runs', async () => {
    const { projectId, key } = await meteredProject(1000);
    const proc = await start({ QUOTA_FLUSH_INTERVAL_MS: '200' });
    const api = new Api(proc.baseUrl, key);
    const answers = await Promise.all(Array.from({ length: 12 }, () => api.get('/features')));
    assert.ok(answers.every((a) => a.status === 200));
    // Polled, not timed: the bound below only catches a flush that never comes on its own.
    const deadline = Date.now() + 15_000;
    while ((await storedUsage(projectId)) !== 12) {
      assert.ok(Date.now() < deadline, `never flushed: ${await storedUsage(projectId)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // A second burst adds to the row, once.
    await Promise.all(Array.from({ length: 3 }, () => api.get('/roadmap')));
    while ((await storedUsage(projectId)) !== 15) {
      assert.ok(Date.now() < deadline, `second burst never flushed: ${await storedUsage(projectId)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await stop(proc);
    assert.equal(await storedUsage(projectId), 15);
  });
});

const skip =
  testDbKind() === 'postgres' ? false : 'needs PostgreSQL (SIGNPOST_TEST_DB=postgres): SQLite runs as one process';

describe('plan quota metered in memory, two processes on one PostgreSQL database', { skip }, () => {
  const intervalMs = 200;
  let procs: ServerProcess[];

  before(async () => {
    procs = await Promise.all([
      start({ QUOTA_FLUSH_INTERVAL_MS: String(intervalMs) }),
      start({ QUOTA_FLUSH_INTERVAL_MS: String(intervalMs) }),
    ]);
  });

  it('admits at least the quota and at most the stated overshoot; the database ends holding every admitted request', async () => {
    const quota = 1000;
    const { projectId, key } = await meteredProject(quota);
    const results = await Promise.all(procs.map((proc) => hammer(new Api(proc.baseUrl, key), 1500, 4, 5)));
    const admittedAt = results.map((answers) => answers.filter((a) => a.response.status === 200).map((a) => a.at));
    for (const answers of results) assert.ok(answers.every((a) => [200, 429].includes(a.response.status)));
    const total = admittedAt[0]!.length + admittedAt[1]!.length;
    assert.ok(total >= quota, `admitted ${total} of ${quota}`);
    // README: the overshoot is at most what the other process admitted within two flush intervals
    // (plus the flush's own time); measured here at the client, with slack for request latency.
    const window = 2 * intervalMs + 600;
    const busiest = (times: number[]) => {
      let most = 0;
      for (let first = 0, last = 0; last < times.length; last += 1) {
        while (times[last]! - times[first]! > window) first += 1;
        most = Math.max(most, last - first + 1);
      }
      return most;
    };
    const bound = Math.max(busiest(admittedAt[0]!), busiest(admittedAt[1]!));
    process.stdout.write(
      `# admitted ${admittedAt[0]!.length} + ${admittedAt[1]!.length} = ${total} of ${quota}; bound ${bound}\n`,
    );
    assert.ok(total - quota <= bound, `admitted ${total} of ${quota}: overshoot over ${bound}`);

    await Promise.all(procs.map((proc) => stop(proc)));
    assert.equal(await storedUsage(projectId), total);
  });
});
