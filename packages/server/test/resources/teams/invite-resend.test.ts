import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { startMailbox, type Mailbox } from '../../support/mailbox.ts';
import { inviteTokenFor, managementApi, signUpVerified, uniqueEmail, type SignedIn } from '../../support/management.ts';

describe('teams: resending an invite, and what the invite e-mail and page show', () => {
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

  it('links the invite e-mail to the dashboard and names who invited', async () => {
    const owner = await signUpVerified(server.origin, mailbox, { name: 'Ines Inviter' });
    const teamId = await ownTeam(owner);
    const email = uniqueEmail('guest');
    assert.equal((await owner.api.post(`/teams/${teamId}/invites`, { email })).status, 201);
    const mail = await mailbox.waitFor((m) => m.to.includes(email) && /invited/.test(m.subject));
    const link = new URL(mail.links.find((url) => url.includes('/invites/'))!);
    assert.match(link.pathname, /^\/app\/invites\/[^/]+$/);
    const preview = await managementApi(server.origin).get(`/invites/${link.pathname.split('/').pop()}`);
    assert.equal(preview.status, 200);
    assert.equal(preview.body.invitedBy, 'Ines Inviter');
    assert.equal(preview.body.status, 'pending');
  });

  it('resends with a new link and a fresh expiry; the old link stops working', async () => {
    const owner = await signUpVerified(server.origin, mailbox);
    const teamId = await ownTeam(owner);
    const email = uniqueEmail('again');
    const invite = (await owner.api.post(`/teams/${teamId}/invites`, { email })).body;
    const first = await inviteTokenFor(mailbox, email, 0);
    await server.db.run("UPDATE team_invites SET expires_at = '2030-01-01T00:00:00.000Z' WHERE id = ?", [invite.id]);

    const resent = await owner.api.post(`/teams/${teamId}/invites/${invite.id}/resend`);
    assert.equal(resent.status, 200, resent.text);
    assert.equal(resent.body.id, invite.id);
    assert.equal(resent.body.status, 'pending');
    assert.notEqual(resent.body.expiresAt, '2030-01-01T00:00:00.000Z');
    const second = await inviteTokenFor(mailbox, email, 1);
    assert.notEqual(second, first);
    assert.equal((await managementApi(server.origin).get(`/invites/${first}`)).status, 404);
    assert.equal((await managementApi(server.origin).get(`/invites/${second}`)).body.status, 'pending');
    // Still one pending invite, one seat.
    assert.deepEqual((await owner.api.get(`/teams/${teamId}`)).body.seats, { used: 2, limit: 3 });
    const invites = (await owner.api.get(`/teams/${teamId}/invites`)).body.invites;
    assert.equal(invites.length, 1);

    const guest = await signUpVerified(server.origin, mailbox, { email });
    assert.equal((await guest.api.post(`/invites/${second}/accept`)).status, 200);
    // Accepted: nothing to resend.
    const accepted = await owner.api.post(`/teams/${teamId}/invites/${invite.id}/resend`);
    assert.equal(accepted.status, 409);
    assert.match(accepted.body.error, /already been accepted/);
  });

  it('lets admins resend, not members; refuses withdrawn and unknown invites; limits resends', async () => {
    const owner = await signUpVerified(server.origin, mailbox);
    const teamId = await ownTeam(owner);
    await root.api.put(`/admin/accounts/${owner.account.id}/seats`, { seatLimit: 10 });
    const adminEmail = uniqueEmail('adm');
    const memberEmail = uniqueEmail('mem');
    await owner.api.post(`/teams/${teamId}/invites`, { email: adminEmail, role: 'admin' });
    await owner.api.post(`/teams/${teamId}/invites`, { email: memberEmail });
    const admin = await signUpVerified(server.origin, mailbox, { email: adminEmail });
    const member = await signUpVerified(server.origin, mailbox, { email: memberEmail });
    assert.equal((await admin.api.post(`/invites/${await inviteTokenFor(mailbox, adminEmail)}/accept`)).status, 200);
    assert.equal((await member.api.post(`/invites/${await inviteTokenFor(mailbox, memberEmail)}/accept`)).status, 200);

    const email = uniqueEmail('pending');
    const invite = (await owner.api.post(`/teams/${teamId}/invites`, { email })).body;
    assert.equal((await member.api.post(`/teams/${teamId}/invites/${invite.id}/resend`)).status, 403);
    assert.equal((await root.api.post(`/teams/${teamId}/invites/${invite.id}/resend`)).status, 404);
    assert.equal((await admin.api.post(`/teams/${teamId}/invites/nope/resend`)).status, 404);
    const byAdmin = await admin.api.post(`/teams/${teamId}/invites/${invite.id}/resend`);
    assert.equal(byAdmin.status, 200, byAdmin.text);
    assert.equal((await admin.api.post(`/teams/${teamId}/invites/${invite.id}/resend`)).status, 200);
    assert.equal((await owner.api.post(`/teams/${teamId}/invites/${invite.id}/resend`)).status, 200);
    const limited = await owner.api.post(`/teams/${teamId}/invites/${invite.id}/resend`);
    assert.equal(limited.status, 429);
    assert.ok(limited.headers.get('retry-after'));

    const other = (await owner.api.post(`/teams/${teamId}/invites`, { email: uniqueEmail('gone') })).body;
    await owner.api.delete(`/teams/${teamId}/invites/${other.id}`);
    const withdrawn = await owner.api.post(`/teams/${teamId}/invites/${other.id}/resend`);
    assert.equal(withdrawn.status, 409);
    assert.match(withdrawn.body.error, /withdrawn/);
  });

  it('renews an expired invite only within the seat limit', async () => {
    const owner = await signUpVerified(server.origin, mailbox);
    const teamId = await ownTeam(owner);
    const old = (await owner.api.post(`/teams/${teamId}/invites`, { email: uniqueEmail('old') })).body;
    await server.db.run("UPDATE team_invites SET expires_at = '2000-01-01T00:00:00.000Z' WHERE id = ?", [old.id]);
    await owner.api.post(`/teams/${teamId}/invites`, { email: uniqueEmail('b') });
    await owner.api.post(`/teams/${teamId}/invites`, { email: uniqueEmail('c') });
    assert.deepEqual((await owner.api.get(`/teams/${teamId}`)).body.seats, { used: 3, limit: 3 });

    const full = await owner.api.post(`/teams/${teamId}/invites/${old.id}/resend`);
    assert.equal(full.status, 403);
    assert.match(full.body.error, /Seat limit reached/);

    await root.api.put(`/admin/accounts/${owner.account.id}/seats`, { seatLimit: 4 });
    const renewed = await owner.api.post(`/teams/${teamId}/invites/${old.id}/resend`);
    assert.equal(renewed.status, 200, renewed.text);
    assert.equal(renewed.body.status, 'pending');
    assert.deepEqual((await owner.api.get(`/teams/${teamId}`)).body.seats, { used: 4, limit: 4 });
  });
});
