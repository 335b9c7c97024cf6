import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { startMailbox, type Mailbox } from '../../support/mailbox.ts';
import { managementApi, signIn, signUp, uniqueEmail } from '../../support/management.ts';

const linkIn = (mail: { links: string[] }, path: string) => {
  const link = mail.links.find((url) => url.includes(path));
  assert.ok(link, `a ${path} link in the message`);
  return link;
};

describe('accounts: sign-up, verification and password reset over real SMTP', () => {
  let server: TestServer;
  let mailbox: Mailbox;

  before(async () => {
    mailbox = await startMailbox();
    server = await startTestServer({
      env: { SMTP_URL: mailbox.url, MAIL_FROM: 'Signpost Test <noreply@signpost.test>' },
    });
  });
  after(async () => {
    await server.close();
    await mailbox.close();
  });

  it('sends a verification link that verifies the address once and expires', async () => {
    const user = await signUp(server.origin);
    assert.equal(user.account.verified, false);
    assert.equal((await user.api.get('/me')).body.account.verified, false);

    const mail = await mailbox.nextTo(user.email);
    assert.match(mail.from, /noreply@signpost\.test/);
    assert.match(mail.subject, /Verify/);
    // The link lands on the dashboard's page, which confirms the address through the API.
    const link = new URL(linkIn(mail, '/app/verify-email?token='));
    assert.equal(link.pathname, '/app/verify-email');
    const page = await fetch(server.origin + link.pathname + link.search);
    assert.match(page.headers.get('content-type') ?? '', /text\/html/);
    const target = `${server.origin}/api/v1/auth/verify-email?token=${link.searchParams.get('token')}`;
    const opened = await fetch(target);
    assert.equal(opened.status, 200);
    assert.deepEqual(await opened.json(), { verified: true, email: user.email });
    assert.equal((await user.api.get('/me')).body.account.verified, true);

    const again = await fetch(target);
    assert.equal(again.status, 400);
    assert.deepEqual(await again.json(), { error: 'This link has already been used', code: 'BadRequest' });

    const browser = await fetch(target, { headers: { accept: 'text/html,application/xhtml+xml' } });
    assert.equal(browser.status, 400);
    assert.match(browser.headers.get('content-type') ?? '', /text\/html/);

    const resend = await user.api.post('/me/verification-email');
    assert.equal(resend.status, 409);
  });

  it('refuses an expired verification link', async () => {
    const user = await signUp(server.origin);
    const mail = await mailbox.nextTo(user.email);
    await server.db.run("UPDATE account_links SET expires_at = '2000-01-01T00:00:00.000Z' WHERE account_id = ?", [
      user.account.id,
    ]);
    const url = new URL(linkIn(mail, 'verify-email'));
    const opened = await managementApi(server.origin).get('/auth/verify-email', {
      query: { token: url.searchParams.get('token')! },
    });
    assert.equal(opened.status, 400);
    assert.equal(opened.body.error, 'This link has expired; ask for a new one');
    assert.equal((await user.api.get('/me')).body.account.verified, false);
  });

  it('resends on request, retires the earlier link and limits resends to 3 an hour', async () => {
    const user = await signUp(server.origin);
    const first = await mailbox.nextTo(user.email, 0);
    const resent = await user.api.post('/me/verification-email');
    assert.equal(resent.status, 202);
    const second = await mailbox.nextTo(user.email, 1);
    const token = (mail: typeof first) => new URL(linkIn(mail, 'verify-email')).searchParams.get('token')!;
    assert.notEqual(token(first), token(second));
    const api = managementApi(server.origin);
    assert.equal((await api.get('/auth/verify-email', { query: { token: token(first) } })).status, 400);

    assert.equal((await user.api.post('/me/verification-email')).status, 202);
    assert.equal((await user.api.post('/me/verification-email')).status, 202);
    const limited = await user.api.post('/me/verification-email');
    assert.equal(limited.status, 429);
    assert.ok(Number(limited.headers.get('retry-after')) > 0);

    const verified = await api.get('/auth/verify-email', {
      query: { token: token(await mailbox.nextTo(user.email, 3)) },
    });
    assert.equal(verified.status, 200);
  });

  it('signs in and out; wrong passwords and unknown addresses get the same 401', async () => {
    const user = await signUp(server.origin);
    const api = managementApi(server.origin);
    const wrong = await api.post('/auth/sign-in', { email: user.email, password: 'not the password' });
    const unknown = await api.post('/auth/sign-in', { email: uniqueEmail('nobody'), password: 'not the password' });
    assert.equal(wrong.status, 401);
    assert.deepEqual(wrong.body, unknown.body);

    const again = await signIn(server.origin, user.email.toUpperCase(), user.password);
    assert.equal(again.account.id, user.account.id);
    assert.equal((await again.api.post('/auth/sign-out')).status, 204);
    assert.equal((await again.api.get('/me')).status, 401);
    // The other session is untouched.
    assert.equal((await user.api.get('/me')).status, 200);
  });

  it('makes no second account for the same address, in any case, and answers as for a new one', async () => {
    const user = await signUp(server.origin);
    const twice = await managementApi(server.origin).post('/auth/sign-up', {
      email: user.email.toUpperCase(),
      password: 'another long password',
    });
    assert.equal(twice.status, 202);
    assert.equal(twice.headers.get('set-cookie'), null);
    assert.equal(
      (
        await managementApi(server.origin).post('/auth/sign-in', {
          email: user.email,
          password: 'another long password',
        })
      ).status,
      401,
    );
    assert.equal((await signIn(server.origin, user.email, user.password)).account.id, user.account.id);
  });

  it('validates sign-up input', async () => {
    const response = await managementApi(server.origin).post('/auth/sign-up', {
      email: 'not-an-address',
      password: 'short',
    });
    assert.equal(response.status, 400);
    assert.deepEqual(response.body.details.map((d: { field: string }) => d.field).sort(), ['email', 'password']);
  });

  it('protects cookie-authenticated writes against CSRF', async () => {
    const user = await signUp(server.origin);
    const bare = managementApi(server.origin).withHeaders({ cookie: user.cookie });
    const noHeader = await bare.post('/auth/sign-out');
    assert.equal(noHeader.status, 403);
    assert.match(noHeader.body.error, /X-Requested-With/);
    const crossSite = await user.api.post('/auth/sign-out', undefined, { headers: { origin: 'https://evil.example' } });
    assert.equal(crossSite.status, 403);
    // Reads need no header; the session still works.
    assert.equal((await bare.get('/me')).status, 200);
    const sameOrigin = await user.api.patch('/me', { name: 'Renamed' }, { headers: { origin: server.origin } });
    assert.equal(sameOrigin.status, 200);
    assert.equal(sameOrigin.body.account.name, 'Renamed');
  });

  it('resets a password by e-mail: single use, expiring, signs out every session', async () => {
    const user = await signUp(server.origin);
    const other = await signIn(server.origin, user.email, user.password);
    const api = managementApi(server.origin);

    const unknown = await api.post('/auth/password-reset', { email: uniqueEmail('ghost') });
    assert.equal(unknown.status, 202);
    const requested = await api.post('/auth/password-reset', { email: user.email });
    assert.equal(requested.status, 202);
    assert.deepEqual(requested.body, unknown.body);

    const mail = await mailbox.waitFor((m) => m.to.includes(user.email) && /Reset/.test(m.subject));
    // The link lands on the dashboard's page, which posts the new password to the API.
    const link = new URL(linkIn(mail, '/app/reset-password?token='));
    // The server's own form (the target of earlier e-mails) still answers for the same token.
    const page = await fetch(`${server.origin}/api/v1/auth/reset-password${link.search}`);
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /text\/html/);
    assert.match(await page.text(), /<form/);
    const token = link.searchParams.get('token')!;

    const tooShort = await api.post('/auth/reset-password', { token, password: 'short' });
    assert.equal(tooShort.status, 400);
    const reset = await api.post('/auth/reset-password', { token, password: 'a brand new password' });
    assert.equal(reset.status, 200);
    const reused = await api.post('/auth/reset-password', { token, password: 'yet another password' });
    assert.equal(reused.status, 400);
    assert.equal(reused.body.error, 'This link has already been used');

    assert.equal((await user.api.get('/me')).status, 401);
    assert.equal((await other.api.get('/me')).status, 401);
    assert.equal((await api.post('/auth/sign-in', { email: user.email, password: user.password })).status, 401);
    const fresh = await signIn(server.origin, user.email, 'a brand new password');
    // The reset link proved the address.
    assert.equal(fresh.account.verified, true);

    await api.post('/auth/password-reset', { email: user.email });
    const second = await mailbox.waitFor((m) => m.to.includes(user.email) && /Reset/.test(m.subject) && m !== mail);
    await server.db.run(
      "UPDATE account_links SET expires_at = '2000-01-01T00:00:00.000Z' WHERE account_id = ? AND used_at IS NULL",
      [user.account.id],
    );
    const expired = await api.post('/auth/reset-password', {
      token: new URL(linkIn(second, 'reset-password')).searchParams.get('token')!,
      password: 'too late for this one',
    });
    assert.equal(expired.status, 400);
    assert.match(expired.body.error, /expired/);
  });

  it('changes the password with the current one and signs out the other sessions', async () => {
    const user = await signUp(server.origin);
    const other = await signIn(server.origin, user.email, user.password);
    const wrong = await user.api.post('/me/password', {
      currentPassword: 'not it at all',
      newPassword: 'my next password',
    });
    assert.equal(wrong.status, 403);
    const changed = await user.api.post('/me/password', {
      currentPassword: user.password,
      newPassword: 'my next password',
    });
    assert.equal(changed.status, 200);
    assert.equal((await user.api.get('/me')).status, 200, 'this session stays');
    assert.equal((await other.api.get('/me')).status, 401, 'the others end');
    await signIn(server.origin, user.email, 'my next password');
  });

  it('slows repeated wrong passwords from one client for one address', async () => {
    const email = uniqueEmail('brute');
    const api = managementApi(server.origin);
    for (let i = 0; i < 6; i++)
      assert.equal((await api.post('/auth/sign-in', { email, password: `guess${i}` })).status, 401);
    // Refused at once, or after one more failure if the 1 s delay ran out on a slow machine.
    let limited = await api.post('/auth/sign-in', { email, password: 'guess' });
    if (limited.status === 401) limited = await api.post('/auth/sign-in', { email, password: 'guess' });
    assert.equal(limited.status, 429);
    assert.ok(Number(limited.headers.get('retry-after')) >= 1);
  });
});

describe('accounts: development mail transport', () => {
  it('writes each message as an .eml file under DATA_DIR/mail when SMTP_URL is not set', async () => {
    const server = await startTestServer();
    try {
      const response = await managementApi(server.origin).post('/auth/sign-up', {
        email: 'dev@example.com',
        password: 'a long enough password',
      });
      assert.equal(response.status, 202);
      const dir = join(server.database.dataDir, 'mail');
      assert.ok(existsSync(dir));
      const files = readdirSync(dir).filter((name) => name.endsWith('.eml'));
      assert.equal(files.length, 1);
      const parsed = await simpleParser(readFileSync(join(dir, files[0]!)));
      assert.equal(parsed.subject, 'Verify your e-mail address for Signpost');
      assert.match(parsed.text ?? '', /\/app\/verify-email\?token=\w+/);
      assert.match(JSON.stringify(parsed.to), /dev@example\.com/);
    } finally {
      await server.close();
    }
  });
});
