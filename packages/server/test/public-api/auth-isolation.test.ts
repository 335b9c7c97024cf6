import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { newId } from '../../src/kernel/ids.ts';
import { createApiKey, touchProjectTranslations } from '../../src/resources/projects/index.ts';
import { startTestServer, type TestProject, type TestServer } from '../support/server.ts';
import { Api } from '../support/api.ts';

interface Endpoint {
  name: string;
  permission: string;
  call(api: Api, ids: { featureId: string }): Promise<{ status: number; body: any }>;
}

const feature = { title: 'Isolation feature', description: 'Must never leak anywhere.' };
const now = () => new Date().toISOString();

const ENDPOINTS: Endpoint[] = [
  { name: 'GET /features', permission: 'features:read', call: (api) => api.get('/features') },
  {
    name: 'GET /features/{id}',
    permission: 'features:read',
    call: (api, ids) => api.get(`/features/${ids.featureId}`),
  },
  { name: 'POST /features', permission: 'features:write', call: (api) => api.post('/features', feature) },
  {
    name: 'PATCH /features/{id}',
    permission: 'features:write',
    call: (api, ids) => api.patch(`/features/${ids.featureId}`, { status: 'done' }),
  },
  {
    name: 'PUT vote',
    permission: 'features:write',
    call: (api, ids) => api.put(`/features/${ids.featureId}/votes/v1`),
  },
  {
    name: 'DELETE vote',
    permission: 'features:write',
    call: (api, ids) => api.delete(`/features/${ids.featureId}/votes/v1`),
  },
  {
    name: 'GET comments',
    permission: 'features:read',
    call: (api, ids) => api.get(`/features/${ids.featureId}/comments`),
  },
  {
    name: 'POST comment',
    permission: 'features:write',
    call: (api, ids) => api.post(`/features/${ids.featureId}/comments`, { body: 'hi' }),
  },
  { name: 'GET /roadmap', permission: 'features:read', call: (api) => api.get('/roadmap') },
  { name: 'GET /changelog', permission: 'features:read', call: (api) => api.get('/changelog') },
  {
    name: 'POST /bugs',
    permission: 'bugs:write',
    call: (api) => api.post('/bugs', { title: 'Bug title', message: 'A bug message here' }),
  },
  {
    name: 'POST /errors',
    permission: 'errors:write',
    call: (api) => api.post('/errors', { title: 'Error title', message: 'An error message' }),
  },
  {
    name: 'POST /logs',
    permission: 'logs:write',
    call: (api) => api.post('/logs', { logs: [{ level: 'info', message: 'x' }] }),
  },
  {
    name: 'POST /i18n-telemetry',
    permission: 'public:read',
    call: (api) => api.post('/i18n-telemetry', { locale: 'en', missingKeys: ['k'] }),
  },
  { name: 'GET /translations', permission: 'public:read', call: (api) => api.get('/translations') },
];

