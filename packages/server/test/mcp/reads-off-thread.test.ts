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
import type { Database, Queryable } from '../../src/db/database.ts';
import { readsOffThread } from '../../src/db/read-context.ts';
import { callTool, connectMcp, startMcpTestServer, textOf, type Connected } from '../support/mcp.ts';
import type { TestProject, TestServer } from '../support/server.ts';

interface NotedRead {
  sql: string;
  offThread: boolean;
}

/** The real database, noting each read outside transactions and whether it was sent off the loop. */
function notingReads(db: Database, noted: NotedRead[]): Database {
  const note = (sql: string) => noted.push({ sql: sql.trim(), offThread: readsOffThread() });
  const reads: Pick<Queryable, 'all' | 'get'> = {
    all: (sql, params) => {
      note(sql);
      return db.all(sql, params);
    },
    get: (sql, params) => {
      note(sql);
      return db.get(sql, params);
    },
  };
  return {
    dialect: db.dialect,
    ...reads,
    run: (sql, params) => db.run(sql, params),
    transaction: (fn, options) => db.transaction(fn, options),
    exec: (sql) => db.exec(sql),
    close: () => db.close(),
    ...(db.changeMarker ? { changeMarker: () => db.changeMarker!() } : {}),
  };
}

describe('where the hosted MCP reads', () => {
  const noted: NotedRead[] = [];
  let server: TestServer;
  let project: TestProject;
  let mcp: Connected;

  before(async () => {
    server = await startMcpTestServer({ wrapDatabase: (db) => notingReads(db, noted) });
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
  async function logGroupReadsOf(act: () => Promise<void>): Promise<NotedRead[]> {
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
    assert.ok(noted.length > 0, 'GET /features read the database');
    assert.ok(
      noted.every((read) => !read.offThread),
      'the public API reads on the event loop',
    );
  });
});
