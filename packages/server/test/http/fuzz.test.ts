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
import { ALL_KEY_SCOPES, createApiKey } from '../../src/resources/projects/index.ts';
import { fixtureFor, type Fixture } from '../support/fuzz-fixtures.ts';
import { mcpRequests, type McpTool } from '../support/fuzz-mcp.ts';
import {
  operationsOf,
  randomRequests,
  systematicRequests,
  type FuzzRequest,
  type Operation,
} from '../support/fuzz-requests.ts';
import { random, type Schema } from '../support/fuzz-values.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

/** Operations whose valid answer is a stream that never ends (server-sent events). */
const STREAMS = new Set(['/projects/{projectId}/logs/tail']);
const ROUNDS = Math.max(1, Number(process.env['FUZZ_ROUNDS'] ?? 1));
const SEED = Number(process.env['FUZZ_SEED'] ?? Math.floor(Math.random() * 2 ** 31));
/** Random combined breakages per operation and extra round. */
const PER_ROUND = 25;
/** Operations fuzzed at once (each on its own fixture, so they do not race each other). */
const PARALLEL = Number(process.env['FUZZ_PARALLEL'] ?? 6);

interface Finding {
  label: string;
  status: number | string;
  body: string;
}

async function send(
  server: TestServer,
  request: { method: string; url: string; body?: string },
  headers: Record<string, string>,
) {
  try {
    const response = await fetch(server.origin + request.url, {
      method: request.method,
      headers: { ...(request.body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      body: request.body ?? null,
    });
    return { status: response.status, text: await response.text() };
  } catch (error) {
    return { status: `network error: ${String(error)}`, text: '' };
  }
}

async function inParallel<T>(items: T[], width: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
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

  it('answers no malformed request to any operation of either API with a 5xx', { timeout: 300_000 }, async () => {
    const operations: Operation[] = [
      ...operationsOf(publicDoc, '/api/public/v1'),
      // The live tail answers a stream that stays open: its bad input is tested in logs/lines.test.ts.
      ...operationsOf(managementDoc, '/api/v1').filter((op) => !STREAMS.has(op.path)),
    ];
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
    const headers = {
      authorization: `Bearer ${key}`,
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
    };
    const listed = await send(
      server,
      { method: 'POST', url: '/mcp', body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) },
      headers,
    );
    assert.equal(listed.status, 200, listed.text);
    const tools: McpTool[] = JSON.parse(listed.text).result.tools;
    assert.ok(tools.length >= 4);
    const next = random(SEED + 1);
    const before = findings.length;
    for (const request of mcpRequests(
      tools,
      project.projectId,
      ROUNDS > 1 ? next : undefined,
      (ROUNDS - 1) * PER_ROUND,
    )) {
      const answer = await send(server, { method: 'POST', url: '/mcp', body: request.body }, headers);
      record(`/mcp ${request.label}`, answer.status, answer.text);
    }
    assert.equal((await fetch(`${server.origin}/healthz`)).status, 200);
    assert.deepEqual(findings.slice(before), []);
  });

  it('answers no malformed request to the endpoints outside the documents (OAuth, discovery, /mcp) with a 5xx', async () => {
    const odd = ['fuzz\u0000text', 'x'.repeat(4000), '1e400', "' OR 1=1 --", '%zz'];
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const json = { 'content-type': 'application/json' };
    const requests: { label: string; method: string; url: string; body?: string; headers?: Record<string, string> }[] =
      [];
    for (const value of odd) {
      const q = encodeURIComponent(value);
      for (const url of [
        `/oauth/authorize?response_type=code&client_id=${q}&redirect_uri=${q}&code_challenge=${q}&code_challenge_method=S256&state=${q}&scope=${q}&resource=${q}`,
        `/oauth/sign-in?return_to=${q}`,
        `/.well-known/oauth-authorization-server?x=${q}`,
        `/.well-known/oauth-protected-resource/mcp?x=${q}`,
        `/api/v1/auth/verify-email?token=${q}`,
        `/api/v1/auth/reset-password?token=${q}`,
        `/api/v1/auth/oidc/callback?state=${q}&code=${q}`,
        `/api/v1/invites/${q}`,
        `/mcp?x=${q}`,
      ])
        requests.push({ label: `GET ${url.slice(0, 60)}`, method: 'GET', url });
      const fields = [
        'grant_type',
        'code',
        'client_id',
        'client_secret',
        'redirect_uri',
        'code_verifier',
        'refresh_token',
        'token',
        'resource',
        'email',
        'password',
        'decision',
        'csrf',
      ];
      const body = fields.map((field) => `${field}=${q}`).join('&');
      for (const url of ['/oauth/token', '/oauth/revoke', '/oauth/authorize', '/oauth/sign-in']) {
        requests.push({ label: `POST ${url} form ${value.slice(0, 12)}`, method: 'POST', url, body, headers: form });
      }
      requests.push({
        label: `POST /oauth/register ${value.slice(0, 12)}`,
        method: 'POST',
        url: '/oauth/register',
        headers: json,
        body: JSON.stringify({
          client_name: value,
          redirect_uris: [value, 'http://127.0.0.1/cb'],
          grant_types: [value],
          scope: value,
        }),
      });
    }
    for (const deep of [
      `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`,
      '['.repeat(5000) + ']'.repeat(5000),
      `{"redirect_uris":${'['.repeat(5000)}${']'.repeat(5000)}}`,
    ]) {
      requests.push({
        label: 'POST /oauth/register deep',
        method: 'POST',
        url: '/oauth/register',
        body: deep,
        headers: json,
      });
      requests.push({
        label: 'POST /oauth/token deep JSON',
        method: 'POST',
        url: '/oauth/token',
        body: deep,
        headers: json,
      });
    }
    const before = findings.length;
    for (const request of requests) {
      const answer = await send(server, request, request.headers ?? {});
      record(request.label, answer.status, answer.text);
    }
    assert.equal((await fetch(`${server.origin}/healthz`)).status, 200);
    assert.deepEqual(findings.slice(before), []);
  });
});
