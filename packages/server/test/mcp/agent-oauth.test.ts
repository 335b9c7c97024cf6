/**
 * The area tools through OAuth (issue 34): the consent page lists every scope in words; a
 * connection with read access reads every area and is refused every write with HTTP 403 naming
 * the scope; a connection made before the area scopes existed lacks them until it is made again.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createProject } from '../../src/resources/projects/index.ts';
import { newId } from '../../src/kernel/ids.ts';
import { hashSecret } from '../../src/kernel/secrets.ts';
import {
  MCP_AREA_TOOLS,
  MCP_READ_SCOPES,
  MCP_SCOPES,
  MCP_TOOL_SCOPES,
  SCOPE_WORDS,
} from '../../src/routing/mcp/scopes.ts';
import { callTool, postMcp, textOf } from '../support/mcp.ts';
import { Browser, TestOAuthProvider } from '../support/oauth.ts';
import { FakeAccounts, startOAuthTestServer, type OAuthTestServer } from '../support/fake-accounts.ts';

/** Area reads that need an id (of an idea, group, line, release, flag or person). */
const NEEDS_AN_ID = new Set(['get', 'person', 'attachments', 'events', 'event', 'around', 'overview', 'flag_history']);

describe('the area tools through OAuth', () => {
  let server: OAuthTestServer;
  const accounts = new FakeAccounts();
  let projectId: string;

  async function connect(provider: TestOAuthProvider) {
    const url = new URL(`${server.origin}/mcp`);
    await assert.rejects(
      new Client({ name: 'agent', version: '1' }).connect(
        new StreamableHTTPClientTransport(url, { authProvider: provider }),
      ),
      UnauthorizedError,
    );
    const transport = new StreamableHTTPClientTransport(url, { authProvider: provider });
    await transport.finishAuth(provider.code);
    const client = new Client({ name: 'agent', version: '1' });
    await client.connect(transport);
    return client;
  }

  const person = (access: 'read' | 'write') => ({
    email: 'ann@example.com',
    password: 'correct horse',
    choose: () => ({ project: projectId, access }),
  });

  before(async () => {
    server = await startOAuthTestServer(accounts);
    projectId = newId('proj');
    await createProject(server.db, { id: projectId, name: 'Alpha', slug: projectId, supportedLocales: ['en'] });
    accounts.add('ann@example.com', 'correct horse', [{ id: projectId, name: 'Alpha', canWrite: true }]);
  });
  after(async () => {
    await server?.close();
  });

  it('lists the scopes in words on the consent page; read access reads every area and writes nothing', async () => {
    const provider = new TestOAuthProvider(new Browser(server.origin), person('read'));
    const client = await connect(provider);
    try {
      const page = provider.consentPages[0]!;
      for (const scope of MCP_SCOPES) {
        assert.ok(page.includes(SCOPE_WORDS[scope]), `the consent page explains ${scope}`);
        assert.ok(page.includes(`<code>${scope}</code>`), `the consent page names ${scope}`);
      }
      assert.equal(provider.saved?.scope, MCP_READ_SCOPES.join(' '));

      for (const [tool, area] of Object.entries(MCP_AREA_TOOLS)) {
        // The admin-only audit log is refused to read access (below); reads that need an id are tested
        // with one in team-actions.test.ts.
        if (tool === 'audit') continue;
        for (const action of area.reads) {
          if (NEEDS_AN_ID.has(action)) continue;
          const result = await callTool(client, tool, { projectId, action });
          assert.equal(result.isError, undefined, `${tool} ${action}: ${textOf(result)}`);
        }
      }

      const writes: [string, Record<string, unknown>, string][] = [];
      for (const [tool, area] of Object.entries(MCP_AREA_TOOLS)) {
        for (const action of area.writes) writes.push([tool, { action }, area.write]);
      }
      for (const [tool, scope] of Object.entries(MCP_TOOL_SCOPES)) {
        if (!(MCP_READ_SCOPES as readonly string[]).includes(scope)) writes.push([tool, {}, scope]);
      }
      for (const [tool, args, scope] of writes) {
        const response = await postMcp(
          server.origin,
          { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: tool, arguments: { projectId, ...args } } },
          { authorization: `Bearer ${provider.saved!.access_token}` },
        );
        assert.equal(response.status, 403, `${tool} ${JSON.stringify(args)}`);
        assert.match(
          response.headers.get('www-authenticate')!,
          new RegExp(`error="insufficient_scope", scope="${scope}"`),
        );
        const { error } = (await response.json()) as { error: string };
        assert.match(error, new RegExp(`This access token lacks the ${scope} scope, which ${tool}`));
        assert.match(error, /Reconnect the MCP server and choose write access on the consent page/);
      }
    } finally {
      await client.close();
    }
  });

  it('leaves a connection from before the area scopes without them until it is made again', async () => {
    const provider = new TestOAuthProvider(new Browser(server.origin), person('write'));
    (await connect(provider)).close();
    const grant = await server.db.get<{ grant_id: string }>('SELECT grant_id FROM oauth_tokens WHERE token_hash = ?', [
      hashSecret(provider.saved!.access_token),
    ]);
    const before = 'features:write translations:read translations:write';
    await server.db.run('UPDATE oauth_grants SET scopes = ? WHERE id = ?', [before, grant!.grant_id]);
    await server.db.run('UPDATE oauth_tokens SET scopes = ? WHERE grant_id = ?', [before, grant!.grant_id]);

    const search = {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'feedback', arguments: { projectId, action: 'search' } },
    };
    const refused = await postMcp(server.origin, search, { authorization: `Bearer ${provider.saved!.access_token}` });
    assert.equal(refused.status, 403);
    assert.match(
      ((await refused.json()) as { error: string }).error,
      /lacks the feedback:read scope, which feedback \(action search\) needs/,
    );

    const again = new TestOAuthProvider(new Browser(server.origin), person('write'));
    const client = await connect(again);
    try {
      assert.equal(again.saved?.scope, MCP_SCOPES.join(' '));
      assert.equal((await callTool(client, 'feedback', { projectId, action: 'search' })).isError, undefined);
    } finally {
      await client.close();
    }
  });
});
