import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { managedProjectSuite } from '../../support/manage-fixtures.ts';

const submission = (title: string, extra: Record<string, unknown> = {}) => ({
  title,
  description: `Details about ${title.toLowerCase()} for the team.`,
  ...extra,
});

describe('management: features', () => {
  const p = managedProjectSuite();

  const path = (rest = '') => `/projects/${p.projectId}/features${rest}`;

  it('lists every feature, internal ones and both key environments included, with filters and search', async () => {
    const a = (await p.live.post('/features', submission('Dark mode'))).body;
    const b = (await p.live.post('/features', submission('Secret roadmap item', { internal: true }))).body;
    const c = (await p.test.post('/features', submission('Test key idea'))).body;
    const d = (await p.live.post('/features', submission('Crash on start', { type: 'bug' }))).body;

    const all = await p.member.get(path());
    assert.equal(all.status, 200);
    assert.equal(all.body.total, 4);
    assert.deepEqual(
      all.body.features.map((f: any) => f.id),
      [d.id, c.id, b.id, a.id],
    );
    const secret = all.body.features.find((f: any) => f.id === b.id);
    assert.equal(secret.internal, true);
    assert.equal(secret.developerNotes, null);
    assert.equal(secret.environment, 'live');

    assert.deepEqual(
      (await p.member.get(path(), { query: { environment: 'test' } })).body.features.map((f: any) => f.id),
      [c.id],
    );
    assert.deepEqual(
      (await p.member.get(path(), { query: { internal: true } })).body.features.map((f: any) => f.id),
      [b.id],
    );
    assert.deepEqual(
      (await p.member.get(path(), { query: { type: 'bug' } })).body.features.map((f: any) => f.id),
      [d.id],
    );
    assert.deepEqual(
      (await p.member.get(path(), { query: { status: 'new' } })).body.features.map((f: any) => f.id),
      [d.id],
    );
    assert.deepEqual(
      (await p.member.get(path(), { query: { q: 'DARK' } })).body.features.map((f: any) => f.id),
      [a.id],
    );
    assert.deepEqual((await p.member.get(path(), { query: { q: '100%_' } })).body.features, []);
    const paged = await p.member.get(path(), { query: { limit: 1, offset: 1 } });
    assert.equal(paged.body.total, 4);
    assert.equal(paged.body.features[0].id, c.id);
    assert.equal((await p.member.get(path(), { query: { limit: 1000 } })).body.limit, 200);
    assert.equal((await p.member.get(path(), { query: { status: 'nope' } })).status, 400);
  });

  it('changes status, visibility and developer notes; the public API follows', async () => {
    const f = (await p.live.post('/features', submission('Slack notifications'))).body;
    const patched = await p.admin.patch(path(`/${f.id}`), {
      status: 'planned',
      internal: true,
      developerNotes: 'Needs OAuth app',
    });
    assert.equal(patched.status, 200);
    assert.equal(patched.body.status, 'planned');
    assert.equal(patched.body.internal, true);
    assert.equal(patched.body.developerNotes, 'Needs OAuth app');
    assert.equal((await p.live.get(`/features/${f.id}`)).status, 404);

    const shown = await p.admin.patch(path(`/${f.id}`), {
      internal: false,
      developerNotes: null,
      title: 'Slack and Teams notifications',
    });
    assert.equal(shown.body.developerNotes, null);
    const roadmap = await p.live.get('/roadmap', { query: { status: 'planned' } });
    assert.deepEqual(
      roadmap.body.columns[0].items.map((i: any) => i.title),
      ['Slack and Teams notifications'],
    );

    assert.equal((await p.admin.patch(path(`/${f.id}`), {})).status, 400);
    assert.equal((await p.admin.patch(path(`/${f.id}`), { status: 'shipped' })).status, 400);
    assert.equal((await p.admin.patch(path('/feat_missing'), { status: 'done' })).status, 404);
    assert.equal((await p.member.patch(path(`/${f.id}`), { status: 'done' })).status, 403);
    assert.equal((await p.member.get(path(`/${f.id}`))).body.title, 'Slack and Teams notifications');
  });

  it('merges a duplicate: votes move without double-counting, comments move, the duplicate goes away', async () => {
    const keep = (await p.live.post('/features', submission('Export to CSV'))).body;
    const dup = (await p.live.post('/features', submission('CSV export please'))).body;
    for (const voter of ['ann', 'bob', 'cat']) await p.live.put(`/features/${keep.id}/votes/${voter}`);
    for (const voter of ['bob', 'dan', 'eve']) await p.live.put(`/features/${dup.id}/votes/${voter}`);
    await p.live.post(`/features/${keep.id}/comments`, { body: 'Would love this' });
    await p.live.post(`/features/${dup.id}/comments`, { body: 'Me too' });
    await p.live.post(`/features/${dup.id}/comments`, { body: 'And Excel' });
    const entry = await p.admin.post(`/projects/${p.projectId}/changelog`, { summary: 'CSV soon', featureId: dup.id });
    assert.equal(entry.status, 201);

    const merged = await p.admin.post(path(`/${dup.id}/merge`), { targetId: keep.id });
    assert.equal(merged.status, 200);
    assert.equal(merged.body.mergedId, dup.id);
    assert.equal(merged.body.votesMoved, 2);
    assert.equal(merged.body.votesAlreadyPresent, 1);
    assert.equal(merged.body.commentsMoved, 2);
    assert.equal(merged.body.changelogEntriesMoved, 1);
    assert.equal(merged.body.feature.voteCount, 5);
    assert.equal(merged.body.feature.commentCount, 3);

    assert.equal((await p.member.get(path(`/${dup.id}`))).status, 404);
    assert.equal((await p.live.get(`/features/${dup.id}`)).status, 404);
    const publicKeep = await p.live.get(`/features/${keep.id}`);
    assert.equal(publicKeep.body.voteCount, 5);
    assert.equal(publicKeep.body.commentCount, 3);
    const voters = await p.member.get(path(`/${keep.id}/votes`));
    assert.deepEqual(voters.body.votes.map((v: any) => v.voterId).sort(), ['ann', 'bob', 'cat', 'dan', 'eve']);
    const comments = await p.live.get(`/features/${keep.id}/comments`);
    assert.equal(comments.body.count, 3);
    const moved = await p.member.get(`/projects/${p.projectId}/changelog/${entry.body.id}`);
    assert.equal(moved.body.featureId, keep.id);
    // A repeat vote of a voter who had voted for both still changes nothing.
    assert.equal((await p.live.put(`/features/${keep.id}/votes/bob`)).body.voteCount, 5);

    assert.equal((await p.admin.post(path(`/${keep.id}/merge`), { targetId: keep.id })).status, 400);
    assert.equal((await p.admin.post(path(`/${keep.id}/merge`), { targetId: 'feat_missing' })).status, 400);
    assert.equal((await p.admin.post(path('/feat_missing/merge'), { targetId: keep.id })).status, 404);
    const testItem = (await p.test.post('/features', submission('Test key duplicate'))).body;
    assert.equal((await p.admin.post(path(`/${testItem.id}/merge`), { targetId: keep.id })).status, 400);
    assert.equal((await p.member.post(path(`/${testItem.id}/merge`), { targetId: keep.id })).status, 403);
  });

  it('keeps counts exact when votes arrive on both features while they merge', async () => {
    const keep = (await p.live.post('/features', submission('Offline mode'))).body;
    const dup = (await p.live.post('/features', submission('Work offline'))).body;
    const voters = Array.from({ length: 20 }, (_, i) => `voter-${i}`);
    const results = await Promise.all([
      ...voters.map((voter, i) => p.live.put(`/features/${i % 2 ? keep.id : dup.id}/votes/${voter}`)),
      p.admin.post(path(`/${dup.id}/merge`), { targetId: keep.id }),
      ...voters.map((voter) => p.live.put(`/features/${keep.id}/votes/${voter}-late`)),
    ]);
    const lost = results.filter((r) => r.status === 404).length;
    const final = (await p.member.get(path(`/${keep.id}`))).body;
    const rows = await p.server.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM votes WHERE feature_id = ?', [
      keep.id,
    ]);
    assert.equal(final.voteCount, Number(rows!.n));
    assert.equal(final.voteCount, 40 - lost);
  });

  it('moderates votes and comments with exact counts', async () => {
    const f = (await p.live.post('/features', submission('Keyboard shortcuts'))).body;
    await p.live.put(`/features/${f.id}/votes/spammer`);
    await p.live.put(`/features/${f.id}/votes/fan`);
    const spam = (await p.live.post(`/features/${f.id}/comments`, { body: 'Buy cheap stuff', authorName: 'Spam' }))
      .body;
    await p.live.post(`/features/${f.id}/comments`, { body: 'Useful idea' });

    const listed = await p.member.get(path(`/${f.id}/comments`));
    assert.deepEqual(
      listed.body.comments.map((c: any) => c.body),
      ['Buy cheap stuff', 'Useful idea'],
    );
    assert.equal(listed.body.total, 2);

    const removed = await p.admin.delete(path(`/${f.id}/votes/spammer`));
    assert.equal(removed.status, 200);
    assert.deepEqual(removed.body, { featureId: f.id, removed: true, voteCount: 1, commentCount: 2 });
    const again = await p.admin.delete(path(`/${f.id}/votes/spammer`));
    assert.equal(again.body.removed, false);
    assert.equal(again.body.voteCount, 1);

    const deleted = await p.admin.delete(path(`/${f.id}/comments/${spam.id}`));
    assert.equal(deleted.status, 200);
    assert.equal(deleted.body.commentCount, 1);
    assert.equal((await p.admin.delete(path(`/${f.id}/comments/${spam.id}`))).status, 404);
    assert.equal((await p.member.delete(path(`/${f.id}/comments/${spam.id}`))).status, 403);

    const publicView = await p.live.get(`/features/${f.id}`);
    assert.equal(publicView.body.voteCount, 1);
    assert.equal(publicView.body.commentCount, 1);
  });

  it('deletes a feature; a linked changelog entry keeps its last status', async () => {
    const f = (await p.live.post('/features', submission('Two-factor sign-in'))).body;
    await p.admin.patch(path(`/${f.id}`), { status: 'done' });
    await p.live.put(`/features/${f.id}/votes/ann`);
    const entry = (
      await p.admin.post(`/projects/${p.projectId}/changelog`, {
        summary: '2FA shipped',
        featureId: f.id,
        published: true,
      })
    ).body;
    assert.equal((await p.member.delete(path(`/${f.id}`))).status, 403);
    const res = await p.admin.delete(path(`/${f.id}`));
    assert.equal(res.status, 204);
    assert.equal((await p.member.get(path(`/${f.id}`))).status, 404);
    assert.equal((await p.admin.delete(path(`/${f.id}`))).status, 404);
    const publicLog = await p.live.get('/changelog');
    const shown = publicLog.body.entries.find((e: any) => e.id === entry.id);
    assert.equal(shown.featureId, undefined);
    assert.equal(shown.statusKey, 'done');
    assert.equal(shown.statusLabel, 'Done');
  });

  it("answers another team's account and unknown projects with 404", async () => {
    const f = (await p.live.post('/features', submission('Private thing'))).body;
    for (const res of [
      await p.outsider.get(path()),
      await p.outsider.get(path(`/${f.id}`)),
      await p.outsider.patch(path(`/${f.id}`), { status: 'done' }),
      await p.outsider.delete(path(`/${f.id}`)),
      await p.owner.get('/projects/proj_unknown/features'),
    ]) {
      assert.equal(res.status, 404);
      assert.deepEqual(res.body, { error: 'Not found', code: 'NotFound' });
    }
    const anonymous = await p.owner.get(path(), { headers: { authorization: '' }, unchecked: true });
    assert.equal(anonymous.status, 401);
  });
});
