/**
 * The hosted MCP server's OAuth 2.1 authorization server, driven by the official SDK client:
 * discovery, dynamic registration, sign-in and consent, PKCE, tool calls, refresh, revocation
 * and scopes. Accounts are a stand-in here (oauth-accounts.test.ts uses the real ones);
 * oauth-protocol.test.ts checks the protocol rules with raw requests.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createProject } from '../../src/resources/projects/index.ts';
import { newId } from '../../src/kernel/ids.ts';
import { hashSecret } from '../../src/kernel/secrets.ts';
import { callTool, postMcp, textOf } from '../support/mcp.ts';
import { Browser, TestOAuthProvider, type Person } from '../support/oauth.ts';
import { FakeAccounts, startOAuthTestServer, type OAuthTestServer } from '../support/fake-accounts.ts';
import { MCP_READ_SCOPES, MCP_SCOPES } from '../../src/routing/mcp/scopes.ts';

/** The scopes the consent page's Read and Read and write grant. */
const READ_SCOPES = MCP_READ_SCOPES.join(' ');
const WRITE_SCOPES = MCP_SCOPES.join(' ');

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

describe('OAuth for the hosted MCP server', () => {
  let server: OAuthTestServer;
  const accounts = new FakeAccounts();
  let projectA: string;
  let projectB: string;
  let readOnlyProject: string;
  const ann = (choose: Person['choose']): Person => ({ email: 'ann@example.com', password: 'correct horse', choose });

  /** Runs the whole flow with the SDK client: 401, discovery, registration, consent, code exchange. */
  async function connect(provider: TestOAuthProvider) {
    const url = new URL(`${server.origin}/mcp`);
    const first = new Client({ name: 'oauth-test', version: '1' });
    await assert.rejects(
      first.connect(new StreamableHTTPClientTransport(url, { authProvider: provider })),
      UnauthorizedError,
    );
    const transport = new StreamableHTTPClientTransport(url, { authProvider: provider });
    await transport.finishAuth(provider.code);
    const client = new Client({ name: 'oauth-test', version: '1' });
    await client.connect(transport);
    return client;
  }

  /** A client whose tokens are already stored: connects without a new consent. */
  async function reconnect(provider: TestOAuthProvider) {
    const client = new Client({ name: 'oauth-test', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${server.origin}/mcp`), { authProvider: provider }),
    );
    return client;
  }

  const form = (origin: string, path: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
    fetch(origin + path, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(fields).toString(),
    });

  before(async () => {
    server = await startOAuthTestServer(accounts);
    projectA = newId('proj');
    projectB = newId('proj');
    readOnlyProject = newId('proj');
    for (const id of [projectA, projectB, readOnlyProject]) {
      await createProject(server.db, { id, name: `Project ${id.slice(-4)}`, slug: id, supportedLocales: ['en', 'de'] });
    }
    accounts.add('ann@example.com', 'correct horse', [
      { id: projectA, name: 'Alpha', canWrite: true },
      { id: projectB, name: 'Beta', canWrite: true },
      { id: readOnlyProject, name: 'Gamma', canWrite: false },
    ]);
  });
  after(() => server.close());

  it('publishes authorization server metadata', async () => {
    const metadata = (await (await fetch(`${server.origin}/.well-known/oauth-authorization-server`)).json()) as any;
    assert.equal(metadata.issuer, server.origin);
    assert.equal(metadata.authorization_endpoint, `${server.origin}/oauth/authorize`);
    assert.equal(metadata.token_endpoint, `${server.origin}/oauth/token`);
    assert.equal(metadata.registration_endpoint, `${server.origin}/oauth/register`);
    assert.equal(metadata.revocation_endpoint, `${server.origin}/oauth/revoke`);
    assert.deepEqual(metadata.code_challenge_methods_supported, ['S256']);
    assert.deepEqual(metadata.grant_types_supported, ['authorization_code', 'refresh_token']);
    assert.deepEqual(metadata.scopes_supported, [...MCP_SCOPES]);
  });

  it('runs the full flow: registration, sign-in, consent, tool calls on the granted project', async () => {
    const provider = new TestOAuthProvider(
      new Browser(server.origin),
      ann(() => ({ project: projectA, access: 'write' })),
    );
    const client = await connect(provider);
    try {
      // Discovery found the resource, registration happened, PKCE S256 and the resource were sent.
      const authorizationUrl = provider.authorizationUrls[0]!;
      assert.equal(authorizationUrl.searchParams.get('code_challenge_method'), 'S256');
      assert.equal(authorizationUrl.searchParams.get('resource'), `${server.origin}/mcp`);
      assert.ok(provider.client?.client_id);
      assert.equal(provider.callback?.searchParams.get('iss'), server.origin);
      assert.equal(provider.saved?.scope, WRITE_SCOPES);
      assert.match(provider.saved!.access_token, /^sp_at_/);
      assert.match(provider.saved!.refresh_token!, /^sp_rt_/);

      const created = await callTool(client, 'create_feature', {
        projectId: projectA,
        title: 'OAuth feature',
        description: 'Created through an OAuth token.',
      });
      assert.equal(created.isError, undefined, textOf(created));
      const feature = created.structuredContent as any;
      assert.equal(feature.internal, false);
      const row = await server.db.get<{ environment: string }>('SELECT environment FROM features WHERE id = ?', [
        feature.id,
      ]);
      assert.equal(row!.environment, 'live');

      const upserted = await callTool(client, 'upsert_translation_keys', {
        projectId: projectA,
        keys: [{ key: 'oauth.k', defaultText: 'Hi' }],
      });
      assert.deepEqual((upserted.structuredContent as any).created, ['oauth.k']);

      // Another project of the same account, not granted: the same error as a missing one.
      const other = await callTool(client, 'create_feature', {
        projectId: projectB,
        title: 'Wrong project',
        description: 'Must not land on B.',
      });
      const missing = await callTool(client, 'create_feature', {
        projectId: 'proj_nope',
        title: 'Wrong project',
        description: 'Must not land on B.',
      });
      assert.equal(other.isError, true);
      assert.equal(textOf(other).replace(projectB, '<id>'), textOf(missing).replace('proj_nope', '<id>'));
    } finally {
      await client.close();
    }
    // Tokens and codes are stored only as hashes.
    const stored = await server.db.all<{ token_hash: string }>('SELECT token_hash FROM oauth_tokens');
    assert.ok(stored.length >= 2);
    assert.ok(stored.every((row) => !row.token_hash.startsWith('sp_')));
    assert.equal(
      await server.db.get('SELECT 1 FROM oauth_tokens WHERE token_hash = ?', [provider.saved!.access_token]),
      undefined,
    );
  });

  it('refreshes: a new pair works, the old refresh token is spent, and replaying it ends the grant', async () => {
    const provider = new TestOAuthProvider(
      new Browser(server.origin),
      ann(() => ({ project: projectA, access: 'write' })),
    );
    (await connect(provider)).close();
    const first = provider.saved!;
    const clientId = provider.client!.client_id;

    const refresh = (token: string) =>
      form(server.origin, '/oauth/token', {
        grant_type: 'refresh_token',
        refresh_token: token,
        client_id: clientId,
        resource: `${server.origin}/mcp`,
      });
    const response = await refresh(first.refresh_token!);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('cache-control'), 'no-store');
    const second = (await response.json()) as any;
    assert.notEqual(second.access_token, first.access_token);
    assert.notEqual(second.refresh_token, first.refresh_token);
    assert.equal(second.token_type, 'Bearer');
    assert.equal(second.expires_in, 3600);
    assert.equal(second.scope, first.scope);

    const ok = await postMcp(server.origin, initialize, { authorization: `Bearer ${second.access_token}` });
    assert.equal(ok.status, 200);

    // Replay of the rotated token: refused, and every token of the grant stops working.
    const replay = await refresh(first.refresh_token!);
    assert.equal(replay.status, 400);
    assert.equal(((await replay.json()) as any).error, 'invalid_grant');
    const after = await postMcp(server.origin, initialize, { authorization: `Bearer ${second.access_token}` });
    assert.equal(after.status, 401);
    assert.equal((await refresh(second.refresh_token)).status, 400);
  });

  it('lets the SDK client refresh on its own when the access token is rejected', async () => {
    const provider = new TestOAuthProvider(
      new Browser(server.origin),
      ann(() => ({ project: projectA, access: 'write' })),
    );
    (await connect(provider)).close();
    const before = provider.saved!;
    // Expire the access token server-side.
    await server.db.run("UPDATE oauth_tokens SET expires_at = '2000-01-01T00:00:00.000Z' WHERE kind = 'access'");
    const client = await reconnect(provider);
    try {
      assert.notEqual(provider.saved!.access_token, before.access_token);
      assert.equal(provider.authorizationUrls.length, 1, 'no second consent');
      const listed = await callTool(client, 'list_translation_keys', { projectId: projectA });
      assert.equal(listed.isError, undefined);
    } finally {
      await client.close();
    }
  });

  it('revokes: an access token stops working; a refresh token ends the whole grant', async () => {
    const provider = new TestOAuthProvider(
      new Browser(server.origin),
      ann(() => ({ project: projectA, access: 'write' })),
    );
    (await connect(provider)).close();
    const { access_token, refresh_token } = provider.saved!;
    const clientId = provider.client!.client_id;

    assert.equal((await postMcp(server.origin, initialize, { authorization: `Bearer ${access_token}` })).status, 200);
    const revoked = await form(server.origin, '/oauth/revoke', {
      token: access_token,
      token_type_hint: 'access_token',
      client_id: clientId,
    });
    assert.equal(revoked.status, 200);
    const rejected = await postMcp(server.origin, initialize, { authorization: `Bearer ${access_token}` });
    assert.equal(rejected.status, 401);
    assert.match(rejected.headers.get('www-authenticate')!, /error="invalid_token"/);

    // The refresh token still works until it is revoked too.
    const refreshed = (await (
      await form(server.origin, '/oauth/token', {
        grant_type: 'refresh_token',
        refresh_token: refresh_token!,
        client_id: clientId,
      })
    ).json()) as any;
    assert.ok(refreshed.access_token);
    assert.equal(
      (await form(server.origin, '/oauth/revoke', { token: refreshed.refresh_token, client_id: clientId })).status,
      200,
    );
    assert.equal(
      (await postMcp(server.origin, initialize, { authorization: `Bearer ${refreshed.access_token}` })).status,
      401,
    );

    // Unknown tokens and other clients' tokens: the same 200, nothing revoked.
    assert.equal(
      (await form(server.origin, '/oauth/revoke', { token: 'sp_at_unknown', client_id: clientId })).status,
      200,
    );
    const otherProvider = new TestOAuthProvider(
      new Browser(server.origin),
      ann(() => ({ project: projectA, access: 'read' })),
    );
    (await connect(otherProvider)).close();
    assert.equal(
      (await form(server.origin, '/oauth/revoke', { token: otherProvider.saved!.access_token, client_id: clientId }))
        .status,
      200,
    );
    assert.equal(
      (await postMcp(server.origin, initialize, { authorization: `Bearer ${otherProvider.saved!.access_token}` }))
        .status,
      200,
    );
  });

  it('grants read access as translations:read only, with 403 insufficient_scope for writes, until the user connects again with write', async () => {
    let access: 'read' | 'write' = 'read';
    const provider = new TestOAuthProvider(
      new Browser(server.origin),
      ann(() => ({ project: projectA, access })),
    );
    provider.metadata.scope = 'translations:read';
    const client = await connect(provider);
    assert.equal(provider.saved?.scope, READ_SCOPES);
    assert.equal(provider.authorizationUrls[0]!.searchParams.get('scope'), WRITE_SCOPES);
    try {
      assert.equal((await callTool(client, 'list_translation_keys', { projectId: projectA })).isError, undefined);
      const raw = await postMcp(
        server.origin,
        {
          jsonrpc: '2.0',
          id: 3,
          method: 'tools/call',
          params: { name: 'upsert_translation_keys', arguments: { projectId: projectA, keys: [] } },
        },
        { authorization: `Bearer ${provider.saved!.access_token}` },
      );
      assert.equal(raw.status, 403);
      const challenge = raw.headers.get('www-authenticate')!;
      assert.match(
        challenge,
        /^Bearer error="insufficient_scope", scope="translations:write", resource_metadata="[^"]+"/,
      );
      assert.match(((await raw.json()) as any).error, /Reconnect the MCP server and choose write access/);
      // The SDK client sees the 403 (it tries a refresh, which never widens a grant).
      await assert.rejects(
        callTool(client, 'create_feature', {
          projectId: projectA,
          title: 'Needs write',
          description: 'Read access cannot do this.',
        }),
        (error: unknown) => error instanceof StreamableHTTPError && error.code === 403,
      );
    } finally {
      await client.close();
    }
    // A refresh cannot add a scope the grant lacks.
    const widened = await form(server.origin, '/oauth/token', {
      grant_type: 'refresh_token',
      refresh_token: provider.saved!.refresh_token!,
      client_id: provider.client!.client_id,
      scope: 'translations:read translations:write',
    });
    assert.equal(widened.status, 400);
    assert.equal(((await widened.json()) as any).error, 'invalid_scope');

    // Connecting again and choosing write gives the scope.
    access = 'write';
    provider.invalidateCredentials('tokens');
    const again = await connect(provider);
    try {
      assert.equal(provider.saved?.scope, WRITE_SCOPES);
      const upsert = await callTool(again, 'upsert_translation_keys', {
        projectId: projectA,
        keys: [{ key: 'stepped.up', defaultText: 'Yes' }],
      });
      assert.equal(upsert.isError, undefined);
    } finally {
      await again.close();
    }
  });

  it('keeps a grant made before a scope existed without it, even across refreshes', async () => {
    const provider = new TestOAuthProvider(
      new Browser(server.origin),
      ann(() => ({ project: projectA, access: 'write' })),
    );
    (await connect(provider)).close();
    // A connection from before the translation scopes: its grant and tokens hold features:write only.
    const grant = await server.db.get<{ grant_id: string }>('SELECT grant_id FROM oauth_tokens WHERE token_hash = ?', [
      hashSecret(provider.saved!.access_token),
    ]);
    await server.db.run("UPDATE oauth_grants SET scopes = 'features:write' WHERE id = ?", [grant!.grant_id]);
    await server.db.run("UPDATE oauth_tokens SET scopes = 'features:write' WHERE grant_id = ?", [grant!.grant_id]);
    await server.db.run(
      "UPDATE oauth_tokens SET expires_at = '2000-01-01T00:00:00.000Z' WHERE grant_id = ? AND kind = 'access'",
      [grant!.grant_id],
    );

    const client = await reconnect(provider);
    try {
      assert.equal(provider.saved?.scope, 'features:write', 'the refresh kept the old scopes');
      assert.equal(
        (
          await callTool(client, 'create_feature', {
            projectId: projectA,
            title: 'Still works',
            description: 'features:write is granted.',
          })
        ).isError,
        undefined,
      );
      await assert.rejects(
        callTool(client, 'list_translation_keys', { projectId: projectA }),
        (error: unknown) => error instanceof StreamableHTTPError && error.code === 403,
      );
    } finally {
      await client.close();
    }
  });

  it('offers read only where the account may only read', async () => {
    const browser = new Browser(server.origin);
    const provider = new TestOAuthProvider(
      browser,
      ann(() => ({ project: readOnlyProject, access: 'write' })),
    );
    const url = new URL(`${server.origin}/mcp`);
    const client = new Client({ name: 'oauth-test', version: '1' });
    await assert.rejects(
      client.connect(new StreamableHTTPClientTransport(url, { authProvider: provider })),
      /did not return to the client/,
    );
    provider.person = ann(() => ({ project: readOnlyProject, access: 'read' }));
    const reader = await connect(provider);
    try {
      assert.equal(provider.saved?.scope, READ_SCOPES);
    } finally {
      await reader.close();
    }
  });

  it('stops tokens when the account loses the project, and cuts write when it loses the role', async () => {
    const provider = new TestOAuthProvider(
      new Browser(server.origin),
      ann(() => ({ project: projectB, access: 'write' })),
    );
    (await connect(provider)).close();
    const token = provider.saved!.access_token;
    const write = {
      jsonrpc: '2.0',
      id: 4,
      method: 'tools/call',
      params: {
        name: 'upsert_translation_keys',
        arguments: { projectId: projectB, keys: [{ key: 'a', defaultText: 'b' }] },
      },
    };
    const everything = [
      { id: projectA, name: 'Alpha', canWrite: true },
      { id: projectB, name: 'Beta', canWrite: true },
      { id: readOnlyProject, name: 'Gamma', canWrite: false },
    ];
    try {
      accounts.setProjects(
        'ann@example.com',
        everything.map((p) => (p.id === projectB ? { ...p, canWrite: false } : p)),
      );
      assert.equal((await postMcp(server.origin, write, { authorization: `Bearer ${token}` })).status, 403);
      accounts.setProjects(
        'ann@example.com',
        everything.filter((p) => p.id !== projectB),
      );
      assert.equal((await postMcp(server.origin, initialize, { authorization: `Bearer ${token}` })).status, 401);
    } finally {
      accounts.setProjects('ann@example.com', everything);
    }
    assert.equal((await postMcp(server.origin, initialize, { authorization: `Bearer ${token}` })).status, 200);
  });

  it('answers a denial with access_denied', async () => {
    const provider = new TestOAuthProvider(
      new Browser(server.origin),
      ann(() => 'deny'),
    );
    const client = new Client({ name: 'oauth-test', version: '1' });
    await assert.rejects(
      client.connect(new StreamableHTTPClientTransport(new URL(`${server.origin}/mcp`), { authProvider: provider })),
      UnauthorizedError,
    );
    assert.equal(provider.callback?.searchParams.get('error'), 'access_denied');
    assert.equal(provider.callback?.searchParams.get('code'), null);
  });
});
