/**
 * The authorization server's protocol rules, with raw HTTP requests: one-time codes, PKCE,
 * resource indicators, redirect URI and client checks, registration, consent-form safety.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createProject } from '../../src/resources/projects/index.ts';
import { newId } from '../../src/kernel/ids.ts';
import { postMcp } from '../support/mcp.ts';
import { Browser, CALLBACK } from '../support/oauth.ts';
import { FakeAccounts, startOAuthTestServer, type OAuthTestServer } from '../support/fake-accounts.ts';

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

const form = (origin: string, path: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(origin + path, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
  });

describe('OAuth protocol checks', () => {
  let server: OAuthTestServer;
  const accounts = new FakeAccounts();
  let projectA: string;
  let clientId: string;
  let browser: Browser;
  const challenge = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');
  const verifier = `${'v'.repeat(43)}abcdefghij`;

  const authorizeUrl = (params: Record<string, string | undefined>) => {
    const url = new URL(`${server.origin}/oauth/authorize`);
    const all: Record<string, string | undefined> = {
      response_type: 'code',
      client_id: clientId,
      redirect_uri: CALLBACK,
      code_challenge: challenge(verifier),
      code_challenge_method: 'S256',
      state: 'xyz',
      resource: `${server.origin}/mcp`,
      ...params,
    };
    for (const [name, value] of Object.entries(all)) if (value !== undefined) url.searchParams.set(name, value);
    return url.toString();
  };

  /** Signs in, consents to write on project A, returns the code. */
  async function codeFor(params: Record<string, string | undefined> = {}) {
    let page = await browser.open(authorizeUrl(params));
    if (page.url.includes('/oauth/sign-in'))
      page = await browser.submit(page, { email: 'ann@example.com', password: 'correct horse' });
    if (page.redirectedTo) return page.redirectedTo;
    page = await browser.submit(page, { project: projectA, access: 'write', decision: 'allow' });
    return page.redirectedTo!;
  }

  const exchange = (code: string, extra: Record<string, string> = {}) =>
    form(server.origin, '/oauth/token', {
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
      redirect_uri: CALLBACK,
      client_id: clientId,
      resource: `${server.origin}/mcp`,
      ...extra,
    });

  before(async () => {
    server = await startOAuthTestServer(accounts);
    projectA = newId('proj');
    await createProject(server.db, { id: projectA, name: 'Alpha', slug: projectA });
    accounts.add('ann@example.com', 'correct horse', [{ id: projectA, name: 'Alpha', canWrite: true }]);
    const registered = await fetch(`${server.origin}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: 'Raw client',
        redirect_uris: [CALLBACK],
        token_endpoint_auth_method: 'none',
      }),
    });
    assert.equal(registered.status, 201);
    const info = (await registered.json()) as any;
    assert.equal(info.client_secret, undefined);
    assert.deepEqual(info.grant_types, ['authorization_code', 'refresh_token']);
    clientId = info.client_id;
    browser = new Browser(server.origin);
  });
  after(() => server.close());

  it('exchanges a code once; a second use is refused and revokes what the first issued', async () => {
    const code = (await codeFor()).searchParams.get('code')!;
    const first = await exchange(code);
    assert.equal(first.status, 200);
    const tokens = (await first.json()) as any;
    const second = await exchange(code);
    assert.equal(second.status, 400);
    assert.equal(((await second.json()) as any).error, 'invalid_grant');
    assert.equal(
      (await postMcp(server.origin, initialize, { authorization: `Bearer ${tokens.access_token}` })).status,
      401,
    );
  });

  it('requires the PKCE verifier that matches the challenge', async () => {
    const code = (await codeFor()).searchParams.get('code')!;
    const wrong = await exchange(code, { code_verifier: 'w'.repeat(50) });
    assert.equal(wrong.status, 400);
    assert.match(((await wrong.json()) as any).error_description, /code_verifier/);
    const missing = await form(server.origin, '/oauth/token', {
      grant_type: 'authorization_code',
      code,
      client_id: clientId,
    });
    assert.equal(((await missing.json()) as any).error, 'invalid_request');
  });

  it('checks the resource against the token audience', async () => {
    const code = (await codeFor()).searchParams.get('code')!;
    const other = await exchange(code, { resource: 'https://elsewhere.example/mcp' });
    assert.equal(other.status, 400);
    assert.equal(((await other.json()) as any).error, 'invalid_target');

    const redirect = await codeFor({ resource: 'https://elsewhere.example/mcp' });
    assert.equal(redirect.searchParams.get('error'), 'invalid_target');
    assert.equal(redirect.searchParams.get('state'), 'xyz');

    // A token whose audience is another resource is not accepted at /mcp.
    const good = (await (await exchange((await codeFor()).searchParams.get('code')!)).json()) as any;
    await server.db.run("UPDATE oauth_grants SET resource = 'https://elsewhere.example/mcp'");
    try {
      assert.equal(
        (await postMcp(server.origin, initialize, { authorization: `Bearer ${good.access_token}` })).status,
        401,
      );
    } finally {
      await server.db.run('UPDATE oauth_grants SET resource = ?', [`${server.origin}/mcp`]);
    }
  });

  it('refuses requests without S256 PKCE or with a bad response type, back at the client', async () => {
    for (const [params, error] of [
      [{ code_challenge_method: 'plain' }, 'invalid_request'],
      [{ code_challenge: undefined }, 'invalid_request'],
      [{ response_type: 'token' }, 'unsupported_response_type'],
    ] as const) {
      const back = await codeFor(params);
      assert.equal(back.searchParams.get('error'), error, JSON.stringify(params));
    }
  });

  it('never redirects to an unknown client or an unregistered redirect URI', async () => {
    const unknown = await browser.open(authorizeUrl({ client_id: 'client_nope' }));
    assert.equal(unknown.status, 400);
    assert.match(unknown.html, /Unknown client/);
    const elsewhere = await browser.open(authorizeUrl({ redirect_uri: 'https://attacker.example/cb' }));
    assert.equal(elsewhere.status, 400);
    assert.equal(elsewhere.redirectedTo, undefined);
  });

  it('binds the code to its client and redirect URI', async () => {
    const code = (await codeFor()).searchParams.get('code')!;
    const otherRedirect = await exchange(code, { redirect_uri: 'http://127.0.0.1:1/other' });
    assert.equal(((await otherRedirect.json()) as any).error, 'invalid_grant');
    const code2 = (await codeFor()).searchParams.get('code')!;
    const unknownClient = await exchange(code2, { client_id: 'client_nope' });
    assert.equal(unknownClient.status, 401);
    assert.equal(((await unknownClient.json()) as any).error, 'invalid_client');
  });

  it('authenticates confidential clients by their secret (basic and post)', async () => {
    const registered = (await (
      await fetch(`${server.origin}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ client_name: 'Confidential', redirect_uris: [CALLBACK] }),
      })
    ).json()) as any;
    assert.equal(registered.token_endpoint_auth_method, 'client_secret_basic');
    assert.match(registered.client_secret, /^sp_cs_/);
    const stored = await server.db.get<{ secret_hash: string }>('SELECT secret_hash FROM oauth_clients WHERE id = ?', [
      registered.client_id,
    ]);
    assert.notEqual(stored!.secret_hash, registered.client_secret);

    const saved = clientId;
    clientId = registered.client_id;
    try {
      const code = (await codeFor()).searchParams.get('code')!;
      const noSecret = await exchange(code);
      assert.equal(noSecret.status, 401);
      const basic = Buffer.from(`${registered.client_id}:${registered.client_secret}`).toString('base64');
      const code2 = (await codeFor()).searchParams.get('code')!;
      const ok = await form(
        server.origin,
        '/oauth/token',
        { grant_type: 'authorization_code', code: code2, code_verifier: verifier, redirect_uri: CALLBACK },
        { authorization: `Basic ${basic}` },
      );
      assert.equal(ok.status, 200);
      const code3 = (await codeFor()).searchParams.get('code')!;
      const viaPost = await exchange(code3, { client_secret: registered.client_secret });
      assert.equal(viaPost.status, 200);
    } finally {
      clientId = saved;
    }
  });

  it('validates registrations', async () => {
    const register = (body: unknown) =>
      fetch(`${server.origin}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const plainHttp = await register({ redirect_uris: ['http://evil.example/cb'] });
    assert.equal(plainHttp.status, 400);
    assert.equal(((await plainHttp.json()) as any).error, 'invalid_redirect_uri');
    const none = await register({ redirect_uris: [] });
    assert.equal(((await none.json()) as any).error, 'invalid_redirect_uri');
    const implicit = await register({ redirect_uris: [CALLBACK], grant_types: ['implicit'] });
    assert.equal(((await implicit.json()) as any).error, 'invalid_client_metadata');
    const native = await register({
      redirect_uris: ['cursor://anysphere.cursor-mcp/oauth/callback'],
      token_endpoint_auth_method: 'none',
    });
    assert.equal(native.status, 201);
  });

  it('rejects consent forms from other sites and stale or foreign requests', async () => {
    let page = await browser.open(authorizeUrl({}));
    const handle = /name="request" value="([^"]+)"/.exec(page.html)![1]!;
    const crossSite = await fetch(`${server.origin}/oauth/authorize`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://attacker.example', cookie: '' },
      body: new URLSearchParams({ request: handle, project: projectA, access: 'write', decision: 'allow' }).toString(),
    });
    assert.equal(crossSite.status, 403);
    // Without Ann's session the request is not hers to answer.
    const stranger = await form(server.origin, '/oauth/authorize', {
      request: handle,
      project: projectA,
      access: 'write',
      decision: 'allow',
    });
    assert.equal(stranger.status, 403);
    page = await browser.submit(page, { project: projectA, access: 'write', decision: 'allow' });
    assert.ok(page.redirectedTo?.searchParams.get('code'));
    const replay = await browser.open('/oauth/authorize', {
      method: 'POST',
      form: { request: handle, project: projectA, access: 'write', decision: 'allow' },
    });
    assert.equal(replay.status, 400);
    assert.match(replay.html, /expired or was already answered/);
  });

  it('renders the consent page safely: no framing, no caching, names escaped', async () => {
    const response = await fetch(authorizeUrl({}), { headers: { cookie: '' }, redirect: 'manual' });
    assert.equal(response.status, 302, 'not signed in: off to sign-in');
    assert.match(response.headers.get('location')!, /^\/oauth\/sign-in\?return_to=/);
    const registered = (await (
      await fetch(`${server.origin}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          client_name: '<script>alert(1)</script>',
          redirect_uris: [CALLBACK],
          token_endpoint_auth_method: 'none',
        }),
      })
    ).json()) as any;
    const saved = clientId;
    clientId = registered.client_id;
    try {
      const page = await browser.open(authorizeUrl({}));
      assert.equal(page.status, 200);
      assert.ok(!page.html.includes('<script>'));
      assert.ok(page.html.includes('&lt;script&gt;'));
      const headers = (await fetch(authorizeUrl({}), { headers: { cookie: browser.cookieHeader() } })).headers;
      assert.equal(headers.get('x-frame-options'), 'DENY');
      assert.equal(headers.get('cache-control'), 'no-store');
      assert.match(headers.get('content-security-policy')!, /frame-ancestors 'none'/);
    } finally {
      clientId = saved;
    }
  });

  it('shows the sign-in page again on a wrong password', async () => {
    const fresh = new Browser(server.origin);
    const page = await fresh.open(authorizeUrl({}));
    const wrong = await fresh.submit(page, { email: 'ann@example.com', password: 'nope' });
    assert.equal(wrong.status, 401);
    assert.match(wrong.html, /Wrong e-mail address or password/);
  });
});
