/**
 * Fuzz: every operation of both OpenAPI documents, read from the running server, and every tool
 * of /mcp, sent malformed input (deep nesting, U+0000, huge and odd numbers, long and odd ids,
 * wrong types, empty bodies). No answer may be a 5xx, and the server must stay up.
 *
 * The suite runs the short form: the valid request and each single breakage once. For a long
 * run, FUZZ_ROUNDS=N adds N-1 rounds of random combined breakages per operation (FUZZ_SEED
 * replays one), e.g. `FUZZ_ROUNDS=20 SIGNPOST_TEST_DB=postgres node --test test/fuzz.test.ts`.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ALL_KEY_SCOPES, createApiKey } from '../src/features/projects/store.ts';
import { fixtureFor, type Fixture } from './support/fuzz-fixtures.ts';
import { mcpRequests, type McpTool } from './support/fuzz-mcp.ts';
import { operationsOf, randomRequests, systematicRequests, type FuzzRequest, type Operation } from './support/fuzz-requests.ts';
import { random, type Schema } from './support/fuzz-values.ts';
import { startTestServer, type TestServer } from './support/server.ts';

const ROUNDS = Math.max(1, Number(process.env['FUZZ_ROUNDS'] ?? 1));
const SEED = Number(process.env['FUZZ_SEED'] ?? Math.floor(Math.random() * 2 ** 31));
/** Random combined breakages per operation and extra round. */
const PER_ROUND = 25;
/** Operations fuzzed at once (each on its own fixture, so they do not race each other). */
const PARALLEL = 4;

interface Finding {
  label: string;
  status: number | string;
  body: string;
}

async function send(server: TestServer, request: { method: string; url: string; body?: string }, headers: Record<string, string>) {
  try {
    const response = await fetch(server.origin + request.url, {
      method: request.method,
      headers: { ...headers, ...(request.body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: request.body ?? null,
    });
    return { status: response.status, text: await response.text() };
  } catch (error) {
    return { status: `network error: ${String(error)}`, text: '' };
  }
}

async function inParallel<T>(items: T[], width: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < items.length) await work(items[next++]!);
  }));
}

describe(`fuzz (rounds ${ROUNDS}, seed ${SEED})`, () => {
  let server: TestServer;
  let publicDoc: Schema;
  let managementDoc: Schema;
  const findings: Finding[] = [];
  let sent = 0;

  const record = (label: string, status: number | string, text: string) => {
    sent++;
    if (typeof status !== 'number' || status >= 500) findings.push({ label, status, body: text.slice(0, 300) });
  };

  before(async () => {
    server = await startTestServer();
    publicDoc = (await (await fetch(`${server.baseUrl}/openapi.json`)).json()) as Schema;
    managementDoc = (await (await fetch(`${server.origin}/api/v1/openapi.json`)).json()) as Schema;
  });
  after(async () => {
    console.log(`fuzz: ${sent} requests, ${findings.length} answered 5xx (rounds ${ROUNDS}, seed ${SEED})`);
    await server.close();
  });

  it('answers no malformed request to any operation of either API with a 5xx', async () => {
    const operations: Operation[] = [...operationsOf(publicDoc, '/api/public/v1'), ...operationsOf(managementDoc, '/api/v1')];
    assert.ok(operations.length > 50, 'both documents were read');
    const next = random(SEED);
    await inParallel(operations, PARALLEL, async (op) => {
      const fixture: Fixture = await fixtureFor(server, op, managementDoc, publicDoc);
      const requests: FuzzRequest[] = systematicRequests(op, fixture.ids);
      for (let round = 1; round < ROUNDS; round++) requests.push(...randomRequests(op, fixture.ids, next, PER_ROUND));
      for (const request of requests) {
        let answer = await send(server, request, fixture.headers);
        if (answer.status === 429 && op.base !== '/api/v1') {
          // A route limit (POST /features: 50 per 5 minutes) ran out: go on with a fresh key.
          await fixture.renewKey();
          answer = await send(server, request, fixture.headers);
        }
        record(request.label, answer.status, answer.text);
      }
    });
    const health = await fetch(`${server.origin}/healthz`);
    assert.equal(health.status, 200);
    assert.deepEqual(findings, [], `${findings.length} of ${sent} requests answered 5xx`);
  });

  it('answers no malformed tool call on /mcp with a 5xx', async () => {
    const project = await server.createProject();
    const key = (await createApiKey(server.db, project.projectId, 'live', ALL_KEY_SCOPES)).key;
    const headers = { authorization: `Bearer ${key}`, accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' };
    const listed = await send(server, { method: 'POST', url: '/mcp', body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) }, headers);
    assert.equal(listed.status, 200, listed.text);
    const tools: McpTool[] = JSON.parse(listed.text).result.tools;
    assert.ok(tools.length >= 4);
    const next = random(SEED + 1);
    const before = findings.length;
    for (const request of mcpRequests(tools, project.projectId, ROUNDS > 1 ? next : undefined, (ROUNDS - 1) * PER_ROUND)) {
      const answer = await send(server, { method: 'POST', url: '/mcp', body: request.body }, headers);
      record(`/mcp ${request.label}`, answer.status, answer.text);
    }
    assert.equal((await fetch(`${server.origin}/healthz`)).status, 200);
    assert.deepEqual(findings.slice(before), []);
  });
});
