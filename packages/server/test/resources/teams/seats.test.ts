import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { startMailbox, type Mailbox } from '../../support/mailbox.ts';
import {
  inviteTokenFor,
  managementApi,
  signUp,
  signUpVerified,
  uniqueEmail,
  verifyEmail,
  type SignedIn,
} from '../../support/management.ts';

describe('teams: invites, roles and seat limits', () => {
  let server: TestServer;
  let mailbox: Mailbox;
  let root: SignedIn;

  before(async () => {
    mailbox = await startMailbox();
    server = await startTestServer({ env: { SMTP_URL: mailbox.url, DEFAULT_TEAM_SEATS: '3' } });
    root = await signUpVerified(server.origin, mailbox, { name: 'Root' });
  });
  after(async () => {
    await server.close();
    await mailbox.close();
  });

  const ownTeam = async (user: SignedIn) => {
    const teams = (await user.api.get('/teams')).body.teams as Array<{ id: string; role: string }>;
    return teams.find((team) => team.role === 'owner')!.id;
  };

  it('gives every account its own team, owned, with the default seats', async () => {
    const owner = await signUp(server.origin, { name: 'Olga' });
    const teams = await owner.api.get('/teams');
    assert.equal(teams.status, 200);
    assert.equal(teams.body.teams.length, 1);
    assert.equal(teams.body.teams[0].name, "Olga's team");
    assert.equal(teams.body.teams[0].role, 'owner');
    assert.deepEqual(teams.body.teams[0].seats, { used: 1, limit: 3 });
  });

  it('invites by e-mail; roles limit what members and admins may do', async () => {
    const owner = await signUpVerified(server.origin, mailbox);
    const teamId = await ownTeam(owner);
    const adminEmail = uniqueEmail('admin');
    const invited = await owner.api.post(`/teams/${teamId}/invites`, {
      email: adminEmail.toUpperCase(),
      role: 'admin',
    });
    assert.equal(invited.status, 201);
    assert.equal(invited.body.email, adminEmail);
    assert.equal(invited.body.status, 'pending');
    const token = await inviteTokenFor(mailbox, adminEmail);

    const preview = await managementApi(server.origin).get(`/invites/${token}`);
    assert.equal(preview.status, 200);
    assert.equal(preview.body.teamId, teamId);
    assert.equal(preview.body.role, 'admin');
    assert.equal((await managementApi(server.origin).post(`/invites/${token}/accept`)).status, 401);
    assert.equal((await managementApi(server.origin).get('/invites/not-a-token')).status, 404);

    const admin = await signUpVerified(server.origin, mailbox, { email: adminEmail });
    const accepted = await admin.api.post(`/invites/${token}/accept`);
    assert.equal(accepted.status, 200);
    assert.equal(accepted.body.role, 'admin');
    assert.equal((await admin.api.post(`/invites/${token}/accept`)).status, 400);

    const memberEmail = uniqueEmail('member');
    await owner.api.post(`/teams/${teamId}/invites`, { email: memberEmail });
    const member = await signUpVerified(server.origin, mailbox, { email: memberEmail });
    assert.equal(
      (await member.api.post(`/invites/${await inviteTokenFor(mailbox, memberEmail)}/accept`)).body.role,
      'member',
    );

    const members = await member.api.get(`/teams/${teamId}/members`);
    assert.equal(members.status, 200);
    assert.deepEqual(members.body.members.map((m: { role: string }) => m.role).sort(), ['admin', 'member', 'owner']);

    // Members read; they cannot invite, create projects or keys.
    assert.equal((await member.api.post(`/teams/${teamId}/invites`, { email: uniqueEmail() })).status, 403);
    assert.equal((await member.api.post('/projects', { teamId, name: 'Nope' })).status, 403);
    // Admins manage projects and keys, not members, plans or seats.
    const project = await admin.api.post('/projects', { teamId, name: 'Team App' });
    assert.equal(project.status, 201);
    assert.equal(project.body.teamId, teamId);
    assert.equal((await member.api.get(`/projects/${project.body.id}`)).body.role, 'member');
    assert.equal(
      (await member.api.post(`/projects/${project.body.id}/keys`, { environment: 'live', scopes: ['features:read'] }))
        .status,
      403,
    );
    assert.equal(
      (await admin.api.post(`/projects/${project.body.id}/keys`, { environment: 'live', scopes: ['features:read'] }))
        .status,
      201,
    );
    assert.equal((await admin.api.patch(`/projects/${project.body.id}`, { monthlyQuota: 1000 })).status, 403);
    assert.equal(
      (await owner.api.patch(`/projects/${project.body.id}`, { monthlyQuota: 1000, plan: 'pro' })).body.monthlyQuota,
      1000,
    );
    assert.equal((await admin.api.post(`/teams/${teamId}/invites`, { email: uniqueEmail() })).status, 403);
    assert.equal(
      (await admin.api.patch(`/teams/${teamId}/members/${member.account.id}`, { role: 'admin' })).status,
      403,
    );
    assert.equal((await admin.api.get(`/teams/${teamId}/invites`)).status, 200);

    // Owners change roles (never their own) and remove members; members may leave.
    const promoted = await owner.api.patch(`/teams/${teamId}/members/${member.account.id}`, { role: 'admin' });
    assert.equal(promoted.body.role, 'admin');
    assert.equal(
      (await owner.api.patch(`/teams/${teamId}/members/${owner.account.id}`, { role: 'member' })).status,
      400,
    );
    assert.equal((await owner.api.delete(`/teams/${teamId}/members/${owner.account.id}`)).status, 403);
    assert.equal((await member.api.delete(`/teams/${teamId}/members/${member.account.id}`)).status, 204);
    assert.equal((await owner.api.delete(`/teams/${teamId}/members/${admin.account.id}`)).status, 204);
    assert.equal((await admin.api.get(`/teams/${teamId}`)).status, 404);
    assert.equal((await admin.api.get(`/projects/${project.body.id}`)).status, 404);
  });

  it('at the seat limit, accepts only verified addresses that already count for the owner', async () => {
    const owner = await signUpVerified(server.origin, mailbox);
    const team1 = await ownTeam(owner);
    const [x, y] = [uniqueEmail('x'), uniqueEmail('y')];
    assert.equal((await owner.api.post(`/teams/${team1}/invites`, { email: x })).status, 201);
    assert.equal((await owner.api.post(`/teams/${team1}/invites`, { email: y })).status, 201);
    assert.deepEqual((await owner.api.get(`/teams/${team1}`)).body.seats, { used: 3, limit: 3 });

    // A new address is refused at the limit; one that already counts is not.
    const full = await owner.api.post(`/teams/${team1}/invites`, { email: uniqueEmail('z') });
    assert.equal(full.status, 403);
    assert.match(full.body.error, /Seat limit reached \(3 of 3\)/);
    assert.equal(
      (await owner.api.post(`/teams/${team1}/invites`, { email: x })).status,
      201,
      're-inviting x replaces its invite',
    );
    const xToken = await inviteTokenFor(mailbox, x, 1);
    const yToken = await inviteTokenFor(mailbox, y);

    // Someone else holding x's link needs an extra seat: refused.
    const bob = await signUpVerified(server.origin, mailbox);
    const bobTry = await bob.api.post(`/invites/${xToken}/accept`);
    assert.equal(bobTry.status, 403);
    assert.match(bobTry.body.error, /seat limit/);

    // x typed at sign-up but not verified yet is not trusted.
    const xUser = await signUp(server.origin, { email: x });
    const unverified = await xUser.api.post(`/invites/${xToken}/accept`);
    assert.equal(unverified.status, 403);
    assert.match(unverified.body.error, /verify your e-mail address/);
    await verifyEmail(server.origin, mailbox, xUser);
    const xAccepted = await xUser.api.post(`/invites/${xToken}/accept`);
    assert.equal(xAccepted.status, 200, xAccepted.text);

    const yUser = await signUpVerified(server.origin, mailbox, { email: y });
    assert.equal((await yUser.api.post(`/invites/${yToken}/accept`)).status, 200);
    assert.deepEqual((await owner.api.get(`/teams/${team1}`)).body.seats, { used: 3, limit: 3 });

    // A second team of the same owner shares the seats: a member of the first one counts.
    const team2 = (await owner.api.post('/teams', { name: 'Second team' })).body;
    assert.deepEqual(team2.seats, { used: 3, limit: 3 });
    assert.equal((await owner.api.post(`/teams/${team2.id}/invites`, { email: x })).status, 201);
    assert.equal((await xUser.api.post(`/invites/${await inviteTokenFor(mailbox, x, 2)}/accept`)).status, 200);
    assert.equal((await owner.api.post(`/teams/${team2.id}/invites`, { email: uniqueEmail('w') })).status, 403);

    // Only the instance administrator sets an owner's seat limit.
    assert.equal((await owner.api.put(`/admin/accounts/${owner.account.id}/seats`, { seatLimit: 10 })).status, 403);
    const raised = await root.api.put(`/admin/accounts/${owner.account.id}/seats`, { seatLimit: 4 });
    assert.equal(raised.status, 200);
    assert.deepEqual(raised.body.seats, { used: 3, limit: 4 });

    // One pending invite per team to the same address counts once; each acceptance is free of seats.
    const p = uniqueEmail('p');
    assert.equal((await owner.api.post(`/teams/${team1}/invites`, { email: p })).status, 201);
    assert.equal((await owner.api.post(`/teams/${team2.id}/invites`, { email: p })).status, 201);
    assert.deepEqual((await owner.api.get(`/teams/${team1}`)).body.seats, { used: 4, limit: 4 });
    const pUser = await signUpVerified(server.origin, mailbox, { email: p });
    assert.equal((await pUser.api.post(`/invites/${await inviteTokenFor(mailbox, p, 0)}/accept`)).status, 200);
    assert.equal((await pUser.api.post(`/invites/${await inviteTokenFor(mailbox, p, 1)}/accept`)).status, 200);
    assert.deepEqual((await owner.api.get(`/teams/${team2.id}`)).body.seats, { used: 4, limit: 4 });

    // Back to the default; withdrawing a pending invite frees its seat.
    await root.api.put(`/admin/accounts/${owner.account.id}/seats`, { seatLimit: null });
    assert.equal(
      (await bob.api.post(`/invites/${xToken}/accept`)).status,
      400,
      'an accepted invite cannot be used again',
    );
  });

  it('frees a seat when a pending invite is withdrawn, and refuses expired invites', async () => {
    const owner = await signUpVerified(server.origin, mailbox);
    const teamId = await ownTeam(owner);
    const a = uniqueEmail('a');
    const invite = (await owner.api.post(`/teams/${teamId}/invites`, { email: a })).body;
    assert.deepEqual((await owner.api.get(`/teams/${teamId}`)).body.seats, { used: 2, limit: 3 });
    const withdrawn = await owner.api.delete(`/teams/${teamId}/invites/${invite.id}`);
    assert.equal(withdrawn.body.status, 'revoked');
    assert.deepEqual((await owner.api.get(`/teams/${teamId}`)).body.seats, { used: 1, limit: 3 });
    const aUser = await signUpVerified(server.origin, mailbox, { email: a });
    const revoked = await aUser.api.post(`/invites/${await inviteTokenFor(mailbox, a)}/accept`);
    assert.equal(revoked.status, 400);
    assert.match(revoked.body.error, /withdrawn/);

    await owner.api.post(`/teams/${teamId}/invites`, { email: a });
    await server.db.run(
      "UPDATE team_invites SET expires_at = '2000-01-01T00:00:00.000Z' WHERE team_id = ? AND revoked_at IS NULL",
      [teamId],
    );
    const expired = await aUser.api.post(`/invites/${await inviteTokenFor(mailbox, a, 1)}/accept`);
    assert.equal(expired.status, 400);
    assert.match(expired.body.error, /expired/);
    assert.deepEqual((await owner.api.get(`/teams/${teamId}`)).body.seats, { used: 1, limit: 3 });
  });

  it('never lets concurrent invites take more seats than the limit', async () => {
    const owner = await signUpVerified(server.origin, mailbox, { name: 'Racer' });
    const teamId = await ownTeam(owner);
    // One seat used (the owner), three allowed: of eight invites at once, exactly two get a seat.
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        owner.api.post(`/teams/${teamId}/invites`, { email: uniqueEmail(`race${i}`) }),
      ),
    );
    assert.deepEqual(answers.map((answer) => answer.status).sort(), [201, 201, 403, 403, 403, 403, 403, 403]);
    assert.deepEqual((await owner.api.get(`/teams/${teamId}`)).body.seats, { used: 3, limit: 3 });
  });
});
