/**
 * The CSRF rule for writes a browser sends with the session cookie, on every door that takes
 * them: the OAuth sign-in form, the OAuth consent form and the management API. A present Origin
 * must be this server's; `Origin: null` passes only with `Sec-Fetch-Site: same-origin` (a
 * same-origin post from a page with a `no-referrer` policy), never from another site.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { startMcpTestServer } from '../support/mcp.ts';
import { asSession, signIn, signUp, type SignedIn } from '../support/management.ts';
import { CALLBACK } from '../support/oauth.ts';
import type { TestServer } from '../support/server.ts';

/** Browser-set headers of one request; `undefined` leaves a header out. */
interface Sent {
  origin?: string;
  site?: string;
}

const EVIL = 'https://evil.example';
/** Each row: what the request says about where it comes from, and whether it must pass. */
const matrix = (own: string): Array<Sent & { accepted: boolean; what: string }> => [
  { what: 'own Origin, same-origin', origin: own, site: 'same-origin', accepted: true },
  { what: 'own Origin, no Sec-Fetch-Site (older browser)', origin: own, accepted: true },
  {
    what: 'Origin null, same-origin (a no-referrer page of this server)',
    origin: 'null',
    site: 'same-origin',
    accepted: true,
  },
  { what: 'no Origin, no Sec-Fetch-Site (a script, not a browser)', accepted: true },
  { what: 'another Origin, cross-site', origin: EVIL, site: 'cross-site', accepted: false },
  { what: 'another Origin claiming same-origin', origin: EVIL, site: 'same-origin', accepted: false },
  {
    what: 'Origin null, cross-site (sandboxed frame, data: page, redirect)',
    origin: 'null',
    site: 'cross-site',
    accepted: false,
  },
  { what: 'Origin null, same-site (a sibling subdomain)', origin: 'null', site: 'same-site', accepted: false },
  { what: 'Origin null, no Sec-Fetch-Site', origin: 'null', accepted: false },
  { what: 'no Origin, cross-site', site: 'cross-site', accepted: false },
];

const browserHeaders = ({ origin, site }: Sent): Record<string, string> => ({
  ...(origin === undefined ? {} : { origin }),
  ...(site === undefined ? {} : { 'sec-fetch-site': site }),
});

describe('cookie-authenticated writes: same-origin rule', () => {
  let server: TestServer;
  let user: SignedIn;
  let clientId: string;
  const verifier = `${'v'.repeat(43)}abcdefghij`;

  const postForm = (path: string, fields: Record<string, string>, sent: Sent, cookie?: string) =>
    fetch(server.origin + path, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        ...(cookie ? { cookie } : {}),
        ...browserHeaders(sent),
      },
      body: new URLSearchParams(fields).toString(),
    });

  /** Opens the consent page as the signed-in user and returns its pending request's handle. */
  async function consentHandle(): Promise<string> {
    const url = new URL(`${server.origin}/oauth/authorize`);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: CALLBACK,
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
      state: 's',
    }).toString();
    const page = await fetch(url, { headers: { cookie: user.cookie }, redirect: 'manual' });
    const html = await page.text();
    const handle = /name="request" value="([^"]+)"/.exec(html)?.[1];
    assert.ok(handle, `${page.status} ${html.slice(0, 500)}`);
    return handle;
  }

  before(async () => {
    server = await startMcpTestServer();
    user = await signUp(server.origin);
    const registered = await fetch(`${server.origin}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: 'Same-origin test',
        redirect_uris: [CALLBACK],
        token_endpoint_auth_method: 'none',
      }),
    });
    assert.equal(registered.status, 201);
    clientId = ((await registered.json()) as { client_id: string }).client_id;
  });
  after(() => server.close());

  it('the OAuth sign-in form', async () => {
    for (const row of matrix(server.origin)) {
      const response = await postForm(
        '/oauth/sign-in',
        { email: user.email, password: user.password, return_to: '/oauth/authorize?x=1' },
        row,
      );
      const body = await response.text();
      if (row.accepted) {
        assert.equal(response.status, 303, `${row.what}: ${body.slice(0, 300)}`);
        assert.equal(response.headers.get('location'), '/oauth/authorize?x=1', row.what);
        assert.match(response.headers.get('set-cookie') ?? '', /signpost_session=/, row.what);
      } else {
        assert.equal(response.status, 403, row.what);
        assert.match(body, /sent from another site/, row.what);
        assert.equal(response.headers.get('set-cookie'), null, `${row.what}: no session started`);
      }
    }
  });

  it('the OAuth consent form', async () => {
    const handle = await consentHandle();
    for (const row of matrix(server.origin)) {
      // No access level chosen: a form that passes the origin check is answered 400 and stays open.
      const response = await postForm(
        '/oauth/authorize',
        { request: handle, project: 'none', access: 'none', decision: 'allow' },
        row,
        user.cookie,
      );
      const body = await response.text();
      if (row.accepted) {
        assert.equal(response.status, 400, `${row.what}: ${body.slice(0, 300)}`);
        assert.match(body, /Choose a project and access/, row.what);
      } else {
        assert.equal(response.status, 403, row.what);
        assert.match(body, /sent from another site/, row.what);
      }
    }
    // A whole consent posted as a no-referrer page posts it: the client gets its code. (The first
    // account owns the seeded platform project.)
    const fields = { request: handle, project: server.platformProjectId, access: 'read', decision: 'allow' };
    const allowed = await postForm('/oauth/authorize', fields, { origin: 'null', site: 'same-origin' }, user.cookie);
    assert.equal(allowed.status, 303, await allowed.text());
    const back = new URL(allowed.headers.get('location')!);
    assert.equal(back.origin + back.pathname, CALLBACK);
    assert.ok(back.searchParams.get('code'));
  });

  it('a management API write with the session cookie', async () => {
    const session = asSession(server.origin, (await signIn(server.origin, user.email, user.password)).cookie);
    let renamed = 0;
    for (const row of matrix(server.origin)) {
      const name = `Renamed ${renamed + 1}`;
      const response = await session.patch('/me', { name }, { headers: browserHeaders(row) });
      if (row.accepted) {
        assert.equal(response.status, 200, `${row.what}: ${response.text}`);
        assert.equal(response.body.account.name, name, row.what);
        renamed++;
      } else {
        assert.equal(response.status, 403, `${row.what}: ${response.text}`);
        assert.deepEqual(response.body, { error: 'Cross-origin request refused', code: 'Forbidden' }, row.what);
      }
    }
    // Refused writes changed nothing.
    assert.equal((await session.get('/me')).body.account.name, `Renamed ${renamed}`);
  });
});
