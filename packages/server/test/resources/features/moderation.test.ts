import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { managedProject, type ManagedProject } from '../../support/manage-fixtures.ts';
import { heldComment, heldIdea } from '../../support/moderation.ts';
import { holdFeature } from '../../../src/resources/features/index.ts';

describe('moderation: held ideas and comments', () => {
  let server: TestServer;
  let p: ManagedProject;
  let other: ManagedProject;

  before(async () => {
    server = await startTestServer();
    p = await managedProject(server);
    other = await managedProject(server);
  });
  after(() => server.close());

  const queue = async (query: Record<string, string | number> = {}, project: ManagedProject = p) => {
    const response = await project.member.get(`/projects/${project.projectId}/moderation`, { query });
    assert.equal(response.status, 200, response.text);
    return response.body;
  };
  const decide = (
    api: ManagedProject['admin'],
    kind: 'ideas' | 'comments',
    id: string,
    action: 'approve' | 'reject',
    project: ManagedProject = p,
  ) => api.post(`/projects/${project.projectId}/moderation/${kind}/${id}/${action}`);
  const publicIds = async () => (await p.live.get('/features')).body.features.map((f: any) => f.id);

  it('a held idea is not public: the same 404 as a missing one, and absent from every list', async () => {
    const id = await heldIdea(server, p, 'Offline mode');
    const held = await p.live.get(`/features/${id}`);
    const missing = await p.live.get('/features/feat_doesnotexist');
    assert.equal(held.status, 404);
    assert.deepEqual(held.body, missing.body);
    assert.equal((await p.live.get(`/features/${id}/comments`)).status, 404);
    assert.equal((await p.live.post(`/features/${id}/comments`, { body: 'me too' })).status, 404);
    assert.equal((await p.live.put(`/features/${id}/votes/voter-1`)).status, 404);
    assert.ok(!(await publicIds()).includes(id));
    const roadmap = await p.live.get('/roadmap');
    assert.ok(!JSON.stringify(roadmap.body).includes(id));
    // The team sees it in the queue and in the management list.
    const { items } = await queue();
    const item = items.find((i: any) => i.id === id);
    assert.deepEqual(
      { ...item, createdAt: undefined },
      {
        kind: 'idea',
        id,
        featureId: id,
        featureTitle: 'Offline mode',
        body: 'Offline mode, please.',
        environment: 'live',
        authorName: null,
        boardUserId: null,
        createdAt: undefined,
      },
    );
    assert.equal((await p.member.get(`/projects/${p.projectId}/features/${id}`)).status, 200);
  });

  it('approving an idea makes it public in GET /features and GET /features/{id}', async () => {
    const id = await heldIdea(server, p, 'Export to CSV');
    const approved = await decide(p.admin, 'ideas', id, 'approve');
    assert.equal(approved.status, 200, approved.text);
    assert.deepEqual(approved.body, { kind: 'idea', id, featureId: id, decision: 'approved' });
    assert.ok((await publicIds()).includes(id));
    const shown = await p.live.get(`/features/${id}`);
    assert.equal(shown.status, 200);
    assert.equal(shown.body.title, 'Export to CSV');
    assert.ok(!(await queue()).items.some((i: any) => i.id === id));
    // Decided once: a second decision is a conflict, and rejecting no longer deletes it.
    assert.equal((await decide(p.admin, 'ideas', id, 'approve')).status, 409);
    const late = await decide(p.admin, 'ideas', id, 'reject');
    assert.equal(late.status, 409);
    assert.match(late.body.error, /not waiting for approval/);
    assert.equal((await p.live.get(`/features/${id}`)).status, 200);
  });

  it('rejecting an idea deletes it with its votes and comments; linked changelog entries stay standalone', async () => {
    const created = await p.live.post('/features', { title: 'Spam idea', description: 'A description long enough.' });
    const id = created.body.id;
    assert.equal((await p.live.put(`/features/${id}/votes/voter-1`)).status, 200);
    assert.equal((await p.live.post(`/features/${id}/comments`, { body: 'spam' })).status, 201);
    const entry = await p.admin.post(`/projects/${p.projectId}/changelog`, { summary: 'Linked', featureId: id });
    assert.equal(entry.status, 201, entry.text);
    await heldComment(server, p, id, 'a held one');
    assert.ok(await holdFeature(server.db, p.projectId, id));

    const rejected = await decide(p.admin, 'ideas', id, 'reject');
    assert.equal(rejected.status, 200, rejected.text);
    assert.deepEqual(rejected.body, { kind: 'idea', id, featureId: id, decision: 'rejected' });
    assert.equal((await p.member.get(`/projects/${p.projectId}/features/${id}`)).status, 404);
    assert.equal((await p.live.get(`/features/${id}`)).status, 404);
    assert.ok(!(await queue()).items.some((i: any) => i.featureId === id), 'its held comment left the queue too');
    const kept = await p.member.get(`/projects/${p.projectId}/changelog/${entry.body.id}`);
    assert.equal(kept.status, 200);
    assert.equal(kept.body.featureId, null);
    assert.equal((await decide(p.admin, 'ideas', id, 'reject')).status, 404);
  });

  it('a held comment is not listed nor counted until approved; approval counts it once', async () => {
    const feature = (await p.live.post('/features', { title: 'Dark mode', description: 'A description long enough.' }))
      .body;
    assert.equal((await p.live.post(`/features/${feature.id}/comments`, { body: 'first' })).status, 201);
    const held = await heldComment(server, p, feature.id, 'second, held');
    const publicComments = async () =>
      (await p.live.get(`/features/${feature.id}/comments`)).body.comments.map((c: any) => c.body);
    const commentCount = async () => (await p.live.get(`/features/${feature.id}`)).body.commentCount;
    assert.deepEqual(await publicComments(), ['first']);
    assert.equal(await commentCount(), 1);
    const item = (await queue({ kind: 'comment' })).items.find((i: any) => i.id === held);
    assert.equal(item.kind, 'comment');
    assert.equal(item.featureId, feature.id);
    assert.equal(item.featureTitle, 'Dark mode');
    assert.equal(item.body, 'second, held');
    assert.equal(item.authorName, 'Grace');

    const approved = await decide(p.admin, 'comments', held, 'approve');
    assert.equal(approved.status, 200, approved.text);
    assert.deepEqual(approved.body, { kind: 'comment', id: held, featureId: feature.id, decision: 'approved' });
    assert.deepEqual(await publicComments(), ['first', 'second, held']);
    assert.equal(await commentCount(), 2);
    assert.equal((await decide(p.admin, 'comments', held, 'approve')).status, 409);
    assert.equal(await commentCount(), 2);
    assert.equal((await decide(p.admin, 'comments', held, 'reject')).status, 409);
    assert.deepEqual(await publicComments(), ['first', 'second, held']);
  });

  it('rejecting a comment deletes it; deleting or merging held comments leaves the counts exact', async () => {
    const feature = (
      await p.live.post('/features', { title: 'Keyboard shortcuts', description: 'A description long enough.' })
    ).body;
    assert.equal((await p.live.post(`/features/${feature.id}/comments`, { body: 'public' })).status, 201);
    const rejectMe = await heldComment(server, p, feature.id, 'rude');
    const deleteMe = await heldComment(server, p, feature.id, 'also rude');
    const rejected = await decide(p.admin, 'comments', rejectMe, 'reject');
    assert.equal(rejected.status, 200, rejected.text);
    assert.equal(rejected.body.decision, 'rejected');
    const manageComments = async (id: string) =>
      (await p.member.get(`/projects/${p.projectId}/features/${id}/comments`)).body.comments.map((c: any) => c.id);
    assert.ok(!(await manageComments(feature.id)).includes(rejectMe));
    assert.equal((await p.live.get(`/features/${feature.id}`)).body.commentCount, 1);
    assert.equal((await decide(p.admin, 'comments', rejectMe, 'reject')).status, 404);

    // The comment moderation of the features API: a held comment was never counted.
    const removed = await p.admin.delete(`/projects/${p.projectId}/features/${feature.id}/comments/${deleteMe}`);
    assert.equal(removed.status, 200, removed.text);
    assert.equal(removed.body.commentCount, 1);

    // Merging: the kept idea counts only public comments.
    const duplicate = (
      await p.live.post('/features', { title: 'Shortcut keys', description: 'A description long enough.' })
    ).body;
    await heldComment(server, p, duplicate.id, 'held on the duplicate');
    assert.equal((await p.live.post(`/features/${duplicate.id}/comments`, { body: 'public too' })).status, 201);
    const merged = await p.admin.post(`/projects/${p.projectId}/features/${duplicate.id}/merge`, {
      targetId: feature.id,
    });
    assert.equal(merged.status, 200, merged.text);
    assert.equal(merged.body.feature.commentCount, 2);
    assert.equal((await p.live.get(`/features/${feature.id}`)).body.commentCount, 2);
    assert.equal((await p.live.get(`/features/${feature.id}/comments`)).body.comments.length, 2);
  });

  it('lists the queue oldest first, paged, ideas and comments together or by kind', async () => {
    const fresh = await managedProject(server);
    const first = await heldIdea(server, fresh, 'First idea');
    const publicIdea = (
      await fresh.live.post('/features', { title: 'Public idea', description: 'A description long enough.' })
    ).body.id;
    const second = await heldComment(server, fresh, publicIdea, 'a comment');
    const third = await heldIdea(server, fresh, 'Third idea');
    const all = await queue({}, fresh);
    assert.equal(all.total, 3);
    assert.deepEqual(
      all.items.map((i: any) => i.id),
      [first, second, third],
    );
    const times = all.items.map((i: any) => i.createdAt);
    assert.deepEqual([...times].sort(), times);
    const page = await queue({ limit: 1, offset: 1 }, fresh);
    assert.deepEqual(
      page.items.map((i: any) => i.id),
      [second],
    );
    assert.equal(page.total, 3);
    assert.equal(page.limit, 1);
    assert.equal(page.offset, 1);
    const ideas = await queue({ kind: 'idea' }, fresh);
    assert.deepEqual(
      ideas.items.map((i: any) => i.id),
      [first, third],
    );
    assert.equal(ideas.total, 2);
    // Test-key items are moderated too.
    const testIdea = (
      await fresh.test.post('/features', { title: 'From staging', description: 'A description long enough.' })
    ).body.id;
    await holdFeature(server.db, fresh.projectId, testIdea);
    const withTest = await queue({ kind: 'idea' }, fresh);
    assert.equal(withTest.items.find((i: any) => i.id === testIdea).environment, 'test');
  });

  it("another project's items are 404; moderating needs the admin role", async () => {
    const idea = await heldIdea(server, p, 'Not yours');
    const publicIdea = (
      await p.live.post('/features', { title: 'Commented', description: 'A description long enough.' })
    ).body.id;
    const comment = await heldComment(server, p, publicIdea, 'not yours either');
    for (const action of ['approve', 'reject'] as const) {
      // An admin of another project, through their own project: no such item there.
      assert.equal((await decide(other.admin, 'ideas', idea, action, other)).status, 404);
      assert.equal((await decide(other.admin, 'comments', comment, action, other)).status, 404);
      // Through this project without being on its team.
      assert.equal((await decide(p.outsider, 'ideas', idea, action)).status, 404);
      assert.equal((await decide(p.outsider, 'comments', comment, action)).status, 404);
      const forbidden = await decide(p.member, 'ideas', idea, action);
      assert.equal(forbidden.status, 403);
      assert.match(forbidden.body.error, /admin role/);
      assert.equal((await decide(p.member, 'comments', comment, action)).status, 403);
      assert.equal((await decide(p.admin, 'ideas', 'feat_nope', action)).status, 404);
      assert.equal((await decide(p.admin, 'comments', 'cmt_nope', action)).status, 404);
    }
    assert.ok(!(await queue({}, other)).items.some((i: any) => i.id === idea || i.id === comment));
    assert.equal((await p.outsider.get(`/projects/${p.projectId}/moderation`)).status, 404);
    // Nothing was decided.
    const ids = (await queue()).items.map((i: any) => i.id);
    assert.ok(ids.includes(idea) && ids.includes(comment));
  });
});
