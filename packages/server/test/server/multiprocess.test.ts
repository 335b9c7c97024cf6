/**
 * Several server processes on one PostgreSQL database: limits and dedup counters stay exact
 * when concurrent requests are spread over processes. SQLite is a one-process database by
 * design (the default deployment is one process on one file), so this file runs on PostgreSQL.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Database } from '../../src/db/database.ts';
import { migrate } from '../../src/db/migrate.ts';
import { openDatabase } from '../../src/db/open.ts';
import { ALL_PUBLIC_SCOPES, createApiKey, createProject } from '../../src/resources/projects/index.ts';
import { newId } from '../../src/kernel/ids.ts';
import { Api, type ApiResponse } from '../support/api.ts';
import { createTestDatabase, testDbKind, type TestDatabase } from '../support/database.ts';
import { startServerProcess, type ServerProcess } from '../support/server.ts';

const skip =
  testDbKind() === 'postgres' ? false : 'needs PostgreSQL (SIGNPOST_TEST_DB=postgres): SQLite runs as one process';

/** Sends `count` requests at once, the i-th through process `i % processes`. */
async function spread<T>(apis: Api[], count: number, send: (api: Api, i: number) => Promise<ApiResponse<T>>) {
  return Promise.all(Array.from({ length: count }, (_, i) => send(apis[i % apis.length]!, i)));
}

const statuses = (responses: ApiResponse[]) => {
  const counts: Record<number, number> = {};
  for (const response of responses) counts[response.status] = (counts[response.status] ?? 0) + 1;
  return counts;
};

