import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { startMailbox, type Mailbox } from '../../support/mailbox.ts';
import { asSession, managementApi, signUp, uniqueEmail } from '../../support/management.ts';
import { Browser, startOidcProvider, type TestOidcProvider } from '../../support/oidc-provider.ts';

// Signpost's public address; requests to it go to the test server (as through a reverse proxy).
const PUBLIC_URL = 'http://signpost.test';

describe('accounts: sign-in through an OpenID Connect provider (oidc-provider on 127.0.0.1)', () => {
  let server: TestServer;
  let idp: TestOidcProvider;
  let mailbox: Mailbox;

  before(async () => {
    mailbox = await startMailbox();
    idp = await startOidcProvider(`${PUBLIC_URL}/api/v1/auth/oidc/callback`);
    server = await startTestServer({
      env: {
        PUBLIC_URL,
        SMTP_URL: mailbox.url,
        OIDC_ISSUER: idp.issuer,
        OIDC_CLIENT_ID: idp.clientId,
        OIDC_CLIENT_SECRET: idp.clientSecret,
        OIDC_LABEL: 'Test IdP',
      },
    });
  });
  after(async () => {
    await server.close();
    await idp.close();
    await mailbox.close();
  });

  const rewrite = (url: string) => (url.startsWith(PUBLIC_URL) ? server.origin + url.slice(PUBLIC_URL.length) : url);
  /** Runs the whole browser flow; answers the final redirect and the session cookie it set. */
  async function signInThroughProvider(browser = new Browser(), returnTo = '/dashboard') {
    const { response, url } = await browser.open(
      `${server.origin}/api/v1/auth/oidc/start?returnTo=${encodeURIComponent(returnTo)}`,
      {
        rewrite,
        stop: (next) => next.origin === server.origin && !next.pathname.startsWith('/api/'),
      },
    );
    return { response, url, cookie: browser.cookie(server.origin, 'signpost_session') };
  }

  it('describes the provider for a sign-in button', async () => {
    const info = await managementApi(server.origin).get('/auth/oidc');
    assert.deepEqual(info.body, {
      enabled: true,
      preset: 'oidc',
      label: 'Test IdP',
      startUrl: '/api/v1/auth/oidc/start',
    });
  });

  it('redirects with PKCE S256, state and nonce', async () => {
    const start = await fetch(`${server.origin}/api/v1/auth/oidc/start`, { redirect: 'manual' });
    assert.equal(start.status, 302);
    const location = new URL(start.headers.get('location')!);
    assert.equal(location.origin, idp.issuer);
    assert.equal(location.searchParams.get('code_challenge_method'), 'S256');
    assert.ok(location.searchParams.get('code_challenge'));
    assert.ok(location.searchParams.get('state'));
    assert.ok(location.searchParams.get('nonce'));
    assert.equal(location.searchParams.get('redirect_uri'), `${PUBLIC_URL}/api/v1/auth/oidc/callback`);
    assert.match(start.headers.getSetCookie().join('\n'), /signpost_oidc_state=.*HttpOnly/i);
  });

  it('signs up a new account whose provider-verified e-mail counts as verified', async () => {
    const email = uniqueEmail('sso');
    idp.signInAs({ sub: 'user-1', email, emailVerified: true, name: 'Sso User' });
    const { response, url, cookie } = await signInThroughProvider();
    assert.equal(response.status, 302);
    assert.equal(new URL(url).pathname, '/dashboard');
    assert.ok(cookie);
    const me = await asSession(server.origin, `signpost_session=${cookie}`).get('/me');
    assert.equal(me.status, 200);
    assert.equal(me.body.account.email, email);
    assert.equal(me.body.account.verified, true);
    assert.equal(me.body.account.hasPassword, false);
    assert.equal(me.body.account.name, 'Sso User');

    // Signing in again finds the same account through the linked identity.
    const again = await signInThroughProvider();
    const second = await asSession(server.origin, `signpost_session=${again.cookie}`).get('/me');
    assert.equal(second.body.account.id, me.body.account.id);
  });

  it('keeps an unverified provider address unverified, and never lets it join an existing account', async () => {
    const email = uniqueEmail('unverified-sso');
    idp.signInAs({ sub: 'user-2', email, emailVerified: false });
    const { cookie } = await signInThroughProvider();
    const me = await asSession(server.origin, `signpost_session=${cookie}`).get('/me');
    assert.equal(me.body.account.verified, false);
    await mailbox.waitFor((mail) => mail.to.includes(email) && /Verify/.test(mail.subject));

    const owner = await signUp(server.origin);
    idp.signInAs({ sub: 'user-3', email: owner.email, emailVerified: false });
    const refused = await signInThroughProvider();
    assert.equal(refused.response.status, 409);
    assert.equal(refused.cookie, undefined);
  });

  it('takes over an unverified password account with a provider-verified address, dropping its password and sessions', async () => {
    const squatter = await signUp(server.origin);
    const token = (await squatter.api.post('/me/tokens', { name: 'squat' })).body.token;
    idp.signInAs({ sub: 'user-4', email: squatter.email, emailVerified: true });
    const { cookie } = await signInThroughProvider();
    const me = await asSession(server.origin, `signpost_session=${cookie}`).get('/me');
    assert.equal(me.body.account.id, squatter.account.id);
    assert.equal(me.body.account.verified, true);
    assert.equal(me.body.account.hasPassword, false);
    assert.equal((await squatter.api.get('/me')).status, 401);
    assert.equal(
      (await managementApi(server.origin).get('/me', { headers: { authorization: `Bearer ${token}` } })).status,
      401,
    );
    assert.equal(
      (await managementApi(server.origin).post('/auth/sign-in', { email: squatter.email, password: squatter.password }))
        .status,
      401,
    );
  });

  it('refuses a callback without the browser’s state cookie, a replayed state and an open redirect', async () => {
    idp.signInAs({ sub: 'user-5', email: uniqueEmail('csrf'), emailVerified: true });
    const browser = new Browser();
    // Stop at the callback, then replay it from another browser (no state cookie): refused.
    const { url } = await browser.open(`${server.origin}/api/v1/auth/oidc/start`, {
      rewrite,
      stop: (next) => next.pathname.endsWith('/auth/oidc/callback'),
    });
    const stolen = await fetch(url, { redirect: 'manual' });
    assert.equal(stolen.status, 400);
    // The state is used up by that attempt, even for the right browser.
    const replay = await browser.open(url, { rewrite, stop: () => true });
    assert.equal(replay.response.status, 400);

    const open = await fetch(
      `${server.origin}/api/v1/auth/oidc/start?returnTo=${encodeURIComponent('//evil.example/')}`,
      { redirect: 'manual' },
    );
    assert.equal(open.status, 400);
  });
});

describe('accounts: without an identity provider', () => {
  it('reports it as off and answers 404 on its routes', async () => {
    const server = await startTestServer();
    try {
      const info = await managementApi(server.origin).get('/auth/oidc');
      assert.equal(info.body.enabled, false);
      assert.equal((await fetch(`${server.origin}/api/v1/auth/oidc/start`, { redirect: 'manual' })).status, 404);
    } finally {
      await server.close();
    }
  });
});
