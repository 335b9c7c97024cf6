/**
 * The OAuth flow of the hosted MCP server on the real accounts of the management API: sign-up,
 * the sign-in page (session cookie), team projects and roles on the consent page.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { addMember, signUp, teamProject, type SignedUp } from '../support/mcp-accounts.ts';
import { callTool, startMcpTestServer, textOf } from '../support/mcp.ts';
import { Browser, TestOAuthProvider } from '../support/oauth.ts';
import type { TestServer } from '../support/server.ts';
import { MCP_READ_SCOPES } from '../../src/routing/mcp/scopes.ts';

/** The scopes the consent page's Read and Read and write grant. */
const READ_SCOPES = MCP_READ_SCOPES.join(' ');

describe('OAuth consent with management accounts', () => {
  let server: TestServer;
  let ann: SignedUp;
  let bob: SignedUp;
  let annProject: string;

  async function connect(provider: TestOAuthProvider) {
    const url = new URL(`${server.origin}/mcp`);
    await assert.rejects(
      new Client({ name: 't', version: '1' }).connect(
        new StreamableHTTPClientTransport(url, { authProvider: provider }),
      ),
      UnauthorizedError,
    );
    const transport = new StreamableHTTPClientTransport(url, { authProvider: provider });
    await transport.finishAuth(provider.code);
    const client = new Client({ name: 't', version: '1' });
    await client.connect(transport);
    return client;
  }

  before(async () => {
    server = await startMcpTestServer();
    // The first account owns the seeded platform and demo projects.
    ann = await signUp(server.origin, server.db, 'ann@example.com');
    bob = await signUp(server.origin, server.db, 'bob@example.com');
    annProject = await teamProject(server.db, ann.teamId, 'Ann app');
    await addMember(server.db, ann.teamId, bob.accountId, 'member');
  });
  after(() => server.close());

  it('signs in on the sign-in page, lists the team projects and writes to the chosen one', async () => {
    const browser = new Browser(server.origin);
    let consentHtml = '';
    const provider = new TestOAuthProvider(browser, {
      email: ann.email,
      password: ann.password,
      choose: () => ({ project: server.platformProjectId, access: 'write' }),
    });
    const original = browser.submit.bind(browser);
    browser.submit = async (page, values) => {
      if (page.html.includes('name="decision"')) consentHtml = page.html;
      return original(page, values);
    };
    const client = await connect(provider);
    try {
      for (const id of [server.platformProjectId, server.demoProjectId, annProject])
        assert.ok(consentHtml.includes(`value="${id}"`), id);
      assert.match(consentHtml, /Signed in as ann@example\.com/);
      // The platform project's items start internal, as with its API keys.
      const created = await callTool(client, 'create_feature', {
        projectId: server.platformProjectId,
        title: 'Platform item',
        description: 'Created by an agent on the platform board.',
      });
      assert.equal((created.structuredContent as any).internal, true, textOf(created));
    } finally {
      await client.close();
    }
    // The sign-in page started a real session of the management API.
    const me = await fetch(`${server.origin}/api/v1/me`, { headers: { cookie: browser.cookieHeader() } });
    assert.equal(me.status, 200);
  });

  it('refuses a wrong password on the sign-in page', async () => {
    const provider = new TestOAuthProvider(new Browser(server.origin), {
      email: ann.email,
      password: 'wrong password!',
      choose: () => 'deny',
    });
    await assert.rejects(
      new Client({ name: 't', version: '1' }).connect(
        new StreamableHTTPClientTransport(new URL(`${server.origin}/mcp`), { authProvider: provider }),
      ),
      /Wrong e-mail address or password/,
    );
  });

  it('gives a team member read access only, and no access to other teams', async () => {
    const write = new TestOAuthProvider(new Browser(server.origin), {
      email: bob.email,
      password: bob.password,
      choose: () => ({ project: annProject, access: 'write' }),
    });
    await assert.rejects(
      new Client({ name: 't', version: '1' }).connect(
        new StreamableHTTPClientTransport(new URL(`${server.origin}/mcp`), { authProvider: write }),
      ),
      /allows read access only/,
    );
    const read = new TestOAuthProvider(new Browser(server.origin), {
      email: bob.email,
      password: bob.password,
      choose: () => ({ project: annProject, access: 'read' }),
    });
    const client = await connect(read);
    try {
      assert.equal(read.saved?.scope, READ_SCOPES);
      assert.equal((await callTool(client, 'list_translation_keys', { projectId: annProject })).isError, undefined);
    } finally {
      await client.close();
    }
    const dave = await signUp(server.origin, server.db, 'dave@example.com');
    const daveProject = await teamProject(server.db, dave.teamId, 'Dave app');
    const foreign = new TestOAuthProvider(new Browser(server.origin), {
      email: bob.email,
      password: bob.password,
      choose: () => ({ project: daveProject, access: 'read' }),
    });
    await assert.rejects(
      new Client({ name: 't', version: '1' }).connect(
        new StreamableHTTPClientTransport(new URL(`${server.origin}/mcp`), { authProvider: foreign }),
      ),
      /Pick one of your projects/,
    );
  });

  it('offers the configured identity provider on the sign-in page, coming back to the authorization', async () => {
    const withOidc = await startMcpTestServer({
      env: { OIDC_ISSUER: 'https://id.example', OIDC_CLIENT_ID: 'signpost', OIDC_LABEL: 'Acme ID' },
    });
    try {
      const returnTo = '/oauth/authorize?client_id=c&state=s';
      const page = await (
        await fetch(`${withOidc.origin}/oauth/sign-in?${new URLSearchParams({ return_to: returnTo })}`)
      ).text();
      const link = /<a href="([^"]+)">Sign in with Acme ID<\/a>/.exec(page);
      assert.ok(link, page);
      const url = new URL(link[1]!.replace(/&amp;/g, '&'), withOidc.origin);
      assert.equal(url.pathname, '/api/v1/auth/oidc/start');
      assert.equal(url.searchParams.get('returnTo'), returnTo);
    } finally {
      await withOidc.close();
    }
    const plain = await (await fetch(`${server.origin}/oauth/sign-in`)).text();
    assert.ok(!plain.includes('Sign in with'));
  });

  it('ends access when the account leaves the team', async () => {
    const carol = await signUp(server.origin, server.db, 'carol@example.com');
    await addMember(server.db, ann.teamId, carol.accountId, 'admin');
    const provider = new TestOAuthProvider(new Browser(server.origin), {
      email: carol.email,
      password: carol.password,
      choose: () => ({ project: annProject, access: 'write' }),
    });
    const client = await connect(provider);
    try {
      const upsert = await callTool(client, 'upsert_translation_keys', {
        projectId: annProject,
        keys: [{ key: 'carol.k', defaultText: 'Hi' }],
      });
      assert.equal(upsert.isError, undefined);
    } finally {
      await client.close();
    }
    await server.db.run('DELETE FROM team_members WHERE team_id = ? AND account_id = ?', [ann.teamId, carol.accountId]);
    const response = await fetch(`${server.origin}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${provider.saved!.access_token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    assert.equal(response.status, 401);
  });
});
