/**
 * The two OpenAPI documents stay byte-identical unless a change means to alter them: each is
 * compared, exactly as the server sends it, with a committed snapshot in test/fixtures/openapi/.
 * A refactoring (issue 12 moves every route file) must not change a schema, an operation id or
 * their order. After an intended change, `SIGNPOST_UPDATE_SNAPSHOTS=1` rewrites the snapshots;
 * review their diff like code.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { startTestServer, type TestServer } from '../support/server.ts';

const DOCUMENTS = [
  { name: 'public', path: '/api/public/v1/openapi.json' },
  { name: 'management', path: '/api/v1/openapi.json' },
] as const;

// The documents name the server's public address; a fixed one keeps them independent of the port.
const PUBLIC_URL = 'https://signpost.example.test';
const UPDATE = process.env['SIGNPOST_UPDATE_SNAPSHOTS'] === '1';

function snapshotUrl(name: string): URL {
  return new URL(`../fixtures/openapi/${name}.json`, import.meta.url);
}

describe('OpenAPI documents match their snapshots', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ env: { PUBLIC_URL } });
  });
  after(async () => {
    await server?.close();
  });

  for (const document of DOCUMENTS) {
    it(`${document.path} is byte-identical to fixtures/openapi/${document.name}.json`, async () => {
      const response = await fetch(`${server.origin}${document.path}`);
      assert.equal(response.status, 200);
      const body = Buffer.from(await response.arrayBuffer());
      if (UPDATE) writeFileSync(snapshotUrl(document.name), body);
      const snapshot = readFileSync(snapshotUrl(document.name));
      // A structural comparison first: its failure names the changed path, not a byte offset.
      assert.deepEqual(JSON.parse(body.toString('utf8')), JSON.parse(snapshot.toString('utf8')));
      assert.ok(body.equals(snapshot), 'same content, but key order or serialisation changed');
    });
  }
});
