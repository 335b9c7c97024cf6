/**
 * Validators and response serializers compile on first use (memory: see lazy-compile.ts), so a
 * schema that cannot compile would otherwise surface only when a client first calls its route.
 * Here every route's schemas of a started server are compiled, and requests still validate and
 * serialise as before.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { compileEverything } from '../../src/http/lazy-compile.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

describe('schemas compiled on first use', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server?.close();
  });

  it('every validator and serializer of every route compiles', async () => {
    const compiled = compileEverything();
    // A few hundred routes, each with a validator per part and a serializer per status.
    assert.ok(compiled > 300, `${compiled} compiled`);
    assert.equal(compileEverything(), 0, 'nothing left waiting');
  });

  it('a request is still validated (400 with field details) and serialised by its schema', async () => {
    const bad = await fetch(`${server.baseUrl}/features`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': server.demoKey },
      body: JSON.stringify({ title: 'x' }),
    });
    assert.equal(bad.status, 400);
    const refusal = (await bad.json()) as { details: { field: string }[] };
    assert.ok(refusal.details.some((detail) => detail.field === 'title'));
    const list = await fetch(`${server.baseUrl}/features?limit=1`, { headers: { 'x-api-key': server.demoKey } });
    assert.equal(list.status, 200);
    const body = (await list.json()) as { features: unknown[] };
    assert.ok(Array.isArray(body.features));
  });
});
