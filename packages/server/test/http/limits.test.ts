import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createApiKey } from '../../src/resources/projects/index.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { Api } from '../support/api.ts';

const feature = { title: 'Rate limited', description: 'Counting submissions here.' };

describe('limits', () => {
  let server: TestServer;

  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  it('admits 50 POST /features per 5 minutes per key, then 429 with Retry-After and RateLimit headers', async () => {
    const project = await server.createProject();
    const api = new Api(server.baseUrl, project.liveKey);
    const responses = await Promise.all(Array.from({ length: 55 }, () => api.post('/features', feature)));
    const statuses = responses.map((r) => r.status);
    assert.equal(statuses.filter((s) => s === 201).length, 50);
    assert.equal(statuses.filter((s) => s === 429).length, 5);
    const refused = responses.find((r) => r.status === 429)!;
    assert.deepEqual(refused.body, { error: 'Rate limit exceeded', code: 'TooManyRequests' });
    assert.equal(refused.headers.get('ratelimit-limit'), '50');
    assert.equal(refused.headers.get('ratelimit-remaining'), '0');
    const reset = Number(refused.headers.get('ratelimit-reset'));
    assert.ok(reset > 0 && reset <= 300, String(reset));
    assert.ok(Number(refused.headers.get('retry-after')) >= 1);
    const admitted = responses
      .filter((r) => r.status === 201)
      .map((r) => Number(r.headers.get('ratelimit-remaining')))
      .sort((a, b) => a - b);
    assert.deepEqual(
      admitted,
      Array.from({ length: 50 }, (_, i) => i),
    );
    // The limit is per key: the project's other key still gets in.
    assert.equal((await api.withKey(project.testKey).post('/features', feature)).status, 201);
    // Refused requests stored nothing.
    const count = await server.db.get<any>(
      'SELECT COUNT(*) AS n FROM features WHERE project_id = ? AND environment = ?',
      [project.projectId, 'live'],
    );
    assert.equal(Number(count.n), 50);
  });

  it('slides: slots free up as hits leave the 5-minute window', async () => {
    const project = await server.createProject();
    const api = new Api(server.baseUrl, project.liveKey);
    await Promise.all(Array.from({ length: 50 }, () => api.post('/features', feature)));
    assert.equal((await api.post('/features', feature)).status, 429);
    // Age ten of the recorded hits past the window.
    const old = new Date(Date.now() - 5 * 60 * 1000 - 1000).toISOString();
    const keyId = (
      await server.db.get<any>('SELECT id FROM api_keys WHERE project_id = ? AND environment = ?', [
        project.projectId,
        'live',
      ])
    ).id;
    const hits = await server.db.all<any>('SELECT id FROM rate_limit_hits WHERE bucket = ? ORDER BY at LIMIT 10', [
      `features:create:${keyId}`,
    ]);
    for (const hit of hits) await server.db.run('UPDATE rate_limit_hits SET at = ? WHERE id = ?', [old, hit.id]);
    const again = await Promise.all(Array.from({ length: 12 }, () => api.post('/features', feature)));
    assert.equal(again.filter((r) => r.status === 201).length, 10);
  });

  it('never asks to wait longer than the window, when the oldest hit was counted after this request began', async () => {
    // Another process's request that took the lock first counted its own, later time; a request
    // that read the clock before waiting then sees hits newer than its `now` (multiprocess.test.ts
    // read Retry-After 301 once on PostgreSQL).
    const project = await server.createProject();
    const api = new Api(server.baseUrl, project.liveKey);
    await Promise.all(Array.from({ length: 50 }, () => api.post('/features', feature)));
    const later = new Date(Date.now() + 2000).toISOString();
    await server.db.run(
      "UPDATE rate_limit_hits SET at = ? WHERE bucket IN (SELECT 'features:create:' || id FROM api_keys WHERE project_id = ?)",
      [later, project.projectId],
    );
    const refused = await api.post('/features', feature);
    assert.equal(refused.status, 429);
    assert.equal(refused.headers.get('retry-after'), '300');
    assert.equal(refused.headers.get('ratelimit-reset'), '300');
  });
  it('enforces the monthly plan quota with 429 Quota exceeded, and reports it in RateLimit headers', async () => {
    const project = await server.createProject({ monthlyQuota: 5 });
    const api = new Api(server.baseUrl, project.liveKey);
    const first = await api.get('/features');
    assert.equal(first.headers.get('ratelimit-limit'), '5');
    assert.equal(first.headers.get('ratelimit-remaining'), '4');
    assert.ok(Number(first.headers.get('ratelimit-reset')) > 0);
    await api.get('/roadmap');
    await api.post('/logs', { logs: [] });
    await api.get('/changelog');
    const fifth = await api.get('/translations');
    assert.equal(fifth.status, 200);
    assert.equal(fifth.headers.get('ratelimit-remaining'), '0');
    const over = await api.get('/features');
    assert.equal(over.status, 429);
    assert.deepEqual(over.body, { error: 'Quota exceeded', code: 'TooManyRequests' });
    assert.ok(Number(over.headers.get('retry-after')) >= 1);
    assert.equal(over.headers.get('ratelimit-remaining'), '0');
    // Keyless endpoints are not metered.
    assert.equal((await api.get('/site-config', { key: null, query: { projectId: project.projectId } })).status, 200);
    // The quota is the project's: another key of it is refused too.
    assert.equal((await api.withKey(project.testKey).get('/features')).status, 429);
    const other = await createApiKey(server.db, project.projectId, 'live', ['features:read']);
    assert.equal((await api.withKey(other.key).get('/features')).status, 429);
  });

  it('counts the quota exactly under concurrency', async () => {
    const project = await server.createProject({ monthlyQuota: 20 });
    const api = new Api(server.baseUrl, project.liveKey);
    const responses = await Promise.all(Array.from({ length: 30 }, () => api.get('/features')));
    assert.equal(responses.filter((r) => r.status === 200).length, 20);
    assert.equal(responses.filter((r) => r.status === 429).length, 10);
  });
});
