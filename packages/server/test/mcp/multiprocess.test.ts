/**
 * The hosted MCP server and its OAuth server on two server processes behind a round-robin load
 * balancer: one SDK client, requests alternating between processes. Nothing may depend on
 * which process answered the previous request. Runs on PostgreSQL (SQLite is one process).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Database } from '../../src/db/database.ts';
import { openDatabase } from '../../src/db/open.ts';
import { createApiKey } from '../../src/resources/projects/index.ts';
import { signUp, teamProject } from '../support/mcp-accounts.ts';
import { createTestDatabase, testDbKind, type TestDatabase } from '../support/database.ts';
import { callTool, connectMcp, textOf } from '../support/mcp.ts';
import { Browser, TestOAuthProvider } from '../support/oauth.ts';
import { startServerProcess, type ServerProcess } from '../support/server.ts';

const skip =
  testDbKind() === 'postgres' ? false : 'needs PostgreSQL (SIGNPOST_TEST_DB=postgres): SQLite runs as one process';

/** A round-robin HTTP load balancer that remembers which backend answered each request. */
class LoadBalancer {
  backends: string[] = [];
  readonly log: { backend: number; method: string; path: string }[] = [];
  private next = 0;
  private readonly server: Server;
  origin = '';

  constructor() {
    this.server = createServer((req, res) => {
      const index = this.next++ % this.backends.length;
      const target = new URL(this.backends[index]!);
      this.log.push({ backend: index, method: req.method!, path: req.url!.split('?')[0]! });
      const upstream = httpRequest(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
        (response) => {
          res.writeHead(response.statusCode!, response.headers);
          response.pipe(res);
        },
      );
      upstream.on('error', () => {
        res.writeHead(502);
        res.end();
      });
      req.pipe(upstream);
    });
  }

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** Backends that answered requests to `path` since `from`. */
  servedBy(path: string, from = 0): Set<number> {
    return new Set(
      this.log
        .slice(from)
        .filter((entry) => entry.path === path)
        .map((entry) => entry.backend),
    );
  }
}

describe('hosted MCP on two server processes behind a load balancer', { skip }, () => {
  let database: TestDatabase;
  let db: Database;
  const processes: ServerProcess[] = [];
  const balancer = new LoadBalancer();

  before(async () => {
    database = await createTestDatabase('postgres');
    await balancer.start();
    // Behind a load balancer PUBLIC_URL is the balancer's address: the issuer and token audience.
    // One after the other: each is stopped in `after` even if the other fails to start.
    for (let i = 0; i < 2; i++)
      processes.push(await startServerProcess(database, { PUBLIC_URL: balancer.origin, LOG_LEVEL: 'info' }));
    balancer.backends = processes.map((process) => process.origin);
    db = openDatabase({ databaseUrl: database.url, dataDir: database.dataDir });
  });
  after(async () => {
    await balancer.close();
    await Promise.all(processes.map((process) => process.stop()));
    await db?.close();
    await database?.drop();
  });

  it('serves one API-key client from both processes', async () => {
    const ann = await signUp(balancer.origin, db, 'lb-key@example.com');
    const projectId = await teamProject(db, ann.teamId, 'Balanced');
    const key = await createApiKey(db, projectId, 'live', [
      'features:write',
      'translations:read',
      'translations:write',
    ]);
    const from = balancer.log.length;
    const { client, close } = await connectMcp(balancer.origin, { key: key.key });
    try {
      const created = (
        await callTool(client, 'create_feature', {
          projectId,
          title: 'Balanced',
          description: 'Created on one process.',
        })
      ).structuredContent as any;
      for (const status of ['planned', 'in-progress', 'done']) {
        const updated = await callTool(client, 'update_feature_status', { featureId: created.id, status });
        assert.equal((updated.structuredContent as any).status, status, textOf(updated));
      }
      for (let i = 0; i < 4; i++) {
        const upserted = await callTool(client, 'upsert_translation_keys', {
          projectId,
          keys: [{ key: `lb.k${i}`, defaultText: `Text ${i}` }],
        });
        assert.deepEqual((upserted.structuredContent as any).created, [`lb.k${i}`]);
      }
      const listed = (await callTool(client, 'list_translation_keys', { projectId, query: 'lb.' }))
        .structuredContent as any;
      assert.equal(listed.total, 4);
    } finally {
      await close();
    }
    assert.deepEqual(balancer.servedBy('/mcp', from), new Set([0, 1]));
  });

  it('runs the OAuth flow and its tool calls across both processes', async () => {
    const bea = await signUp(balancer.origin, db, 'lb-oauth@example.com');
    const projectId = await teamProject(db, bea.teamId, 'Balanced OAuth');
    const from = balancer.log.length;
    const provider = new TestOAuthProvider(new Browser(balancer.origin), {
      email: bea.email,
      password: bea.password,
      choose: () => ({ project: projectId, access: 'write' }),
    });
    const url = new URL(`${balancer.origin}/mcp`);
    await assert.rejects(
      new Client({ name: 'lb', version: '1' }).connect(
        new StreamableHTTPClientTransport(url, { authProvider: provider }),
      ),
      UnauthorizedError,
    );
    const transport = new StreamableHTTPClientTransport(url, { authProvider: provider });
    await transport.finishAuth(provider.code);
    const client = new Client({ name: 'lb', version: '1' });
    await client.connect(transport);
    try {
      for (let i = 0; i < 3; i++) {
        const upserted = await callTool(client, 'upsert_translation_keys', {
          projectId,
          keys: [{ key: `oauth.lb${i}`, defaultText: 'x' }],
        });
        assert.equal(upserted.isError, undefined, textOf(upserted));
      }
    } finally {
      await client.close();
    }
    // Registration, sign-in, consent, token and tool calls did not all land on one process.
    const paths = ['/oauth/register', '/oauth/sign-in', '/oauth/authorize', '/oauth/token', '/mcp'];
    const served = new Set(paths.flatMap((path) => [...balancer.servedBy(path, from)]));
    assert.deepEqual(served, new Set([0, 1]));
    assert.deepEqual(balancer.servedBy('/mcp', from), new Set([0, 1]));

    // Refresh on one process, use on the other; revoke, and neither accepts the token.
    const form = (path: string, fields: Record<string, string>) =>
      fetch(balancer.origin + path, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields).toString(),
      });
    const refreshed = (await (
      await form('/oauth/token', {
        grant_type: 'refresh_token',
        refresh_token: provider.saved!.refresh_token!,
        client_id: provider.client!.client_id,
      })
    ).json()) as any;
    assert.ok(refreshed.access_token);
    const list = (token: string) =>
      fetch(`${balancer.origin}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
    assert.equal((await list(refreshed.access_token)).status, 200);
    assert.equal((await list(refreshed.access_token)).status, 200);
    assert.equal(
      (await form('/oauth/revoke', { token: refreshed.refresh_token, client_id: provider.client!.client_id })).status,
      200,
    );
    assert.equal((await list(refreshed.access_token)).status, 401);
    assert.equal((await list(refreshed.access_token)).status, 401);
  });
});
