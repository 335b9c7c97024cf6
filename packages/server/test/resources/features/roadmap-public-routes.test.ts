import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { TestServer } from '../../support/server.ts';
import type { Api } from '../../support/api.ts';
import { startPublicProject } from '../../support/public-project.ts';

const ORDER = ['open', 'planned', 'in-progress', 'in-review', 'accepted', 'done', 'declined'];

describe('roadmap', () => {
  let server: TestServer;
  let api: Api;
  const ids: Record<string, string> = {};

  before(async () => {
    ({ server, api } = await startPublicProject());
    const make = async (name: string, status: string | null, extra: Record<string, unknown> = {}, votes = 0) => {
      const res = await api.post('/features', { title: `Item ${name}`, description: 'A roadmap item here.', ...extra });
      if (status) await api.patch(`/features/${res.body.id}`, { status });
      for (let i = 0; i < votes; i++) await api.put(`/features/${res.body.id}/votes/v${i}`);
      ids[name] = res.body.id;
    };
    await make('p1', 'planned', {}, 1);
    await make('p2', 'planned', {}, 3);
    await make('p3', 'planned', {}, 1);
    await make('done', 'done', {}, 0);
    await make('hidden', 'planned', { internal: true }, 0);
    await make('newbug', null, { type: 'bug' }, 5);
    await make('open', null, {}, 0);
  });
  after(() => server.close());

  it('has one column per status in order, empty ones included, public items only, never status new', async () => {
    const res = await api.get('/roadmap');
    assert.equal(res.status, 200);
    assert.deepEqual(
      res.body.columns.map((c: any) => c.status),
      ORDER,
    );
    const planned = res.body.columns.find((c: any) => c.status === 'planned');
    // most votes first, then newest
    assert.deepEqual(
      planned.items.map((i: any) => i.id),
      [ids['p2'], ids['p3'], ids['p1']],
    );
    assert.equal(res.body.total, 5);
    const all = res.body.columns.flatMap((c: any) => c.items.map((i: any) => i.id));
    assert.ok(!all.includes(ids['hidden']));
    assert.ok(!all.includes(ids['newbug']));
    assert.deepEqual(Object.keys(planned.items[0]).sort(), [
      'commentCount',
      'createdAt',
      'id',
      'status',
      'title',
      'voteCount',
    ]);
    assert.equal(res.body.columns.find((c: any) => c.status === 'accepted').items.length, 0);
  });

  it('filters by a comma-separated status list and rejects unknown or new statuses', async () => {
    const res = await api.get('/roadmap', { query: { status: 'done,planned' } });
    assert.deepEqual(
      res.body.columns.map((c: any) => c.status),
      ['planned', 'done'],
    );
    assert.equal(res.body.total, 4);
    for (const status of ['new', 'planned,shipped', ',', 'PLANNED']) {
      assert.equal((await api.get('/roadmap', { query: { status } })).status, 400, status);
    }
  });

  it('caps items over all columns with limit (max 200) and reports total', async () => {
    const res = await api.get('/roadmap', { query: { limit: 2 } });
    assert.equal(res.body.total, 2);
    assert.equal(res.body.columns.flatMap((c: any) => c.items).length, 2);
    assert.equal((await api.get('/roadmap', { query: { limit: 5000 } })).status, 200);
    assert.equal((await api.get('/roadmap', { query: { limit: 0 } })).status, 400);
  });
});
