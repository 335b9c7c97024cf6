/**
 * What the dashboard's inbox and idea page need from the management API: tags on each item, the
 * tag filter and the trending sort; bulk changes (all or nothing, followers told); similar ideas
 * for merging; hiding comments from the public; bug reports linked to an idea.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { managedProjectSuite } from '../../support/manage-fixtures.ts';
import { managedProject } from '../../support/manage-fixtures.ts';
import { createFollower } from '../../support/followers.ts';

const submission = (title: string, extra: Record<string, unknown> = {}) => ({
  title,
  description: `Details about ${title.toLowerCase()} for the team.`,
  ...extra,
});

describe('management: triage of features', () => {
  const p = managedProjectSuite();
  const path = (rest = '') => `/projects/${p.projectId}/features${rest}`;
  const idea = async (title: string, extra: Record<string, unknown> = {}) => {
    const res = await p.live.post('/features', submission(title, extra));
    assert.equal(res.status, 201, res.text);
    return res.body.id as string;
  };
  const tag = async (name: string) => {
    const res = await p.admin.post(`/projects/${p.projectId}/tags`, { name });
    assert.equal(res.status, 201, res.text);
    return res.body.id as string;
  };
  const outbox = async (featureId: string) =>
    Number(
      (await p.server.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM notification_outbox WHERE feature_id = ?', [
        featureId,
      ]))!.n,
    );

  it('shows tags on each item, filters by tag and sorts by trending', async () => {
    const old = await idea('Calendar sync with many votes');
    const fresh = await idea('Calendar sync trending now');
    const quiet = await idea('Calendar quiet idea');
    const mobile = await tag('Mobile');
    assert.equal((await p.admin.put(path(`/${fresh}/tags`), { tagIds: [mobile] })).status, 200);

    // Old votes (8 days ago) for `old`, recent ones for `fresh`.
    for (const voter of ['a', 'b', 'c']) await p.live.put(`/features/${old}/votes/${voter}`);
    await p.server.db.run('UPDATE votes SET created_at = ? WHERE feature_id = ?', [
      new Date(Date.now() - 8 * 24 * 3600 * 1000).toISOString(),
      old,
    ]);
    for (const voter of ['d', 'e']) await p.live.put(`/features/${fresh}/votes/${voter}`);

    const trending = await p.member.get(path(), { query: { q: 'calendar', sort: 'trending' } });
    assert.equal(trending.status, 200, trending.text);
    assert.deepEqual(
      trending.body.features.map((f: any) => f.id),
      [fresh, old, quiet],
    );
    const votes = await p.member.get(path(), { query: { q: 'calendar', sort: 'votes' } });
    assert.deepEqual(
      votes.body.features.map((f: any) => f.id),
      [old, fresh, quiet],
    );
    const tagged = await p.member.get(path(), { query: { tag: mobile } });
    assert.equal(tagged.body.total, 1);
    assert.equal(tagged.body.features[0].id, fresh);
    assert.deepEqual(tagged.body.features[0].tags, [{ id: mobile, name: 'Mobile', color: null }]);
    assert.deepEqual((await p.member.get(path(`/${old}`))).body.tags, []);
    assert.deepEqual((await p.member.get(path(`/${fresh}`))).body.tags[0].name, 'Mobile');
    assert.equal((await p.member.get(path(), { query: { tag: 'tag_unknown' } })).body.total, 0);
    assert.equal((await p.member.get(path(), { query: { sort: 'hot' } })).status, 400);
  });

  it('changes many items at once, all or nothing, and tells followers of a status change', async () => {
    const a = await idea('Bulk idea one');
    const b = await idea('Bulk idea two');
    const urgent = await tag('Urgent');
    const later = await tag('Later');
    await p.admin.put(path(`/${b}/tags`), { tagIds: [later] });
    await createFollower(p.server.db, p.projectId, [a]);
    assert.equal(await outbox(a), 0);

    const done = await p.admin.post(path('/bulk'), {
      featureIds: [a, b],
      status: 'planned',
      addTagIds: [urgent],
      removeTagIds: [later],
    });
    assert.equal(done.status, 200, done.text);
    assert.equal(done.body.updated, 2);
    for (const f of done.body.features) {
      assert.equal(f.status, 'planned');
      assert.equal(f.internal, false);
      assert.deepEqual(
        f.tags.map((t: any) => t.name),
        ['Urgent'],
      );
    }
    // The follower of `a` is told, as after a single PATCH.
    assert.equal(await outbox(a), 1);
    const hidden = await p.admin.post(path('/bulk'), { featureIds: [a, b], internal: true });
    assert.equal(hidden.status, 200, hidden.text);
    assert.equal((await p.live.get(`/features/${a}`)).status, 404);

    // Another project's item, an unknown id or an unknown tag: 400, nothing changed.
    const other = await managedProject(p.server);
    const foreign = (await other.live.post('/features', submission('Foreign idea'))).body.id;
    for (const body of [
      { featureIds: [a, foreign], status: 'done' },
      { featureIds: [a, 'feat_missing'], status: 'done' },
      { featureIds: [a], status: 'done', addTagIds: ['tag_missing'] },
      { featureIds: [a], addTagIds: [urgent], removeTagIds: [urgent] },
      { featureIds: [a] },
      { featureIds: [], status: 'done' },
      { featureIds: Array.from({ length: 101 }, (_, i) => `feat_${i}`), status: 'done' },
      { featureIds: [a], status: 'shipped' },
    ]) {
      const refused = await p.admin.post(path('/bulk'), body);
      assert.equal(refused.status, 400, JSON.stringify(body));
      assert.ok(!refused.text.includes('Foreign idea'));
    }
    assert.equal((await p.member.get(path(`/${a}`))).body.status, 'planned');
    assert.equal((await other.member.get(`/projects/${other.projectId}/features/${foreign}`)).body.status, 'open');
    assert.equal(await outbox(a), 1);
    assert.equal((await p.member.post(path('/bulk'), { featureIds: [a], status: 'done' })).status, 403);
    assert.equal((await p.outsider.post(path('/bulk'), { featureIds: [a], status: 'done' })).status, 404);

    const shown = await p.admin.post(path('/bulk'), { featureIds: [a, b, a], internal: false });
    assert.equal(shown.body.updated, 2);
    assert.equal((await p.live.get(`/features/${a}`)).status, 200);
    assert.equal(await outbox(a), 1);
  });

  it('suggests similar items of the same project and environment for merging, itself excluded', async () => {
    const target = await idea('Export reports to PDF');
    const dup = await idea('PDF export of reports', { internal: true });
    await idea('Something unrelated entirely');
    await p.test.post('/features', submission('Export PDF from test key'));
    const other = await managedProject(p.server);
    await other.live.post('/features', submission('Export reports PDF elsewhere'));

    const similar = await p.member.get(path(`/${target}/similar`));
    assert.equal(similar.status, 200, similar.text);
    const ids = similar.body.features.map((f: any) => f.id);
    assert.ok(ids.includes(dup), 'the duplicate is suggested');
    assert.ok(!ids.includes(target), 'not itself');
    assert.ok(
      similar.body.features.every((f: any) => f.projectId === p.projectId && f.environment === 'live'),
      'same project and environment only',
    );
    assert.equal((await p.member.get(path(`/${target}/similar`), { query: { limit: 1 } })).body.features.length, 1);
    assert.equal((await p.member.get(path('/feat_missing/similar'))).status, 404);
    assert.equal((await p.outsider.get(path(`/${target}/similar`))).status, 404);
  });

  it('hides a comment from the public and shows it again, with exact counts', async () => {
    const f = await idea('Comment hiding idea');
    const spam = (await p.live.post(`/features/${f}/comments`, { body: 'Spammy words here' })).body;
    await p.live.post(`/features/${f}/comments`, { body: 'A useful comment' });

    const hidden = await p.admin.patch(path(`/${f}/comments/${spam.id}`), { hidden: true });
    assert.equal(hidden.status, 200, hidden.text);
    assert.equal(hidden.body.comment.hidden, true);
    assert.equal(hidden.body.commentCount, 1);
    const publicComments = await p.live.get(`/features/${f}/comments`);
    assert.deepEqual(
      publicComments.body.comments.map((c: any) => c.body),
      ['A useful comment'],
    );
    assert.equal((await p.live.get(`/features/${f}`)).body.commentCount, 1);
    const managed = await p.member.get(path(`/${f}/comments`));
    assert.deepEqual(
      managed.body.comments.map((c: any) => [c.body, c.hidden]),
      [
        ['Spammy words here', true],
        ['A useful comment', false],
      ],
    );
    // Hiding twice changes nothing.
    assert.equal((await p.admin.patch(path(`/${f}/comments/${spam.id}`), { hidden: true })).body.commentCount, 1);

    const shown = await p.admin.patch(path(`/${f}/comments/${spam.id}`), { hidden: false });
    assert.equal(shown.body.comment.hidden, false);
    assert.equal(shown.body.commentCount, 2);
    assert.equal((await p.live.get(`/features/${f}/comments`)).body.count, 2);

    assert.equal((await p.admin.patch(path(`/${f}/comments/cmt_missing`), { hidden: true })).status, 404);
    assert.equal((await p.admin.patch(path(`/${f}/comments/${spam.id}`), {})).status, 400);
    assert.equal((await p.member.patch(path(`/${f}/comments/${spam.id}`), { hidden: true })).status, 403);
    const elsewhere = await idea('Another idea for comments');
    assert.equal((await p.admin.patch(path(`/${elsewhere}/comments/${spam.id}`), { hidden: true })).status, 404);
  });

  it('lists the bug reports linked to an idea', async () => {
    const report = await p.live.post('/bugs', {
      title: 'Crash when saving',
      message: 'The app crashes when saving a file with a long name.',
      createFeature: true,
    });
    assert.equal(report.status, 201, report.text);
    await p.live.post('/bugs', { title: 'Another bug', message: 'Unrelated bug report for the list.' });
    const bugs = await p.member.get(`/projects/${p.projectId}/bugs`);
    const linked = bugs.body.bugs.find((b: any) => b.featureId);
    assert.ok(linked, 'a bug linked to its feature');
    const filtered = await p.member.get(`/projects/${p.projectId}/bugs`, { query: { featureId: linked.featureId } });
    assert.equal(filtered.status, 200, filtered.text);
    assert.deepEqual(
      filtered.body.bugs.map((b: any) => b.id),
      [linked.id],
    );
    assert.equal(
      (await p.member.get(`/projects/${p.projectId}/bugs`, { query: { featureId: 'feat_none' } })).body.total,
      0,
    );
  });
});

describe('management: merging moves followers', () => {
  const p = managedProjectSuite();
  it('the duplicate’s followers follow the kept idea, each once', async () => {
    const keep = (await p.live.post('/features', submission('Keep this idea'))).body.id;
    const dup = (await p.live.post('/features', submission('Duplicate of the idea'))).body.id;
    const both = await createFollower(p.server.db, p.projectId, [keep, dup]);
    const onlyDup = await createFollower(p.server.db, p.projectId, [dup]);
    const merged = await p.admin.post(`/projects/${p.projectId}/features/${dup}/merge`, { targetId: keep });
    assert.equal(merged.status, 200, merged.text);
    const rows = await p.server.db.all<{ user_id: string }>(
      'SELECT user_id FROM follows WHERE feature_id = ? ORDER BY user_id',
      [keep],
    );
    assert.deepEqual(rows.map((row) => row.user_id).sort(), [both.id, onlyDup.id].sort());
  });
});
