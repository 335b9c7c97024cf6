import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ALL_PUBLIC_SCOPES, createApiKey } from '../../../src/resources/projects/index.ts';
import type { TestProject, TestServer } from '../../support/server.ts';
import type { Api } from '../../support/api.ts';
import { startPublicProject } from '../../support/public-project.ts';

const feature = (extra: Record<string, unknown> = {}) => ({
  title: 'Export to PDF',
  description: 'Please add a PDF export of reports.',
  ...extra,
});

describe('features', () => {
  let server: TestServer;
  let project: TestProject;
  let api: Api;
  let platformApi: Api;

  before(async () => {
    ({ server, project, api } = await startPublicProject());
    const platformKey = await createApiKey(server.db, server.platformProjectId, 'live', ALL_PUBLIC_SCOPES);
    platformApi = api.withKey(platformKey.key);
  });
  after(() => server.close());

  describe('POST /features', () => {
    it('creates a feature as open/feature, public for a customer key', async () => {
      const res = await api.post('/features', feature({ contactEmail: 'ann@example.com', metadata: { plan: 'pro' } }));
      assert.equal(res.status, 201);
      assert.equal(res.body.type, 'feature');
      assert.equal(res.body.status, 'open');
      assert.equal(res.body.internal, false);
      assert.equal(res.body.projectId, project.projectId);
      assert.equal(res.body.voteCount, 0);
      assert.equal(res.body.commentCount, 0);
      assert.equal(res.body.title, 'Export to PDF');
      assert.equal(res.body.description, 'Please add a PDF export of reports.');
      assert.ok(!Number.isNaN(Date.parse(res.body.createdAt)));
      assert.equal(res.body.message, 'Thank you! Your submission has been received.');
      assert.deepEqual(Object.keys(res.body).sort(), [
        'commentCount',
        'createdAt',
        'description',
        'id',
        'internal',
        'message',
        'projectId',
        'status',
        'title',
        'type',
        'voteCount',
      ]);
    });

    it('stores bug and error submissions as bug/new', async () => {
      for (const type of ['bug', 'error']) {
        const res = await api.post('/features', feature({ type }));
        assert.equal(res.status, 201);
        assert.equal(res.body.type, 'bug');
        assert.equal(res.body.status, 'new');
      }
    });

    it('takes the project from the key and ignores a projectId in the body', async () => {
      const res = await api.post('/features', feature({ projectId: server.demoProjectId }));
      assert.equal(res.status, 201);
      assert.equal(res.body.projectId, project.projectId);
    });

    it('rejects an invalid type with the exact text, before other rules', async () => {
      const res = await api.post('/features', { title: 'x', type: 'idea' });
      assert.equal(res.status, 400);
      assert.deepEqual(res.body, { error: 'Invalid type. Allowed values: bug, feature, error' });
      const nonString = await api.post('/features', feature({ type: 7 }));
      assert.deepEqual(nonString.body, { error: 'Invalid type. Allowed values: bug, feature, error' });
    });

    it('checks length bounds and required fields, naming each field', async () => {
      const res = await api.post('/features', {
        title: 'abc',
        description: 'short',
        channel: 'email',
        internal: 'yes',
      });
      assert.equal(res.status, 400);
      const fields = res.body.details.map((d: any) => d.field).sort();
      assert.deepEqual(fields, ['channel', 'description', 'internal', 'title']);
      const missing = await api.post('/features', {});
      assert.deepEqual(missing.body.details.map((d: any) => d.field).sort(), ['description', 'title']);
      const bounds = await api.post('/features', feature({ title: 'x'.repeat(121), description: 'y'.repeat(1001) }));
      assert.equal(bounds.status, 400);
      const edges = await api.post('/features', feature({ title: 'x'.repeat(4), description: 'y'.repeat(12) }));
      assert.equal(edges.status, 201);
      const upper = await api.post('/features', feature({ title: 'x'.repeat(120), description: 'y'.repeat(1000) }));
      assert.equal(upper.status, 201);
    });

    it('defaults every type to internal for the platform project key', async () => {
      for (const type of [undefined, 'feature', 'bug', 'error']) {
        const res = await platformApi.post('/features', feature(type ? { type } : {}));
        assert.equal(res.status, 201);
        assert.equal(res.body.internal, true, `type ${type}`);
      }
    });

    it('keeps widget and SDK submissions public even with the platform key', async () => {
      for (const channel of ['widget', 'sdk']) {
        const res = await platformApi.post('/features', feature({ channel, type: 'bug' }));
        assert.equal(res.body.internal, false, channel);
      }
    });

    it('lets an explicit internal value win for every key and channel', async () => {
      assert.equal((await platformApi.post('/features', feature({ internal: false }))).body.internal, false);
      assert.equal(
        (await platformApi.post('/features', feature({ internal: true, channel: 'widget' }))).body.internal,
        true,
      );
      assert.equal((await api.post('/features', feature({ internal: true }))).body.internal, true);
      assert.equal((await api.post('/features', feature({ internal: false, channel: 'sdk' }))).body.internal, false);
    });
  });

  describe('GET /features', () => {
    let client: Api;
    const ids: Record<string, string> = {};

    before(async () => {
      const p = await server.createProject();
      client = api.withKey(p.liveKey);
      for (const [name, extra] of Object.entries({
        a: {},
        hidden: { internal: true },
        bug: { type: 'bug' },
        c: {},
      })) {
        ids[name] = (await client.post('/features', feature({ title: `Feature ${name}`, ...extra }))).body.id;
      }
      await client.patch(`/features/${ids['c']}`, { status: 'planned' });
    });

    it('lists public features newest first, filtering internal ones before paging', async () => {
      const list = await client.get('/features', { query: { limit: 1 } });
      assert.equal(list.status, 200);
      assert.deepEqual(
        list.body.features.map((f: any) => f.id),
        [ids['c']],
      );
      assert.equal(list.body.count, 1);
      assert.equal(list.body.limit, 1);
      assert.equal(list.body.offset, 0);
      const next = await client.get('/features', { query: { limit: 1, offset: 1 } });
      assert.deepEqual(
        next.body.features.map((f: any) => f.id),
        [ids['bug']],
      );
      const all = await client.get('/features');
      assert.deepEqual(
        all.body.features.map((f: any) => f.id),
        [ids['c'], ids['bug'], ids['a']],
      );
      assert.equal(all.body.count, 3);
      assert.deepEqual(Object.keys(all.body.features[0]).sort(), [
        'commentCount',
        'createdAt',
        'id',
        'projectId',
        'status',
        'title',
        'type',
        'voteCount',
      ]);
    });

    it('lists items in status new when no filter is given, and filters by status and type', async () => {
      assert.deepEqual(
        (await client.get('/features', { query: { status: 'planned' } })).body.features.map((f: any) => f.id),
        [ids['c']],
      );
      assert.deepEqual(
        (await client.get('/features', { query: { type: 'bug' } })).body.features.map((f: any) => f.id),
        [ids['bug']],
      );
      assert.deepEqual(
        (await client.get('/features', { query: { type: 'feature', status: 'open' } })).body.features.map(
          (f: any) => f.id,
        ),
        [ids['a']],
      );
    });

    it('rejects status new and unknown filter values', async () => {
      for (const query of [{ status: 'new' }, { status: 'shipped' }, { type: 'error' }]) {
        const res = await client.get('/features', { query });
        assert.equal(res.status, 400, JSON.stringify(query));
        assert.equal(typeof res.body.error, 'string');
      }
    });

    it('clamps limit to 100 and rejects bad paging values', async () => {
      const clamped = await client.get('/features', { query: { limit: 500 } });
      assert.equal(clamped.status, 200);
      assert.equal(clamped.body.limit, 100);
      for (const query of [{ limit: 0 }, { limit: -1 }, { offset: -1 }, { limit: 1.5 }, { limit: 'ten' }]) {
        const res = await client.get('/features', { query });
        assert.equal(res.status, 400, JSON.stringify(query));
        assert.ok(res.body.details?.length >= 1);
      }
    });
  });

  describe('GET and PATCH /features/{id}', () => {
    it('reads one public item; an internal one is the same 404 as a missing one', async () => {
      const shown = await api.post('/features', feature());
      const hidden = await api.post('/features', feature({ internal: true }));
      const one = await api.get(`/features/${shown.body.id}`);
      assert.equal(one.status, 200);
      assert.equal(one.body.id, shown.body.id);
      const internal = await api.get(`/features/${hidden.body.id}`);
      const missing = await api.get('/features/feat_doesnotexist000000000000');
      assert.equal(internal.status, 404);
      assert.equal(missing.status, 404);
      assert.equal(internal.text, missing.text);
      const headerNames = (h: Headers) =>
        [...h.keys()].filter((k) => !['date', 'x-request-id', 'content-length'].includes(k)).sort();
      assert.deepEqual(headerNames(internal.headers), headerNames(missing.headers));
      assert.equal(internal.headers.get('content-length'), missing.headers.get('content-length'));
    });

    it('publishes and hides an item with PATCH internal, and the lists follow', async () => {
      const p = await server.createProject();
      const client = api.withKey(p.liveKey);
      const hidden = await client.post('/features', feature({ internal: true }));
      assert.equal((await client.get('/features')).body.count, 0);
      const shown = await client.patch(`/features/${hidden.body.id}`, { internal: false });
      assert.equal(shown.status, 200);
      assert.equal(shown.body.internal, false);
      assert.equal(shown.body.developerNotes, null);
      assert.equal((await client.get('/features')).body.count, 1);
      assert.equal((await client.get(`/features/${hidden.body.id}`)).status, 200);
      const again = await client.patch(`/features/${hidden.body.id}`, { internal: true });
      assert.equal(again.body.internal, true);
      assert.equal((await client.get('/features')).body.count, 0);
      assert.equal((await client.get(`/features/${hidden.body.id}`)).status, 404);
    });

    it('moves between any statuses and stores developer notes', async () => {
      const created = await api.post('/features', feature({ type: 'bug' }));
      for (const status of ['done', 'new', 'declined', 'in-review', 'open', 'accepted', 'in-progress', 'planned']) {
        const res = await api.patch(`/features/${created.body.id}`, { status });
        assert.equal(res.status, 200);
        assert.equal(res.body.status, status);
      }
      const notes = await api.patch(`/features/${created.body.id}`, { developerNotes: 'Fixed in 2.1' });
      assert.equal(notes.body.developerNotes, 'Fixed in 2.1');
      assert.equal(notes.body.status, 'planned');
      assert.deepEqual(Object.keys(notes.body).sort(), [
        'commentCount',
        'createdAt',
        'description',
        'developerNotes',
        'id',
        'internal',
        'projectId',
        'status',
        'title',
        'type',
        'voteCount',
      ]);
    });

    it('needs at least one known field and a valid status; changes nothing on 400', async () => {
      const created = await api.post('/features', feature());
      for (const body of [{}, { status: 'shipped' }, { internal: 'no' }, { title: 'New title' }]) {
        const res = await api.patch(`/features/${created.body.id}`, body);
        assert.equal(res.status, 400, JSON.stringify(body));
      }
      const after = await api.get(`/features/${created.body.id}`);
      assert.equal(after.body.status, 'open');
      assert.equal(after.body.title, 'Export to PDF');
    });

    it("answers 404 for another project's item and for a missing one", async () => {
      const other = await server.createProject();
      const theirs = await api.withKey(other.liveKey).post('/features', feature());
      const res = await api.patch(`/features/${theirs.body.id}`, { status: 'done' });
      assert.equal(res.status, 404);
      assert.equal((await api.patch('/features/nope', { status: 'done' })).status, 404);
      assert.equal((await api.withKey(other.liveKey).get(`/features/${theirs.body.id}`)).body.status, 'open');
    });
  });
});
