/** The built server, run as a process and driven through the MCP SDK's stdio client. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { content } from '../dist/generated/content.js';
import { PACKAGE_NAMES } from '../dist/content.js';
import { connect, isolatedEnv, listTree, tempDir, textOf } from './support.ts';

const DOC_TOOLS = ['get_package_docs', 'get_installation_guide', 'get_api_reference', 'get_code_examples'] as const;

describe('docs server over stdio', () => {
  const home = tempDir('home');
  const cwd = tempDir('cwd');
  let client: Client;
  let stderr: () => string;

  before(async () => {
    ({ client, stderr } = await connect({ cwd: cwd.path, env: isolatedEnv(home.path) }));
  });
  after(async () => {
    await client?.close();
    home.remove();
    cwd.remove();
  });

  it('identifies itself and lists exactly the five tools, each taking `package`', async () => {
    assert.equal(client.getServerVersion()?.name, 'signpost-docs');
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), ['list_packages', ...DOC_TOOLS].sort());
    for (const tool of tools) {
      const pkg = (tool.inputSchema.properties as Record<string, { enum?: string[] }>)['package'];
      assert.deepEqual(pkg?.enum, [...PACKAGE_NAMES], `${tool.name} takes package`);
      assert.equal(tool.annotations?.readOnlyHint, true);
      const required = tool.inputSchema.required ?? [];
      assert.equal(required.includes('package'), tool.name !== 'list_packages', `${tool.name}: package required?`);
    }
  });

  it('list_packages gives every package with description and install command', async () => {
    const result = await client.callTool({ name: 'list_packages', arguments: {} });
    assert.notEqual(result.isError, true);
    const text = textOf(result);
    for (const p of content.packages) {
      assert.ok(text.includes(`**${p.name}** (\`${p.npmName}\``), `lists ${p.name}`);
      assert.ok(text.includes(`Install: \`npm install ${p.npmName}\``), `install command of ${p.name}`);
      assert.ok(text.includes(p.description), `description of ${p.name}`);
    }
  });

  it('list_packages narrows to one package when asked', async () => {
    const text = textOf(await client.callTool({ name: 'list_packages', arguments: { package: 'logger' } }));
    assert.ok(text.includes('@signpost/logger'));
    assert.ok(!text.includes('@signpost/i18n'));
  });

  for (const tool of DOC_TOOLS) {
    it(`${tool} answers for every package`, async () => {
      for (const p of content.packages) {
        const result = await client.callTool({ name: tool, arguments: { package: p.name } });
        assert.notEqual(result.isError, true, `${tool}(${p.name})`);
        const text = textOf(result);
        assert.ok(text.includes(p.npmName), `${tool}(${p.name}) names the package`);
        if (!p.available) {
          assert.match(text, /did not exist when this docs server was built/);
          continue;
        }
        if (tool === 'get_installation_guide' || tool === 'get_package_docs')
          assert.ok(text.includes(p.installCommand));
        if (tool === 'get_api_reference' || tool === 'get_package_docs') {
          for (const f of p.api.files)
            assert.ok(text.includes(f.text.slice(0, 200)), `${tool}(${p.name}) has ${f.path}`);
        }
        if (tool === 'get_code_examples' || tool === 'get_package_docs') {
          for (const e of p.examples)
            assert.ok(text.includes(e.path) && text.includes(e.code.slice(0, 200)), `${tool}(${p.name}) has ${e.path}`);
        }
      }
    });

    it(`${tool} with an unknown package is a tool error listing the valid names`, async () => {
      const result = await client.callTool({ name: tool, arguments: { package: 'error-trackr' } });
      assert.equal(result.isError, true);
      const text = textOf(result);
      assert.match(text, /Unknown package "error-trackr"/);
      for (const name of PACKAGE_NAMES) assert.ok(text.includes(name), `lists ${name}`);
    });
  }

  it('list_packages with an unknown package is a tool error too', async () => {
    const result = await client.callTool({ name: 'list_packages', arguments: { package: 'nope' } });
    assert.equal(result.isError, true);
    assert.match(textOf(result), /Valid package names: error-tracker, feature-reporter, site-manager, i18n, logger/);
  });

  it('a missing package is a tool error listing the valid names', async () => {
    const result = await client.callTool({ name: 'get_api_reference', arguments: {} });
    assert.equal(result.isError, true);
    assert.match(
      textOf(result),
      /Missing "package"\. Valid package names: error-tracker, feature-reporter, site-manager, i18n, logger/,
    );
  });

  it('get_code_examples filters by platform', async () => {
    for (const p of content.packages.filter((x) => x.available)) {
      for (const platform of ['browser', 'node', 'react', 'nextjs'] as const) {
        const text = textOf(
          await client.callTool({ name: 'get_code_examples', arguments: { package: p.name, platform } }),
        );
        for (const e of p.examples)
          assert.equal(text.includes(`: ${e.path}\n`), e.platform === platform, `${p.name} ${platform} ${e.path}`);
      }
    }
  });

  it('writes no file to its home, working directory or temp dir, and nothing to stderr', async () => {
    // Every tool has been called by now; call them once more to be sure.
    for (const tool of ['list_packages', ...DOC_TOOLS])
      await client.callTool({ name: tool, arguments: { package: 'logger' } });
    assert.deepEqual(listTree(home.path), []);
    assert.deepEqual(listTree(cwd.path), []);
    assert.equal(stderr(), '');
  });
});