describe('authentication, permissions and isolation', () => {
  let server: TestServer;
  let owner: TestProject;
  let other: TestProject;
  let api: Api;
  let featureId: string;
  let hiddenId: string;

  before(async () => {
    server = await startTestServer();
    owner = await server.createProject();
    other = await server.createProject();
    api = new Api(server.baseUrl, owner.liveKey);
    featureId = (await api.post('/features', feature)).body.id;
    hiddenId = (await api.post('/features', { ...feature, internal: true })).body.id;
    await api.put(`/features/${featureId}/votes/owner-voter`);
    await api.post(`/features/${featureId}/comments`, { body: 'Owner comment' });
    await server.db.run(
      `INSERT INTO changelog_entries (id, project_id, feature_id, summary, description, status_key, status_label, published, created_at, published_at)
       VALUES (?, ?, NULL, 'Owner entry', '', 'new', 'New', 1, ?, ?)`,
      [newId('chg'), owner.projectId, now(), now()],
    );
    await server.db.run(
      'INSERT INTO translation_keys (id, project_id, key, namespace, category, default_text, created_at, updated_at) VALUES (?, ?, ?, NULL, NULL, ?, ?, ?)',
      [newId('tk'), owner.projectId, 'owner.key', 'Owner text', now(), now()],
    );
    await touchProjectTranslations(server.db, owner.projectId);
  });
  after(() => server.close());

  for (const endpoint of ENDPOINTS) {
    it(`${endpoint.name}: 401 without a key or with a bad one, 403 without ${endpoint.permission}`, async () => {
      const missing = await endpoint.call(api.withKey(null), { featureId });
      assert.equal(missing.status, 401);
      assert.deepEqual(missing.body, { error: 'Missing API key', code: 'Unauthorized' });
      for (const bad of [
        'svc_live_0000000000000000000000000000',
        'not-a-key',
        `${owner.liveKey}x`,
        owner.liveKey.replace('svc_live_', 'svc_test_'),
      ]) {
        const res = await endpoint.call(api.withKey(bad), { featureId });
        assert.equal(res.status, 401, bad);
        assert.deepEqual(res.body, { error: 'Invalid API key', code: 'Unauthorized' });
      }
      const others = [
        'public:read',
        'features:read',
        'features:write',
        'bugs:write',
        'errors:write',
        'logs:write',
      ].filter((s) => s !== endpoint.permission);
      const limited = await createApiKey(server.db, owner.projectId, 'live', others);
      const forbidden = await endpoint.call(api.withKey(limited.key), { featureId });
      assert.equal(forbidden.status, 403);
      assert.match(forbidden.body.error, new RegExp(endpoint.permission));
    });
  }

  it('accepts the key in either header', async () => {
    assert.equal((await api.get('/features', { bearer: true })).status, 200);
    assert.equal((await api.get('/features')).status, 200);
    assert.equal(
      (await api.get('/features', { key: null, headers: { authorization: `bearer ${owner.liveKey}` } })).status,
      200,
    );
    assert.equal(
      (await api.get('/features', { key: null, headers: { authorization: `Basic ${owner.liveKey}` } })).status,
      401,
    );
  });

  it('rejects a revoked key at once', async () => {
    const key = await createApiKey(server.db, owner.projectId, 'live', ['features:read']);
    assert.equal((await api.withKey(key.key).get('/features')).status, 200);
    await server.db.run('UPDATE api_keys SET revoked_at = ? WHERE id = ?', [now(), key.id]);
    const res = await api.withKey(key.key).get('/features');
    assert.equal(res.status, 401);
    assert.deepEqual(res.body, { error: 'Invalid API key', code: 'Unauthorized' });
  });

  it('stores keys hashed: no plain key in the database', async () => {
    const rows = await server.db.all<Record<string, unknown>>('SELECT * FROM api_keys');
    const dump = JSON.stringify(rows);
    assert.ok(!dump.includes(owner.liveKey));
    assert.ok(!dump.includes(owner.liveKey.slice(-20)));
  });

  it("never shows one project's data to another project's key", async () => {
    const theirs = api.withKey(other.liveKey);
    assert.equal((await theirs.get('/features')).body.count, 0);
    for (const id of [featureId, hiddenId]) {
      assert.equal((await theirs.get(`/features/${id}`)).status, 404);
      assert.equal((await theirs.patch(`/features/${id}`, { internal: false })).status, 404);
      assert.equal((await theirs.get(`/features/${id}/comments`)).status, 404);
      assert.equal((await theirs.put(`/features/${id}/votes/intruder`)).status, 404);
      assert.equal((await theirs.post(`/features/${id}/comments`, { body: 'intrusion' })).status, 404);
    }
    assert.equal((await theirs.get('/roadmap')).body.total, 0);
    assert.equal((await theirs.get('/changelog')).body.count, 0);
    assert.deepEqual((await theirs.get('/translations')).body.translations, {});
    const mine = await api.get(`/features/${featureId}`);
    assert.equal(mine.body.voteCount, 1);
    assert.equal(mine.body.commentCount, 1);
    assert.equal(mine.body.status, 'open');
  });

  it('keeps test-key and live-key data apart, sharing project configuration', async () => {
    const test = api.withKey(owner.testKey);
    assert.equal((await test.get('/features')).body.count, 0);
    assert.equal((await test.get(`/features/${featureId}`)).status, 404);
    assert.equal((await test.put(`/features/${featureId}/votes/t1`)).status, 404);
    assert.equal((await test.get(`/features/${featureId}/comments`)).status, 404);
    assert.equal((await test.patch(`/features/${featureId}`, { status: 'done' })).status, 404);
    assert.equal((await test.get('/roadmap')).body.total, 0);
    const testFeature = await test.post('/features', feature);
    assert.equal(testFeature.status, 201);
    assert.equal((await test.get('/features')).body.count, 1);
    assert.equal((await api.get(`/features/${testFeature.body.id}`)).status, 404);
    assert.ok(!(await api.get('/features')).body.features.some((f: any) => f.id === testFeature.body.id));
    await test.post('/bugs', { title: 'Test env bug', message: 'Only in the test env' });
    await test.post('/logs', { logs: [{ level: 'info', message: 'test env log' }] });
    await test.post('/i18n-telemetry', { locale: 'en', missingKeys: ['test.env.key'] });
    for (const [table, column] of [
      ['bug_reports', 'title'],
      ['log_groups', 'message'],
      ['missing_translations', 'key'],
    ] as const) {
      const rows = await server.db.all<any>(
        `SELECT environment FROM ${table} WHERE project_id = ? AND LOWER(${column}) LIKE 'test%'`,
        [owner.projectId],
      );
      assert.ok(rows.length > 0 && rows.every((r) => r.environment === 'test'), table);
    }
    // Configuration is shared: the same changelog and translations for both keys.
    assert.equal((await test.get('/changelog')).body.count, 1);
    assert.deepEqual((await test.get('/translations')).body.translations, { 'owner.key': 'Owner text' });
  });

  it('the demo key has exactly public:read, features:read and features:write', async () => {
    const demo = api.withKey(server.demoKey);
    assert.equal((await demo.get('/features')).status, 200);
    assert.equal((await demo.get('/translations')).status, 200);
    assert.equal((await demo.post('/errors', { title: 'Error title', message: 'An error message' })).status, 403);
    assert.equal((await demo.post('/bugs', { title: 'Bug title', message: 'A bug message here' })).status, 403);
    assert.equal((await demo.post('/logs', { logs: [] })).status, 403);
    const roadmap = await demo.get('/roadmap');
    assert.ok(roadmap.body.total >= 5);
  });
});

describe('demo key switch', () => {
  it('DEMO_ENABLED=false turns the demo key off', async () => {
    const server = await startTestServer({ env: { DEMO_ENABLED: 'false' } });
    try {
      const res = await new Api(server.baseUrl, server.demoKey).get('/features');
      assert.equal(res.status, 401);
    } finally {
      await server.close();
    }
  });
});
