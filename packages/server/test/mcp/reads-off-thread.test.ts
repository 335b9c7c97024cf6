/**
 * The hosted MCP's tools read as the management API does (lists, searches and capped counts over a
 * project's groups and lines), so their reads run off the event loop where the database allows
 * (db/read-context.ts): on SQLite a search over 100,000 log groups held the loop 4–6 ms a call
 * before (the loop-delay bench). The database here notes, for every read, whether the request's
 * context sends it off the loop; a public request beside it is the contrast (its reads stay on
 * the loop, where a small query costs least), so the test fails if either surface's context is
 * lost.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readsOffThread } from '../../src/db/read-context.ts';
import { observeStatements } from '../support/counting-database.ts';
import { callTool, connectMcp, startMcpTestServer, textOf, type Connected } from '../support/mcp.ts';
import type { TestProject, TestServer } from '../support/server.ts';

interface NotedStatement {
  sql: string;
  offThread: boolean;
}

describe('where the hosted MCP reads', () => {
  const noted: NotedStatement[] = [];
  let server: TestServer;
  let project: TestProject;
  let mcp: Connected;

  before(async () => {
    // Every statement, noted with whether the request's context sends its reads off the loop.
    server = await startMcpTestServer({
      wrapDatabase: (db) =>
        observeStatements(db, (sql) => noted.push({ sql: sql.trim(), offThread: readsOffThread() })),
    });
    project = await server.createProject({ scopes: ['logs:read', 'logs:write', 'features:read'] });
    const sent = await fetch(`${server.baseUrl}/logs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': project.liveKey },
      body: JSON.stringify({ logs: [{ level: 'error', message: 'checkout failed for order 42' }] }),
    });
    assert.equal(sent.status, 200, await sent.text());
    mcp = await connectMcp(server.origin, { key: project.liveKey });
  });
  after(async () => {
    await mcp?.close();
    await server?.close();
  });

  /** The reads of log_groups made while `act` runs. */
  async function logGroupReadsOf(act: () => Promise<void>): Promise<NotedStatement[]> {
    noted.length = 0;
    await act();
    return noted.filter((read) => /\bFROM log_groups\b/i.test(read.sql));
  }

  it("a tool's reads go off the event loop", async () => {
    const reads = await logGroupReadsOf(async () => {
      const result = await callTool(mcp.client, 'logs', {
        projectId: project.projectId,
        action: 'search',
        query: 'checkout',
      });
      assert.ok(!result.isError, textOf(result));
      assert.match(textOf(result), /^1 of 1 log groups/);
    });
    assert.ok(reads.length >= 2, `the page and the count: ${reads.length} reads of log_groups`);
    assert.deepEqual(
      reads.filter((read) => !read.offThread).map((read) => read.sql),
      [],
      'every read of the search off the event loop',
    );
  });

  it("a public request's reads stay on it (the contrast)", async () => {
    noted.length = 0;
    const response = await fetch(`${server.baseUrl}/features?limit=1`, { headers: { 'x-api-key': project.liveKey } });
    assert.equal(response.status, 200);
    await response.arrayBuffer();
    const reads = noted.filter((read) => /\bFROM features\b/i.test(read.sql));
    assert.ok(reads.length > 0, 'GET /features read the features');
    assert.ok(
      reads.every((read) => !read.offThread),
      'the public API reads on the event loop',
    );
  });
});
