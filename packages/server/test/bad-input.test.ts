import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestProject, type TestServer } from './support/server.ts';
import { Api } from './support/api.ts';

const WRITE_PATHS = ['/features', '/bugs', '/errors', '/logs', '/i18n-telemetry'];

async function rowCounts(server: TestServer): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of ['features', 'bug_reports', 'error_reports', 'log_groups', 'missing_translations', 'comments', 'votes']) {
    counts[table] = Number((await server.db.get<any>(`SELECT COUNT(*) AS n FROM ${table}`))!.n);
  }
  return counts;
}

describe('bad input', () => {
  let server: TestServer;
  let project: TestProject;
  let api: Api;
  let featureId: string;

  before(async () => {
    server = await startTestServer();
    project = await server.createProject();
    api = new Api(server.baseUrl, project.liveKey);
    featureId = (await api.post('/features', { title: 'Target item', description: 'A target for bad input.' })).body.id;
  });
  after(() => server.close());

  it('answers malformed JSON with 400, a wrong content type with 415, a body over 1 MiB with 413', async () => {
    const before = await rowCounts(server);
    for (const path of WRITE_PATHS) {
      const malformed = await api.post(path, undefined, { rawBody: '{"title": "x",', headers: { 'content-type': 'application/json' } });
      assert.equal(malformed.status, 400, path);
      assert.deepEqual(malformed.body, { error: 'Malformed JSON body' });
      const empty = await api.post(path, undefined, { rawBody: '', headers: { 'content-type': 'application/json' } });
      assert.equal(empty.status, 400, path);
      const text = await api.post(path, undefined, { rawBody: 'title=x', headers: { 'content-type': 'text/plain' } });
      assert.equal(text.status, 415, path);
      assert.match(text.body.error, /content type/i);
      const form = await api.post(path, undefined, { rawBody: 'a=b', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      assert.equal(form.status, 415, path);
      const huge = await api.post(path, { title: 'x'.repeat(1024 * 1024 + 10), description: 'y' });
      assert.equal(huge.status, 413, path);
      assert.equal(typeof huge.body.error, 'string');
    }
    assert.deepEqual(await rowCounts(server), before);
  });

  it('refuses __proto__ and constructor.prototype keys without touching anything', async () => {
    const before = await rowCounts(server);
    for (const raw of [
      '{"title":"Prototype test","description":"A pollution attempt.","__proto__":{"internal":true}}',
      '{"title":"Prototype test","description":"A pollution attempt.","constructor":{"prototype":{"polluted":1}}}',
      '{"logs":[{"level":"info","message":"x","data":{"__proto__":{"admin":true}}}]}',
    ]) {
      const res = await api.post('/features', undefined, { rawBody: raw, headers: { 'content-type': 'application/json' } });
      assert.equal(res.status, 400, raw);
    }
    assert.equal(({} as any).polluted, undefined);
    assert.equal(({} as any).internal, undefined);
    assert.deepEqual(await rowCounts(server), before);
  });

  it('rejects wrong JSON shapes and types on every write endpoint with details, storing nothing', async () => {
    const before = await rowCounts(server);
    const bodies: unknown[] = [
      [], 'a string', 42, null, true,
      { title: 12345, description: ['x'], message: { a: 1 }, logs: {}, locale: 5, missingKeys: 'k' },
      { title: '\u0000'.repeat(3), message: null },
    ];
    for (const path of WRITE_PATHS) {
      for (const body of bodies) {
        const res = await api.post(path, undefined, { rawBody: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
        assert.equal(res.status, 400, `${path} ${JSON.stringify(body)}`);
        assert.equal(typeof res.body.error, 'string');
      }
    }
    assert.deepEqual(await rowCounts(server), before);
  });

  it('survives huge and odd strings in paths, queries and headers without a 5xx', async () => {
    const requests = [
      api.get(`/features/${'x'.repeat(5000)}`, { unchecked: true }),
      api.get('/features', { query: { limit: '9'.repeat(400) } }),
      api.get('/features', { query: { offset: '1e309' } }),
      api.get('/features', { query: { status: 'open\u0000' } }),
      api.get('/roadmap', { query: { status: 'x,'.repeat(500) } }),
      api.get('/translations', { query: { locale: 'x'.repeat(1000) } }),
      api.get('/translations', { query: { locale: '../../etc/passwd' } }),
      api.get('/site-config', { key: null, query: { projectId: "' OR 1=1 --" } }),
      api.get('/version-check', { key: null, query: { projectId: 'demo', currentVersion: 'v'.repeat(300) } }),
      api.get('/version-check', { key: null, query: { projectId: 'demo', currentVersion: '1.0.0-' } }),
      api.get('/features', { key: 'svc_live_' + 'a'.repeat(10_000) }),
      api.get('/features', { key: "svc_live_' OR '1'='1" }),
      api.put(`/features/${featureId}/votes/${encodeURIComponent('../../x')}`),
      api.patch(`/features/${featureId}`, { status: 'done', internal: null }),
      api.post(`/features/${featureId}/comments`, { body: '\ud800 lone surrogate and <script>alert(1)</script>' }),
    ];
    for (const res of await Promise.all(requests)) {
      assert.ok(res.status < 500, `${res.status} ${res.text.slice(0, 200)}`);
      assert.ok(res.headers.get('x-request-id'));
      if (res.status >= 400) assert.equal(typeof JSON.parse(res.text).error, 'string');
    }
    assert.equal((await api.get('/site-config', { key: null, query: { projectId: "' OR 1=1 --" } })).status, 404);
    assert.equal((await api.get('/features', { query: { offset: '1e309' } })).status, 400);
    // A huge but whole limit is clamped like any other limit over the maximum.
    assert.equal((await api.get('/features', { query: { limit: '9'.repeat(400) } })).body.limit, 100);
  });

  it('answers unknown routes and methods with a JSON 404 and keeps the request id a caller sends', async () => {
    const res = await api.get('/nope', { unchecked: true, headers: { 'x-request-id': 'trace-123' } });
    assert.equal(res.status, 404);
    assert.deepEqual(res.body, { error: 'Not found' });
    assert.equal(res.headers.get('x-request-id'), 'trace-123');
    const generated = await api.get('/features', { headers: { 'x-request-id': 'bad id with spaces' } });
    assert.notEqual(generated.headers.get('x-request-id'), 'bad id with spaces');
  });

  it('ignores unknown body fields', async () => {
    const res = await api.post('/features', { title: 'Unknown fields', description: 'Extra fields are ignored.', color: 'red', votes: 99 });
    assert.equal(res.status, 201);
    assert.equal(res.body.voteCount, 0);
    assert.equal(res.body.color, undefined);
  });
});
