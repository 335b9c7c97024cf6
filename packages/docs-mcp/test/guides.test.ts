/** The guides (hosted MCP server, Sentry DSN, OFREP, OTLP) as resources of the built server, over stdio. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { connect, isolatedEnv, tempDir } from './support.ts';

describe('docs server guides', () => {
  const home = tempDir('home');
  const cwd = tempDir('cwd');
  let client: Client;

  before(async () => {
    ({ client } = await connect({ cwd: cwd.path, env: isolatedEnv(home.path) }));
  });
  after(async () => {
    await client?.close();
    home.remove();
    cwd.remove();
  });

  it('lists the hosted MCP and protocol guides as resources and reads them', async () => {
    const { resources } = await client.listResources();
    assert.deepEqual(resources.map((r) => r.uri).sort(), [
      'signpost-docs://guides/hosted-mcp',
      'signpost-docs://guides/ofrep',
      'signpost-docs://guides/otlp',
      'signpost-docs://guides/sentry-dsn',
    ]);
    const expected: Record<string, RegExp> = {
      'hosted-mcp': /errors:triage/,
      ofrep: /\/ofrep\/v1\/evaluate\/flags/,
      otlp: /\/otlp\/v1\/logs/,
      'sentry-dsn': /\/api\/<project number>\/envelope\//,
    };
    for (const [name, pattern] of Object.entries(expected)) {
      const { contents } = await client.readResource({ uri: `signpost-docs://guides/${name}` });
      assert.equal(contents[0]?.mimeType, 'text/markdown');
      assert.match((contents[0] as { text: string }).text, pattern);
    }
  });
});
