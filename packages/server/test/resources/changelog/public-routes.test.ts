import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { newId } from '../../../src/kernel/ids.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { Api } from '../../support/api.ts';

describe('changelog', () => {
  let server: TestServer;
  let api: Api;
  let projectId: string;

  const entry = async (values: {
    featureId?: string | null;
    summary: string;
    published?: boolean;
    publishedAt?: string | null;
    statusKey?: string;
    statusLabel?: string;
  }) => {
    const id = newId('chg');
    await server.db.run(
      `INSERT INTO changelog_entries (id, project_id, feature_id, summary, description, status_key, status_label, published, created_at, published_at)
       VALUES (?, ?, ?, ?, '<p>Details</p>', ?, ?, ?, ?, ?)`,
      [
        id,
        projectId,
        values.featureId ?? null,
        values.summary,
        values.statusKey ?? '',
        values.statusLabel ?? '',
        values.published === false ? 0 : 1,
        new Date().toISOString(),
        values.published === false ? null : (values.publishedAt ?? new Date().toISOString()),
      ],
    );
    return id;
  };

  before(async () => {
    server = await startTestServer();
    const project = await server.createProject();
    projectId = project.projectId;
    api = new Api(server.baseUrl, project.liveKey);
  });
  after(() => server.close());

  it('shows published entries newest first, with linked feature fields read live', async () => {
    const feature = await api.post('/features', { title: 'Bulk edit', description: 'Edit many rows at once.' });
    await api.patch(`/features/${feature.body.id}`, { status: 'in-progress' });
    const linked = await entry({
      featureId: feature.body.id,
      summary: 'Bulk edit shipped',
      publishedAt: '2026-01-02T00:00:00.000Z',
    });
    const standalone = await entry({
      summary: 'Faster search',
      statusKey: 'improved',
      statusLabel: 'Improved',
      publishedAt: '2026-01-03T00:00:00.000Z',
    });
    await entry({ summary: 'Draft entry', published: false });
    const res = await api.get('/changelog');
    assert.equal(res.status, 200);
    assert.deepEqual(
      res.body.entries.map((e: any) => e.id),
      [standalone, linked],
    );
    assert.equal(res.body.count, 2);
    assert.equal(res.body.limit, 50);
    const [first, second] = res.body.entries;
    assert.equal(first.featureId, undefined);
    assert.equal(first.featureTitle, '');
    assert.equal(first.featureType, '');
    assert.equal(first.statusKey, 'improved');
    assert.equal(first.statusLabel, 'Improved');
    assert.equal(second.featureId, feature.body.id);
    assert.equal(second.featureTitle, 'Bulk edit');
    assert.equal(second.featureType, 'feature');
    assert.equal(second.statusKey, 'in-progress');
    assert.equal(second.statusLabel, 'In progress');
    assert.equal(second.description, '<p>Details</p>');
    assert.equal(second.published, true);
    // Read live: a status change shows at once.
    await api.patch(`/features/${feature.body.id}`, { status: 'done' });
    const again = await api.get('/changelog');
    assert.equal(again.body.entries[1].statusLabel, 'Done');
  });

  it('returns drafts with published=false, with publishedAt null', async () => {
    const res = await api.get('/changelog', { query: { published: false } });
    assert.equal(res.body.entries.length, 1);
    assert.equal(res.body.entries[0].summary, 'Draft entry');
    assert.equal(res.body.entries[0].publishedAt, null);
    assert.equal(res.body.entries[0].published, false);
    assert.equal((await api.get('/changelog', { query: { published: true } })).body.count, 2);
    assert.equal((await api.get('/changelog', { query: { published: 'maybe' } })).status, 400);
  });

  it('drops entries of internal features before limit and offset; standalone entries stay', async () => {
    const p = await server.createProject();
    projectId = p.projectId;
    const client = api.withKey(p.liveKey);
    const hidden = await client.post('/features', {
      title: 'Secret',
      description: 'Internal only item.',
      internal: true,
    });
    const a = await entry({ summary: 'A', publishedAt: '2026-01-05T00:00:00.000Z' });
    await entry({ featureId: hidden.body.id, summary: 'Hidden', publishedAt: '2026-01-04T00:00:00.000Z' });
    const c = await entry({ summary: 'C', publishedAt: '2026-01-03T00:00:00.000Z' });
    const page1 = await client.get('/changelog', { query: { limit: 1 } });
    assert.deepEqual(
      page1.body.entries.map((e: any) => e.id),
      [a],
    );
    const page2 = await client.get('/changelog', { query: { limit: 1, offset: 1 } });
    assert.deepEqual(
      page2.body.entries.map((e: any) => e.id),
      [c],
    );
    assert.equal(page2.body.count, 1);
    const all = await client.get('/changelog', { query: { limit: 500 } });
    assert.equal(all.body.limit, 100);
    assert.equal(all.body.count, 2);
    await client.patch(`/features/${hidden.body.id}`, { internal: false });
    assert.equal((await client.get('/changelog')).body.count, 3);
  });
});