describe('two server processes on one PostgreSQL database', { skip }, () => {
  let database: TestDatabase;
  let db: Database;
  const processes: ServerProcess[] = [];
  let projectId: string;
  /** Per process: an Api client with the project's live key. */
  let apis: Api[];
  let newKey: () => Promise<string>;

  before(async () => {
    database = await createTestDatabase('postgres');
    // One after the other: a start at the same moment is its own test below.
    processes.push(await startServerProcess(database));
    processes.push(await startServerProcess(database));
    db = openDatabase({ databaseUrl: database.url, dataDir: database.dataDir });
    await migrate(db); // a no-op: the processes have migrated
    projectId = newId('proj');
    await createProject(db, { id: projectId, name: 'Multi-process', slug: projectId, monthlyQuota: null });
    newKey = async () => (await createApiKey(db, projectId, 'live', ALL_PUBLIC_SCOPES)).key;
    const key = await newKey();
    apis = processes.map((p) => new Api(p.baseUrl, key));
    // Load each process's OpenAPI document before the bursts, so the bursts are simultaneous.
    await Promise.all(apis.map((api) => api.get('/features')));
  });

  after(async () => {
    const codes = await Promise.all(processes.map((p) => p.stop('SIGTERM')));
    await db?.close();
    await database?.drop();
    assert.deepEqual(
      codes,
      processes.map(() => 0),
      'each process shuts down cleanly',
    );
  });

  it('two processes starting at once on an empty database both come up', async () => {
    const fresh = await createTestDatabase('postgres');
    const started = await Promise.allSettled([startServerProcess(fresh), startServerProcess(fresh)]);
    const codes = await Promise.all(
      started.map((result) => (result.status === 'fulfilled' ? result.value.stop('SIGTERM') : Promise.resolve(null))),
    );
    await fresh.drop();
    for (const result of started) {
      assert.equal(result.status, 'fulfilled', result.status === 'rejected' ? String(result.reason).slice(0, 600) : '');
    }
    assert.deepEqual(codes, [0, 0]);
  });

  it('both processes are up and serve the same data', async () => {
    for (const proc of processes) {
      const res = await fetch(`${proc.origin}/readyz`);
      assert.equal(res.status, 200);
    }
    const created = await apis[0]!.post('/features', {
      title: 'Seen from both',
      description: 'Written through one process, read through the other.',
    });
    assert.equal(created.status, 201);
    const read = await apis[1]!.get(`/features/${created.body.id}`);
    assert.equal(read.status, 200);
    assert.equal(read.body.title, 'Seen from both');
  });

  it('POST /features admits exactly 50 of 60 concurrent requests over both processes', async () => {
    const key = await newKey();
    const keyed = apis.map((api) => api.withKey(key));
    const responses = await spread(keyed, 60, (api, i) =>
      api.post('/features', { title: `Burst feature ${i}`, description: `Submitted in a burst, number ${i}.` }),
    );
    assert.deepEqual(statuses(responses), { 201: 50, 429: 10 });

    const admitted = responses.filter((r) => r.status === 201);
    // Every admitted request saw its own place in the window: remaining runs 49 … 0 exactly once.
    assert.deepEqual(
      admitted.map((r) => Number(r.headers.get('ratelimit-remaining'))).sort((a, b) => a - b),
      Array.from({ length: 50 }, (_, i) => i),
    );
    for (const res of admitted) assert.equal(res.headers.get('ratelimit-limit'), '50');

    for (const res of responses.filter((r) => r.status === 429)) {
      assert.equal(res.body.error, 'Rate limit exceeded');
      const retryAfter = Number(res.headers.get('retry-after'));
      assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 300, `Retry-After ${retryAfter}`);
      assert.equal(res.headers.get('ratelimit-limit'), '50');
      assert.equal(res.headers.get('ratelimit-remaining'), '0');
      const reset = Number(res.headers.get('ratelimit-reset'));
      assert.ok(Number.isInteger(reset) && reset >= 0 && reset <= 300, `RateLimit-Reset ${reset}`);
    }

    const stored = await db.get<{ n: number }>(
      "SELECT COUNT(*) AS n FROM features WHERE project_id = ? AND title LIKE 'Burst feature %'",
      [projectId],
    );
    assert.equal(stored?.n, 50);
    // The limit is per key: another key of the same project is not affected.
    const other = await apis[1]!.post('/features', {
      title: 'Other key',
      description: 'A different key has its own window.',
    });
    assert.equal(other.status, 201);
  });

  it('30 identical POST /errors at once through both processes give one record with count 30', async () => {
    const report = {
      title: 'TypeError in checkout',
      message: "Cannot read properties of undefined (reading 'total')",
      errorType: 'TypeError',
    };
    const responses = await spread(apis, 30, (api) => api.post('/errors', report));
    assert.deepEqual(statuses(responses), { 200: 29, 201: 1 });
    const ids = new Set(responses.map((r) => r.body.id));
    assert.equal(ids.size, 1, 'every response names the same record');
    assert.equal(responses.filter((r) => r.body.duplicate === false).length, 1);
    assert.equal(responses.find((r) => r.status === 201)!.body.duplicate, false);

    const rows = await db.all<{ id: string; occurrences: number }>(
      'SELECT id, occurrences FROM error_reports WHERE project_id = ? AND title = ?',
      [projectId, report.title],
    );
    assert.deepEqual(rows, [{ id: [...ids][0], occurrences: 30 }]);
  });

  it('30 identical POST /errors at once, past the window of the open record, open exactly one new record', async () => {
    const report = {
      title: 'RangeError in invoice totals',
      message: 'Invalid array length while summing lines',
      errorType: 'RangeError',
    };
    const first = await apis[0]!.post('/errors', report);
    assert.equal(first.status, 201);
    await db.run('UPDATE error_reports SET first_seen_at = ? WHERE id = ?', [
      new Date(Date.now() - 2 * 60 * 60 * 1000).toISOString(),
      first.body.id,
    ]);

    const responses = await spread(apis, 30, (api) => api.post('/errors', report));
    assert.deepEqual(statuses(responses), { 200: 29, 201: 1 });
    const ids = new Set(responses.map((r) => r.body.id));
    assert.equal(ids.size, 1, 'every response names the same new record');
    assert.ok(!ids.has(first.body.id));
    const rows = await db.all<{ id: string; occurrences: number }>(
      'SELECT id, occurrences FROM error_reports WHERE project_id = ? AND title = ? ORDER BY first_seen_at',
      [projectId, report.title],
    );
    assert.deepEqual(rows, [
      { id: first.body.id, occurrences: 1 },
      { id: [...ids][0], occurrences: 30 },
    ]);
  });

  it('30 identical POST /bugs at once through both processes give one record with count 30', async () => {
    const report = { title: 'Save button does nothing', message: 'Clicking Save on the profile page has no effect.' };
    const responses = await spread(apis, 30, (api) => api.post('/bugs', report));
    assert.deepEqual(statuses(responses), { 200: 29, 201: 1 });
    assert.equal(new Set(responses.map((r) => r.body.id)).size, 1);

    const rows = await db.all<{ id: string; occurrences: number }>(
      'SELECT id, occurrences FROM bug_reports WHERE project_id = ? AND title = ?',
      [projectId, report.title],
    );
    assert.deepEqual(rows, [{ id: responses[0]!.body.id, occurrences: 30 }]);
  });

  it('30 identical POST /bugs with createFeature create one linked feature', async () => {
    const report = {
      title: 'Export hangs at 99 percent',
      message: 'The CSV export never finishes for large projects.',
      createFeature: true,
    };
    const responses = await spread(apis, 30, (api) => api.post('/bugs', report));
    assert.deepEqual(statuses(responses), { 200: 29, 201: 1 });
    const features = await db.get<{ n: number }>(
      'SELECT COUNT(*) AS n FROM features WHERE project_id = ? AND title = ?',
      [projectId, report.title],
    );
    assert.equal(features?.n, 1);
  });

  it('30 identical POST /logs at once through both processes give one log group with count 30', async () => {
    const entry = { level: 'error', category: 'payments', message: 'Card declined by the issuer' };
    const responses = await spread(apis, 30, (api) => api.post('/logs', { logs: [entry] }));
    assert.deepEqual(statuses(responses), { 200: 30 });
    for (const res of responses) assert.deepEqual(res.body, { accepted: 1 });

    const rows = await db.all<{ occurrences: number }>(
      'SELECT occurrences FROM log_groups WHERE project_id = ? AND message = ?',
      [projectId, entry.message],
    );
    assert.deepEqual(rows, [{ occurrences: 30 }]);
  });

  it('concurrent batches sharing fingerprints in different orders neither deadlock nor lose counts', async () => {
    const fingerprints = Array.from({ length: 20 }, (_, i) => `shared-fp-${String(i).padStart(2, '0')}`);
    const batch = (order: string[], n: number) => ({
      logs: order.map((fingerprint) => ({ level: 'warn', message: `Batch ${n} line ${fingerprint}`, fingerprint })),
    });
    const orders = [
      fingerprints,
      [...fingerprints].reverse(),
      [...fingerprints.slice(10), ...fingerprints.slice(0, 10)],
    ];
    const requests = 24;
    const responses = await spread(apis, requests, (api, i) => api.post('/logs', batch(orders[i % orders.length]!, i)));
    assert.deepEqual(statuses(responses), { 200: requests });

    const rows = await db.all<{ fingerprint: string; occurrences: number }>(
      "SELECT fingerprint, occurrences FROM log_groups WHERE project_id = ? AND fingerprint LIKE 'shared-fp-%' ORDER BY fingerprint",
      [projectId],
    );
    assert.deepEqual(
      rows,
      fingerprints.map((fingerprint) => ({ fingerprint, occurrences: requests })),
    );
  });
});
