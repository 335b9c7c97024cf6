/**
 * Teams in Chromium against a real server: the teams list and a new team; an owner invites a second
 * account by e-mail, which opens the e-mailed link, creates its account from there and accepts; the
 * owner changes its role, resends and withdraws a pending invite; and the seat rule of the spec:
 * a new address refused at the limit, another account refused an invite that needs an extra seat,
 * an unverified address refused until it is verified, then accepted without a new seat.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { type DashboardEnv, expectAccessible, startDashboardEnv, watchedPage } from './support.ts';

const PASSWORD = 'orchard lamplight river 64';

describe('dashboard teams and invites', () => {
  let env: DashboardEnv;
  let root: string;
  before(async () => {
    env = await startDashboardEnv({ DEFAULT_TEAM_SEATS: '3' });
    // The first account is the instance administrator, who sets seat limits.
    root = (await signUp(`root-${Date.now()}@example.com`, 'Root')).cookie;
  });
  after(async () => env?.close());

  let counter = 0;
  const address = (label: string) => `${label}-${Date.now()}-${counter++}@example.com`;

  const call = async (cookie: string, method: string, path: string, body?: unknown) => {
    const response = await fetch(`${env.origin}/api/v1${path}`, {
      method,
      headers: {
        cookie,
        'x-requested-with': 'signpost-tests',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: response.status === 204 ? null : await response.json() };
  };
  const signIn = async (email: string) => {
    const response = await fetch(`${env.origin}/api/v1/auth/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    assert.equal(response.status, 200);
    const cookie = response.headers
      .getSetCookie()
      .find((line) => line.startsWith('signpost_session='))!
      .split(';')[0]!;
    return { cookie, id: ((await response.json()) as { account: { id: string } }).account.id };
  };
  async function signUp(email: string, name: string) {
    const response = await fetch(`${env.origin}/api/v1/auth/sign-up`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: PASSWORD, name }),
    });
    assert.equal(response.status, 202);
    return signIn(email);
  }
  const verifyLink = async (email: string) => {
    const mail = await env.mailbox.waitFor((m) => m.to.includes(email) && /Verify/.test(m.subject));
    return mail.links.find((href) => href.includes('/app/verify-email?token='))!;
  };
  const signUpVerified = async (email: string, name: string) => {
    const user = await signUp(email, name);
    const link = new URL(await verifyLink(email));
    assert.equal((await fetch(`${env.origin}/api/v1/auth/verify-email${link.search}`)).status, 200);
    return user;
  };
  const inviteLinks = (email: string) =>
    env.mailbox.messages
      .filter((m) => m.to.includes(email) && /invited/.test(m.subject))
      .map((m) => m.links.find((href) => href.includes('/app/invites/'))!);
  const inviteLink = async (email: string, count = 0) => {
    await env.mailbox.waitFor(() => inviteLinks(email).length > count);
    return inviteLinks(email)[count]!;
  };
  const signInUi = async (page: Page, email: string) => {
    await page.getByLabel('E-mail address').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
  };
  const ownTeamId = async (cookie: string) =>
    ((await call(cookie, 'GET', '/teams')).body.teams as { id: string; role: string }[]).find(
      (team) => team.role === 'owner',
    )!.id;

  const contexts: BrowserContext[] = [];
  after(async () => {
    for (const context of contexts) await context.close().catch(() => {});
  });
  const newPage = async () => {
    const { page, problems } = await watchedPage(env.browser);
    contexts.push(page.context());
    return { page, problems };
  };

  it('invites by e-mail; the invited account signs up from the link and accepts; roles, resend, withdraw', async () => {
    const ownerEmail = address('olive');
    await signUpVerified(ownerEmail, 'Olive Owner');
    const owner = await signIn(ownerEmail);
    const { page, problems } = await newPage();

    await page.goto(`${env.origin}/app/teams`);
    await page.waitForURL(/sign-in\?next=%2Fteams$/);
    await signInUi(page, ownerEmail);
    await page.waitForURL(/\/app\/teams$/);
    await page.getByRole('heading', { level: 1, name: 'Teams' }).waitFor();
    const own = page.getByRole('row').filter({ hasText: 'Olive Owner' });
    await own.waitFor();
    assert.match((await own.textContent()) ?? '', /Owner.*1 of 3/);
    await expectAccessible(page, 'teams');

    await page.getByLabel('Team name').fill('Design crew');
    await page.getByRole('button', { name: 'Create team' }).click();
    await page.getByRole('heading', { level: 1, name: 'Design crew' }).waitFor();
    await page.getByText('1 of 3 seats used').waitFor();
    await expectAccessible(page, 'team, owner');
    const teamId = new URL(page.url()).pathname.split('/').pop()!;

    // Invite by e-mail; the pending invitation takes a seat.
    const guestEmail = address('gus');
    await page.getByLabel('E-mail address to invite').fill(guestEmail);
    await page.getByLabel('Role', { exact: true }).selectOption('member');
    await page.getByRole('button', { name: 'Send invitation' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Invitation sent to ${guestEmail}` })
      .waitFor();
    await page.getByRole('row').filter({ hasText: guestEmail }).waitFor();
    await page.getByText('2 of 3 seats used').waitFor();
    await expectAccessible(page, 'team with a pending invitation');

    // The invited person opens the e-mailed link in their own browser.
    const link = await inviteLink(guestEmail);
    assert.equal(new URL(link).origin, env.origin);
    const guest = await newPage();
    await guest.page.goto(link);
    await guest.page.getByRole('heading', { level: 1, name: 'Join Design crew' }).waitFor();
    const facts = (await guest.page.locator('dl').textContent()) ?? '';
    assert.match(facts, /Member/);
    assert.match(facts, /Olive Owner/);
    assert.match(facts, new RegExp(guestEmail));
    await expectAccessible(guest.page, 'invitation, signed out');
    await guest.page.getByRole('link', { name: 'Create an account' }).click();
    await guest.page.waitForURL(/\/app\/sign-up\?next=/);
    await guest.page.getByLabel('Name').fill('Gus Guest');
    await guest.page.getByLabel('E-mail address').fill(guestEmail);
    await guest.page.getByLabel('Password').fill(PASSWORD);
    await guest.page.getByRole('button', { name: 'Create account' }).click();
    await guest.page.waitForURL(link);
    await guest.page.getByText(`You are signed in as ${guestEmail}`).waitFor();
    await expectAccessible(guest.page, 'invitation, signed in');
    await guest.page.getByRole('button', { name: 'Accept invitation' }).click();
    await guest.page.getByText('You joined Design crew as member.').waitFor();
    await expectAccessible(guest.page, 'invitation accepted');
    await guest.page.getByRole('link', { name: 'Open the team' }).click();
    await guest.page.getByRole('heading', { level: 1, name: 'Design crew' }).waitFor();
    await guest.page.getByText('Your role: Member').waitFor();
    // A member sees no invite form, no pending invitations, no role controls.
    assert.equal(await guest.page.getByRole('heading', { name: 'Invite someone' }).count(), 0);
    assert.equal(await guest.page.getByRole('heading', { name: 'Pending invitations' }).count(), 0);
    assert.equal(await guest.page.getByRole('combobox').count(), 0);
    await guest.page.getByRole('button', { name: 'Leave team' }).waitFor();
    await expectAccessible(guest.page, 'team, member');

    // The owner sees the new member and makes them an admin.
    await page.reload();
    const row = page.getByRole('row').filter({ hasText: 'Gus Guest' });
    await row.waitFor();
    await page.getByText('No pending invitations.').waitFor();
    await row.getByLabel('Role of Gus Guest').selectOption('admin');
    await row.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    const members = (await call(owner.cookie, 'GET', `/teams/${teamId}/members`)).body.members as {
      email: string;
      role: string;
    }[];
    assert.equal(members.find((member) => member.email === guestEmail)?.role, 'admin');

    // Resend a pending invitation (a new link), then withdraw it.
    const pendingEmail = address('pending');
    await page.getByLabel('E-mail address to invite').fill(pendingEmail);
    await page.getByRole('button', { name: 'Send invitation' }).click();
    const pending = page.getByRole('row').filter({ hasText: pendingEmail });
    await pending.waitFor();
    const first = await inviteLink(pendingEmail, 0);
    await pending.getByRole('button', { name: `Resend the invitation to ${pendingEmail}` }).click();
    await pending.getByRole('status').filter({ hasText: 'Sent again' }).waitFor();
    const second = await inviteLink(pendingEmail, 1);
    assert.notEqual(second, first);
    await expectAccessible(page, 'team, invitation resent');
    await page.emulateMedia({ colorScheme: 'dark' });
    await expectAccessible(page, 'team, dark');
    await page.emulateMedia({ colorScheme: 'light' });

    await pending.getByRole('button', { name: 'Withdraw' }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.getByRole('heading', { name: `Withdraw the invitation to ${pendingEmail}?` }).waitFor();
    await expectAccessible(page, 'withdraw dialog');
    await dialog.getByRole('button', { name: 'Withdraw invitation' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText('No pending invitations.').waitFor();
    const invites = (await call(owner.cookie, 'GET', `/teams/${teamId}/invites`)).body.invites as {
      email: string;
      status: string;
    }[];
    assert.equal(invites.find((invite) => invite.email === pendingEmail)?.status, 'revoked');

    // The withdrawn link says so.
    await guest.page.goto(second);
    await guest.page.getByRole('alert').filter({ hasText: 'withdrawn' }).waitFor();
    assert.deepEqual(problems, []);
    assert.deepEqual(guest.problems, []);
  });

  it('applies the seat rule: refusals in words, and a verified invited address accepted at the limit', async () => {
    const ownerEmail = address('sam');
    await signUpVerified(ownerEmail, 'Sam Seats');
    const owner = await signIn(ownerEmail);
    const teamId = await ownTeamId(owner.cookie);
    assert.equal(
      (await call(root, 'PUT', `/admin/accounts/${owner.id}/seats`, { seatLimit: 2 })).status,
      200,
      'the administrator sets the limit',
    );

    const { page } = await newPage();
    await page.goto(`${env.origin}/app/teams/${teamId}`);
    await signInUi(page, ownerEmail);
    await page.getByText('1 of 2 seats used').waitFor();
    const invitedEmail = address('ivy');
    await page.getByLabel('E-mail address to invite').fill(invitedEmail);
    await page.getByRole('button', { name: 'Send invitation' }).click();
    await page.getByText('2 of 2 seats used').waitFor();
    await page.getByText('Limit reached').waitFor();

    // A new address at the limit: refused in place, the address kept.
    const extra = address('extra');
    await page.getByLabel('E-mail address to invite').fill(extra);
    await page.getByRole('button', { name: 'Send invitation' }).click();
    await page.getByRole('alert').filter({ hasText: 'Seat limit reached (2 of 2)' }).waitFor();
    assert.equal(await page.getByLabel('E-mail address to invite').inputValue(), extra);
    await expectAccessible(page, 'team, seat limit refusal');

    // Someone else opening Ivy's link needs an extra seat: refused, with the reason.
    const link = await inviteLink(invitedEmail);
    const otherEmail = address('otto');
    await signUpVerified(otherEmail, 'Otto Other');
    const other = await newPage();
    await other.page.goto(link);
    await other.page.getByRole('link', { name: 'Sign in to accept' }).click();
    await other.page.waitForURL(/\/app\/sign-in\?next=%2Finvites%2F/);
    await signInUi(other.page, otherEmail);
    await other.page.waitForURL(link);
    await other.page.getByText(`This invitation was sent to ${invitedEmail}`).waitFor();
    await other.page.getByRole('button', { name: 'Accept invitation' }).click();
    await other.page.getByRole('alert').filter({ hasText: 'needs an extra seat' }).waitFor();
    await other.page.getByText('The owner has no free seat').waitFor();
    await expectAccessible(other.page, 'invitation, other account refused');

    // Ivy, with her address typed but not verified: not trusted at the limit.
    await signUp(invitedEmail, 'Ivy Invited');
    const ivy = await newPage();
    await ivy.page.goto(link);
    await ivy.page.getByRole('link', { name: 'Sign in to accept' }).click();
    await signInUi(ivy.page, invitedEmail);
    await ivy.page.waitForURL(link);
    await ivy.page.getByText('Your address is not verified').waitFor();
    await ivy.page.getByRole('button', { name: 'Accept invitation' }).click();
    await ivy.page.getByRole('alert').filter({ hasText: 'verify your e-mail address, then accept again' }).waitFor();
    await expectAccessible(ivy.page, 'invitation, unverified refused');

    // Verified, her address already counts (her pending invitation): accepted without a new seat.
    await ivy.page.goto(await verifyLink(invitedEmail));
    await ivy.page.getByText(`${invitedEmail} is verified.`).waitFor();
    await ivy.page.goto(link);
    await ivy.page.getByRole('button', { name: 'Accept invitation' }).click();
    await ivy.page.getByText(/You joined .* as member\./).waitFor();
    assert.deepEqual((await call(owner.cookie, 'GET', `/teams/${teamId}`)).body.seats, { used: 2, limit: 2 });

    // Used, and expired, links say so.
    await other.page.goto(link);
    await other.page.getByRole('alert').filter({ hasText: 'already been accepted' }).waitFor();
    await call(root, 'PUT', `/admin/accounts/${owner.id}/seats`, { seatLimit: 5 });
    const lateEmail = address('late');
    assert.equal((await call(owner.cookie, 'POST', `/teams/${teamId}/invites`, { email: lateEmail })).status, 201);
    await env.server.db.run(
      "UPDATE team_invites SET expires_at = '2000-01-01T00:00:00.000Z' WHERE team_id = ? AND email = ?",
      [teamId, lateEmail],
    );
    await other.page.goto(await inviteLink(lateEmail));
    await other.page.getByRole('alert').filter({ hasText: 'expired' }).waitFor();
    await expectAccessible(other.page, 'invitation, expired');
    await other.page.goto(`${env.origin}/app/invites/not-a-real-token`);
    await other.page.getByRole('alert').filter({ hasText: 'not valid' }).waitFor();
    await expectAccessible(other.page, 'invitation, unknown link');
    // A team the account is not in: said in words, under the page's heading.
    await other.page.goto(`${env.origin}/app/teams/${teamId}`);
    await other.page.getByRole('alert').filter({ hasText: 'not one of its members' }).waitFor();
    assert.equal(await other.page.getByRole('heading', { level: 1 }).count(), 1);

    // The owner sees the expired invitation and may send it again.
    await page.reload();
    const late = page.getByRole('row').filter({ hasText: lateEmail });
    await late.getByText('Expired').waitFor();
    await late.getByRole('button', { name: `Resend the invitation to ${lateEmail}` }).click();
    await late.getByRole('status').filter({ hasText: 'Sent again' }).waitFor();
    assert.equal(await late.getByText('Expired').count(), 0);
  });
});
