/** The MCP Inspector's CLI, as a user would run it, lists and calls the hosted tools. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { startMcpTestServer } from '../support/mcp.ts';
import type { TestProject, TestServer } from '../support/server.ts';

const run = promisify(execFile);
const require = createRequire(import.meta.url);
// `npx @modelcontextprotocol/inspector` runs this file (the package's `inspector` bin).
const INSPECTOR = join(
  dirname(require.resolve('@modelcontextprotocol/inspector/package.json')),
  'clients/launcher/build/index.js',
);

describe('MCP Inspector CLI against /mcp', () => {
  let server: TestServer;
  let project: TestProject;
  let home: string;

  const inspector = async (...args: string[]) => {
    const { stdout } = await run(
      process.execPath,
      [
        INSPECTOR,
        '--cli',
        `${server.origin}/mcp`,
        '--transport',
        'http',
        '--header',
        `Authorization: Bearer ${project.liveKey}`,
        ...args,
      ],
      // The CLI keeps a catalog of servers; keep it out of the user's home.
      { env: { ...process.env, MCP_CATALOG_PATH: join(home, 'mcp.json') }, timeout: 60_000 },
    );
    return JSON.parse(stdout);
  };

  before(async () => {
    home = mkdtempSync(join(tmpdir(), 'signpost-inspector-'));
    server = await startMcpTestServer();
    project = await server.createProject({ scopes: ['features:write', 'translations:read', 'translations:write'] });
  });
  after(async () => {
    await server.close();
    rmSync(home, { recursive: true, force: true });
  });

  it('lists the tools', async () => {
    const listed = await inspector('--method', 'tools/list');
    assert.deepEqual(listed.tools.map((tool: { name: string }) => tool.name).sort(), [
      'audit',
      'changelog',
      'create_feature',
      'errors',
      'feedback',
      'list_translation_keys',
      'logs',
      'releases',
      'send_feedback',
      'site_config',
      'translations_status',
      'update_feature_status',
      'upsert_translation_keys',
    ]);
  });

  it('upserts a translation key and lists it back', async () => {
    const upserted = await inspector(
      '--method',
      'tools/call',
      '--tool-name',
      'upsert_translation_keys',
      '--tool-arg',
      `projectId=${project.projectId}`,
      'keys=[{"key":"welcome.title","defaultText":"Welcome","translations":{"de":"Willkommen"}}]',
    );
    assert.deepEqual(upserted.structuredContent.created, ['welcome.title']);
    const listed = await inspector(
      '--method',
      'tools/call',
      '--tool-name',
      'list_translation_keys',
      '--tool-arg',
      `projectId=${project.projectId}`,
      'missingLocale=fr',
    );
    assert.equal(listed.structuredContent.total, 1);
    assert.deepEqual(listed.structuredContent.keys[0].translations, { de: 'Willkommen' });
  });
});
