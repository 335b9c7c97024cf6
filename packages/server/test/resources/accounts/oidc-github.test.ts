/**
 * The `github` preset against a stand-in for a GitHub Enterprise Server on 127.0.0.1 (GitHub has
 * no OpenID Connect: OAuth 2 authorization code with PKCE, then `/user` and `/user/emails`).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { asSession } from '../../support/management.ts';
import { Browser } from '../../support/oidc-provider.ts';

const PUBLIC_URL = 'http://signpost.test';

interface FakeUser {
  id: number;
  login: string;
  emails: Array<{ email: string; primary: boolean; verified: boolean }>;
}

async function startFakeGitHub(clientId: string, clientSecret: string) {
  let user: FakeUser | undefined;
  const codes = new Map<string, { challenge: string; redirectUri: string; user: FakeUser }>();
  const tokens = new Map<string, FakeUser>();
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url!, 'http://github.local');
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    if (url.pathname === '/login/oauth/authorize') {
      assert.equal(url.searchParams.get('client_id'), clientId);
      assert.equal(url.searchParams.get('code_challenge_method'), 'S256');
      const code = randomBytes(8).toString('hex');
      codes.set(code, {
        challenge: url.searchParams.get('code_challenge')!,
        redirectUri: url.searchParams.get('redirect_uri')!,
        user: user!,
      });
      const back = new URL(url.searchParams.get('redirect_uri')!);
      back.searchParams.set('code', code);
      back.searchParams.set('state', url.searchParams.get('state')!);
      return res.writeHead(302, { location: back.href }).end();
    }
    if (url.pathname === '/login/oauth/access_token' && req.method === 'POST') {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk));
      req.on('end', () => {
        const form = new URLSearchParams(body);
        const grant = codes.get(form.get('code') ?? '');
        codes.delete(form.get('code') ?? '');
        const verifier = form.get('code_verifier') ?? '';
        const ok =
          grant &&
          form.get('client_id') === clientId &&
          form.get('client_secret') === clientSecret &&
          form.get('redirect_uri') === grant.redirectUri &&
          createHash('sha256').update(verifier).digest('base64url') === grant.challenge;
        if (!ok) return json(400, { error: 'bad_verification_code' });
        const token = randomBytes(16).toString('hex');
        tokens.set(token, grant.user);
        json(200, { access_token: token, token_type: 'bearer', scope: 'read:user,user:email' });
      });
      return;
    }
    const bearer = tokens.get((req.headers.authorization ?? '').replace(/^Bearer /i, ''));
    if (!bearer) return json(401, { message: 'Bad credentials' });
    if (url.pathname === '/api/v3/user') return json(200, { id: bearer.id, login: bearer.login, name: null });
    if (url.pathname === '/api/v3/user/emails') return json(200, bearer.emails);
    json(404, { message: 'Not Found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    issuer: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    signInAs: (next: FakeUser) => (user = next),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('accounts: the GitHub preset (against a stand-in GitHub Enterprise Server)', () => {
  let server: TestServer;
  let github: Awaited<ReturnType<typeof startFakeGitHub>>;

  before(async () => {
    github = await startFakeGitHub('gh-client', 'gh-secret');
    server = await startTestServer({
      env: {
        PUBLIC_URL,
        OIDC_PRESET: 'github',
        OIDC_ISSUER: github.issuer,
        OIDC_CLIENT_ID: 'gh-client',
        OIDC_CLIENT_SECRET: 'gh-secret',
      },
    });
  });
  after(async () => {
    await server.close();
    await github.close();
  });

  const signIn = async () => {
    const browser = new Browser();
    const rewrite = (url: string) => (url.startsWith(PUBLIC_URL) ? server.origin + url.slice(PUBLIC_URL.length) : url);
    const { response } = await browser.open(`${server.origin}/api/v1/auth/oidc/start`, {
      rewrite,
      stop: (next) => next.origin === server.origin && !next.pathname.startsWith('/api/'),
    });
    return { response, cookie: browser.cookie(server.origin, 'signpost_session') };
  };

  it('signs in with the primary address, verified when GitHub says so', async () => {
    github.signInAs({
      id: 4242,
      login: 'octo',
      emails: [
        { email: 'old@example.com', primary: false, verified: true },
        { email: 'Octo@Example.com', primary: true, verified: true },
      ],
    });
    const { response, cookie } = await signIn();
    assert.equal(response.status, 302);
    const me = await asSession(server.origin, `signpost_session=${cookie}`).get('/me');
    assert.equal(me.body.account.email, 'octo@example.com');
    assert.equal(me.body.account.verified, true);
    assert.equal(me.body.account.name, 'octo');
  });

  it('keeps an unverified primary address unverified', async () => {
    github.signInAs({
      id: 7,
      login: 'newbie',
      emails: [{ email: 'newbie@example.com', primary: true, verified: false }],
    });
    const { cookie } = await signIn();
    const me = await asSession(server.origin, `signpost_session=${cookie}`).get('/me');
    assert.equal(me.body.account.verified, false);
  });
});
