import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestProject, type TestServer } from './support/server.ts';
import { Api } from './support/api.ts';

const feature = (extra: Record<string, unknown> = {}) => ({
  title: 'Export to PDF',
  description: 'Please add a PDF export of reports.',
  ...extra,
});

describe('features', () => {
  let server: TestServer;
  let project: TestProject;
  let api: Api;

  before(async () => {
    server = await startTestServer();
    project = await server.createProject();
    api = new Api(server.baseUrl, project.liveKey);
  });
  after(() => server.close());

  it('creates a feature as open/feature, public for a customer key', async () => {
    const res = await api.post('/features', feature());
    assert.equal(res.status, 201);
    assert.equal(res.body.type, 'feature');
    assert.equal(res.body.status, 'open');
    assert.equal(res.body.internal, false);
    assert.equal(res.body.projectId, project.projectId);
    assert.equal(res.body.voteCount, 0);
    assert.equal(typeof res.body.message, 'string');
  });

  it('stores bug and error submissions as bug/new', async () => {
    for (const type of ['bug', 'error']) {
      const res = await api.post('/features', feature({ type }));
      assert.equal(res.status, 201);
      assert.equal(res.body.type, 'bug');
      assert.equal(res.body.status, 'new');
    }
  });

  it('rejects an invalid type with the exact text, before other rules', async () => {
    const res = await api.post('/features', { title: 'x', type: 'idea' });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, { error: 'Invalid type. Allowed values: bug, feature, error' });
  });

  it('lists public features newest first, filtering internal ones before paging', async () => {
    const p = await server.createProject();
    const client = api.withKey(p.liveKey);
    const a = await client.post('/features', feature({ title: 'Feature A' }));
    await client.post('/features', feature({ title: 'Hidden B', internal: true }));
    const c = await client.post('/features', feature({ title: 'Feature C' }));
    const list = await client.get('/features', { query: { limit: 1 } });
    assert.equal(list.status, 200);
    assert.deepEqual(list.body.features.map((f: any) => f.id), [c.body.id]);
    assert.equal(list.body.count, 1);
    const next = await client.get('/features', { query: { limit: 1, offset: 1 } });
    assert.deepEqual(next.body.features.map((f: any) => f.id), [a.body.id]);
  });
});
