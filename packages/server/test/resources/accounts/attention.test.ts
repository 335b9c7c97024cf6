/**
 * GET /me/attention (the dashboard's home): ideas to triage and the most-voted open ideas of the
 * caller's projects, the e-mail status, and pending invites of the teams the caller administers.
 * Scoped to the caller: another account's projects and teams never appear; lists are bounded.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Api } from '../../support/api.ts';
import { managedProjectSuite, managementBaseUrl } from '../../support/manage-fixtures.ts';

type Idea = {
  id: string;
  projectId: string;
  projectName: string;
  status: string;
  voteCount: number;
  environment: string;
};
type Attention = {
  emailVerified: boolean;
  ideasToTriage: Idea[];
  mostVotedOpenIdeas: Idea[];
  pendingInvites: Array<{ id: string; teamId: string; teamName: string; email: string; role: string }>;
};

// Submitted features start `open`; bugs and errors start `new`, waiting for triage (spec).
const idea = (title: string) => ({ title, description: `${title}: we would really like this.`, type: 'feature' });
const bug = (title: string) => ({ title, description: `${title}: it breaks every time.`, type: 'bug' });

describe('GET /me/attention', () => {
  const p = managedProjectSuite();

  it('needs a signed-in caller', async () => {
    const refused = await new Api(managementBaseUrl(p.server), null).get('/me/attention');
    assert.equal(refused.status, 401);
  });

  it('lists ideas not triaged yet and the most-voted open ones of the caller’s projects only', async () => {
    const fresh = await p.live.post('/features', bug('Reports crash on dark mode'));
    assert.equal(fresh.status, 201, fresh.text);
    const testIdea = await p.test.post('/features', bug('Export to CSV fails in the test app'));
    assert.equal(testIdea.status, 201, testIdea.text);
    const popular = await p.live.post('/features', idea('Calendar sync'));
    const popularId = popular.body.id as string;
    for (const voter of ['v1', 'v2', 'v3']) await p.live.put(`/features/${popularId}/votes/${voter}`);
    const notVoted = (await p.live.post('/features', idea('Nobody voted for this'))).body.id as string;
    const finished = (await p.live.post('/features', idea('Finished thing'))).body.id as string;
    await p.live.put(`/features/${finished}/votes/v1`);
    await p.owner.patch(`/projects/${p.projectId}/features/${finished}`, { status: 'done' });
    const markedId = (await p.live.post('/features', idea('Looked at already'))).body.id as string;
    const marked = await p.admin.post(`/projects/${p.projectId}/features/triage`, { ids: [markedId, 'feat_nope'] });
    assert.equal(marked.status, 200, marked.text);
    assert.deepEqual(marked.body.triaged, [markedId]);

    // The outsider's own project, with a new idea and a voted open one: never in the others' lists.
    const theirs = await p.outsider.post('/projects', { name: 'Outsider app' });
    assert.equal(theirs.status, 201, theirs.text);
    const theirKey = await p.outsider.post(`/projects/${theirs.body.id}/keys`, {
      environment: 'live',
      scopes: ['features:read', 'features:write'],
    });
    assert.equal(theirKey.status, 201, theirKey.text);
    const theirApi = p.live.withKey(theirKey.body.key);
    const theirIdea = await theirApi.post('/features', bug('Secret outsider bug'));
    assert.equal(theirIdea.status, 201, theirIdea.text);

    for (const client of [p.owner, p.admin, p.member]) {
      const answer = await client.get('/me/attention');
      assert.equal(answer.status, 200, answer.text);
      const body = answer.body as Attention;
      assert.equal(body.emailVerified, true);
      const triage = body.ideasToTriage.map((i) => i.id);
      assert.ok(triage.includes(fresh.body.id), 'live new idea listed');
      assert.ok(triage.includes(testIdea.body.id), 'test-environment new idea listed');
      // Submitted `open` (the spec's rule) but not looked at yet: waiting for triage too.
      assert.ok(triage.includes(notVoted), 'an open idea nobody triaged is listed');
      assert.ok(!triage.includes(finished), 'an idea whose status the team changed is triaged');
      assert.ok(!triage.includes(markedId), 'an idea marked triaged is not listed');
      assert.ok(body.ideasToTriage.every((i) => i.projectId === p.projectId));
      const testListed = body.ideasToTriage.find((i) => i.id === testIdea.body.id)!;
      assert.equal(testListed.environment, 'test');
      assert.equal(body.mostVotedOpenIdeas[0]!.id, popularId);
      assert.equal(body.mostVotedOpenIdeas[0]!.voteCount, 3);
      assert.ok(!body.mostVotedOpenIdeas.some((i) => i.id === finished), 'done ideas are not open');
      assert.ok(!body.mostVotedOpenIdeas.some((i) => i.id === notVoted), 'ideas without votes are not listed');
      assert.ok(body.mostVotedOpenIdeas.every((i) => i.projectId === p.projectId));
    }

    const outsider = (await p.outsider.get('/me/attention')).body as Attention;
    assert.deepEqual(
      outsider.ideasToTriage.map((i) => i.id),
      [theirIdea.body.id],
    );
    assert.equal(outsider.ideasToTriage[0]!.projectName, 'Outsider app');
    assert.deepEqual(outsider.mostVotedOpenIdeas, []);
  });

  it('bounds each list at 10', async () => {
    for (let n = 0; n < 12; n++) await p.test.post('/features', bug(`Bulk bug number ${n}`));
    const body = (await p.member.get('/me/attention')).body as Attention;
    assert.equal(body.ideasToTriage.length, 10);
  });

  it('lists pending invites to admins and owners of the team, not to members or other accounts', async () => {
    const invited = await p.owner.post(`/teams/${p.teamId}/invites`, { email: 'new-colleague@example.com' });
    assert.equal(invited.status, 201, invited.text);
    for (const client of [p.owner, p.admin]) {
      const body = (await client.get('/me/attention')).body as Attention;
      const listed = body.pendingInvites.find((i) => i.id === invited.body.id);
      assert.ok(listed, 'pending invite listed');
      assert.equal(listed.teamId, p.teamId);
      assert.equal(listed.email, 'new-colleague@example.com');
      assert.equal(typeof listed.teamName, 'string');
    }
    assert.deepEqual(((await p.member.get('/me/attention')).body as Attention).pendingInvites, []);
    assert.deepEqual(((await p.outsider.get('/me/attention')).body as Attention).pendingInvites, []);

    // Revoked: no longer needs attention.
    const revoked = await p.owner.delete(`/teams/${p.teamId}/invites/${invited.body.id}`);
    assert.ok(revoked.status < 300, revoked.text);
    assert.deepEqual(((await p.owner.get('/me/attention')).body as Attention).pendingInvites, []);
  });

  it('says when the e-mail address is not verified', async () => {
    await p.server.db.run(
      "UPDATE accounts SET email_verified = 0 WHERE id = (SELECT account_id FROM team_members WHERE team_id = ? AND role = 'member')",
      [p.teamId],
    );
    assert.equal(((await p.member.get('/me/attention')).body as Attention).emailVerified, false);
    assert.equal(((await p.owner.get('/me/attention')).body as Attention).emailVerified, true);
  });
});
