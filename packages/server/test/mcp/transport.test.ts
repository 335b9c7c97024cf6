import { MCP_SCOPES } from '../../src/routing/mcp/scopes.ts';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { callTool, connectMcp, postMcp, startMcpTestServer } from '../support/mcp.ts';
import type { TestProject, TestServer } from '../support/server.ts';

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};
const call = (name: string, args: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id: 2,
  method: 'tools/call',
  params: { name, arguments: args },
});

describe('hosted MCP transport and auth', () => {
  let server: TestServer;
  let project: TestProject;
  let readOnly: TestProject;
  let metadataUrl: string;

  before(async () => {
    server = await startMcpTestServer();
    project = await server.createProject({ scopes: ['features:write', 'translations:read', 'translations:write'] });
    readOnly = await server.createProject({ scopes: ['translations:read', 'public:read'] });
    metadataUrl = `${server.origin}/.well-known/oauth-protected-resource/mcp`;
  });
  after(() => server.close());

  it('answers a request without credentials with 401 and the resource metadata URL', async () => {
    const response = await postMcp(server.origin, initialize);
    assert.equal(response.status, 401);
    assert.equal(response.headers.get('www-authenticate'), `Bearer resource_metadata="${metadataUrl}"`);
    assert.match(((await response.json()) as any).error, /Missing credentials/);
  });

  it('answers an unknown key or token with 401 invalid_token', async () => {
    for (const credential of ['svc_live_abcdefghijklmnopqrstuvwxyz0123456789', 'not-a-token']) {
      const response = await postMcp(server.origin, initialize, { authorization: `Bearer ${credential}` });
      assert.equal(response.status, 401);
      const challenge = response.headers.get('www-authenticate')!;
      assert.match(challenge, /^Bearer error="invalid_token"/);
      assert.ok(challenge.includes(`resource_metadata="${metadataUrl}"`));
    }
  });

  it('accepts the key as X-API-Key too', async () => {
    const response = await postMcp(server.origin, initialize, { 'x-api-key': project.liveKey });
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type')!, /application\/json/);
    const body = (await response.json()) as any;
    assert.equal(body.result.serverInfo.name, 'signpost');
    assert.equal(response.headers.get('mcp-session-id'), null, 'stateless: no session');
  });

  it('refuses a tool call that needs a scope the key lacks with 403 insufficient_scope', async () => {
    const response = await postMcp(
      server.origin,
      call('upsert_translation_keys', { projectId: readOnly.projectId, keys: [] }),
      {
        authorization: `Bearer ${readOnly.liveKey}`,
      },
    );
    assert.equal(response.status, 403);
    const challenge = response.headers.get('www-authenticate')!;
    assert.match(challenge, /^Bearer error="insufficient_scope", scope="translations:write"/);
    assert.ok(challenge.includes(`resource_metadata="${metadataUrl}"`));
    assert.match(
      ((await response.json()) as any).error,
      /lacks the translations:write scope, which upsert_translation_keys needs/,
    );

    const connected = await connectMcp(server.origin, { key: readOnly.liveKey });
    try {
      // Listing and the tools the key may use still work.
      assert.equal((await connected.client.listTools()).tools.length, 13);
      const listed = await callTool(connected.client, 'list_translation_keys', { projectId: readOnly.projectId });
      assert.equal(listed.isError, undefined);
      for (const [tool, scope] of [
        ['create_feature', 'features:write'],
        ['update_feature_status', 'features:write'],
      ] as const) {
        await assert.rejects(
          callTool(connected.client, tool, { projectId: readOnly.projectId }),
          (error: unknown) =>
            error instanceof StreamableHTTPError && error.code === 403 && error.message.includes(scope),
        );
      }
    } finally {
      await connected.close();
    }
  });

  it('refuses list_translation_keys without translations:read', async () => {
    const writer = await server.createProject({ scopes: ['features:write'] });
    const response = await postMcp(server.origin, call('list_translation_keys', { projectId: writer.projectId }), {
      authorization: `Bearer ${writer.liveKey}`,
    });
    assert.equal(response.status, 403);
    assert.match(response.headers.get('www-authenticate')!, /scope="translations:read"/);
  });

  it('answers GET and DELETE with 405 and Allow, as a stateless server does', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(`${server.origin}/mcp`, {
        method,
        headers: { accept: 'text/event-stream', authorization: `Bearer ${project.liveKey}` },
      });
      assert.equal(response.status, 405, method);
      assert.equal(response.headers.get('allow'), 'POST, OPTIONS');
    }
  });

  it('answers a CORS preflight for browser-based clients', async () => {
    const response = await fetch(`${server.origin}/mcp`, {
      method: 'OPTIONS',
      headers: { origin: 'https://inspector.example', 'access-control-request-method': 'POST' },
    });
    assert.equal(response.status, 204);
    assert.equal(response.headers.get('access-control-allow-origin'), '*');
    assert.match(response.headers.get('access-control-allow-headers')!, /Mcp-Protocol-Version/);
    assert.match(response.headers.get('access-control-expose-headers')!, /WWW-Authenticate/);
  });

  it('serves protected resource metadata at both well-known locations', async () => {
    for (const path of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']) {
      const response = await fetch(server.origin + path);
      assert.equal(response.status, 200);
      const metadata = (await response.json()) as any;
      assert.equal(metadata.resource, `${server.origin}/mcp`);
      assert.deepEqual(metadata.authorization_servers, [server.origin]);
      assert.deepEqual(metadata.scopes_supported.slice(0, 3), [
        'features:write',
        'translations:read',
        'translations:write',
      ]);
      assert.deepEqual(metadata.scopes_supported, [...MCP_SCOPES]);
    }
  });

  it('answers malformed JSON-RPC with a JSON-RPC error, not a crash', async () => {
    const response = await postMcp(server.origin, { hello: 'world' }, { authorization: `Bearer ${project.liveKey}` });
    assert.equal(response.status, 400);
    const body = (await response.json()) as any;
    assert.equal(body.jsonrpc, '2.0');
    assert.ok(body.error);
  });
});
