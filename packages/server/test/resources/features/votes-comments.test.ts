import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { TestServer } from '../../support/server.ts';
import type { Api } from '../../support/api.ts';
import { startPublicProject } from '../../support/public-project.ts';

const feature = { title: 'Calendar sync', description: 'Sync events with my calendar.' };

describe('votes and comments', () => {
  let server: TestServer;
  let api: Api;
  let featureId: string;
  let hiddenId: string;

  before(async () => {
    ({ server, api } = await startPublicProject());
    featureId = (await api.post('/features', feature)).body.id;
    hiddenId = (await api.post('/features', { ...feature, internal: true })).body.id;
  });
  after(() => server.close());

  it('counts one vote per voter; a repeat changes nothing; DELETE removes it', async () => {
    const first = await api.put(`/features/${featureId}/votes/user-1`);
    assert.equal(first.status, 200);
    assert.deepEqual(first.body, { featureId, voteCount: 1, voted: true });
    assert.deepEqual((await api.put(`/features/${featureId}/votes/user-1`)).body, {
      featureId,
      voteCount: 1,
      voted: true,
    });
    assert.equal((await api.put(`/features/${featureId}/votes/user-2`)).body.voteCount, 2);
    assert.deepEqual((await api.delete(`/features/${featureId}/votes/user-1`)).body, {
      featureId,
      voteCount: 1,
      voted: false,
    });
    assert.equal((await api.delete(`/features/${featureId}/votes/user-1`)).body.voteCount, 1);
    assert.equal((await api.get(`/features/${featureId}`)).body.voteCount, 1);
  });

  it('keeps voteCount exact under concurrent votes', async () => {
    const target = (await api.post('/features', feature)).body.id;
    const voters = Array.from({ length: 40 }, (_, i) => `voter-${i % 20}`); // each voter twice
    const results = await Promise.all(voters.map((voter) => api.put(`/features/${target}/votes/${voter}`)));
    assert.ok(results.every((r) => r.status === 200));
    assert.equal((await api.get(`/features/${target}`)).body.voteCount, 20);
    await Promise.all(voters.slice(0, 20).map((voter) => api.delete(`/features/${target}/votes/${voter}`)));
    assert.equal((await api.get(`/features/${target}`)).body.voteCount, 0);
  });

  it('rejects a voter id over 200 characters', async () => {
    const res = await api.put(`/features/${featureId}/votes/${'v'.repeat(201)}`);
    assert.equal(res.status, 400);
    assert.equal((await api.put(`/features/${featureId}/votes/${'v'.repeat(200)}`)).status, 200);
  });

  it('adds and lists comments oldest first, keeping commentCount exact', async () => {
    const target = (await api.post('/features', feature)).body.id;
    const created = await api.post(`/features/${target}/comments`, { body: 'First!', authorName: 'Ann' });
    assert.equal(created.status, 201);
    assert.equal(created.body.featureId, target);
    assert.equal(created.body.body, 'First!');
    assert.equal(created.body.authorName, 'Ann');
    await Promise.all(
      Array.from({ length: 15 }, (_, i) => api.post(`/features/${target}/comments`, { body: `Comment ${i}` })),
    );
    const list = await api.get(`/features/${target}/comments`, { query: { limit: 5 } });
    assert.equal(list.status, 200);
    assert.equal(list.body.count, 5);
    assert.equal(list.body.limit, 5);
    assert.equal(list.body.comments[0].id, created.body.id);
    assert.equal(list.body.comments[1].authorName, null);
    const all = await api.get(`/features/${target}/comments`, { query: { limit: 1000 } });
    assert.equal(all.body.limit, 100);
    assert.equal(all.body.count, 16);
    const times = all.body.comments.map((c: any) => c.createdAt);
    assert.deepEqual(times, [...times].sort());
    assert.equal((await api.get(`/features/${target}`)).body.commentCount, 16);
  });

  it('validates comment bodies', async () => {
    for (const body of [{ body: '' }, { body: 'x'.repeat(5001) }, { body: 'ok', authorName: 'a'.repeat(101) }, {}]) {
      assert.equal(
        (await api.post(`/features/${featureId}/comments`, body)).status,
        400,
        JSON.stringify(body).slice(0, 40),
      );
    }
  });

  it("answers an internal item's votes and comments with the same 404 as a missing item", async () => {
    const calls = (id: string) => [
      api.put(`/features/${id}/votes/u1`),
      api.delete(`/features/${id}/votes/u1`),
      api.get(`/features/${id}/comments`),
      api.post(`/features/${id}/comments`, { body: 'hello' }),
    ];
    const hidden = await Promise.all(calls(hiddenId));
    const missing = await Promise.all(calls('feat_missing00000000000000'));
    for (const [index, res] of hidden.entries()) {
      assert.equal(res.status, 404);
      assert.equal(res.text, missing[index]!.text);
    }
    const row = await server.db.get<{ vote_count: number; comment_count: number }>(
      'SELECT vote_count, comment_count FROM features WHERE id = ?',
      [hiddenId],
    );
    assert.equal(Number(row!.vote_count), 0);
    assert.equal(Number(row!.comment_count), 0);
  });

  it("hides another project's items", async () => {
    const other = await server.createProject();
    assert.equal((await api.withKey(other.liveKey).put(`/features/${featureId}/votes/x`)).status, 404);
    assert.equal((await api.withKey(other.liveKey).get(`/features/${featureId}/comments`)).status, 404);
  });
});
