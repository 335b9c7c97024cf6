/**
 * A fresh clone's `npm install` runs each workspace's `prepare` script: docs-mcp's must build dist,
 * with an executable bin, or `signpost-docs-mcp` (and `npx @signpost/docs-mcp` from a git checkout)
 * has nothing to run. Runs the script in a copy of the package without dist or generated content,
 * sharing the repository's installed dependencies, then starts the built bin itself over stdio.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, statSync, symlinkSync } from 'node:fs';
import { basename, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { isolatedEnv, packageDir, packagesDir, tempDir } from './support.ts';

describe('npm install builds docs-mcp (its prepare script)', { timeout: 180_000 }, () => {
  const work = tempDir('prepare');
  const copy = join(work.path, 'packages', 'docs-mcp');
  const home = tempDir('prepare-home');

  before(() => {
    mkdirSync(copy, { recursive: true });
    cpSync(packageDir, copy, {
      recursive: true,
      filter: (path) => !['dist', 'node_modules', 'test', 'generated'].includes(basename(path)),
    });
    cpSync(join(packagesDir, '..', 'tsconfig.base.json'), join(work.path, 'tsconfig.base.json'));
    symlinkSync(join(packagesDir, '..', 'node_modules'), join(work.path, 'node_modules'));
  });
  after(() => {
    work.remove();
    home.remove();
  });

  it('builds dist with an executable bin that serves the docs over stdio', async () => {
    const env: NodeJS.ProcessEnv = {};
    for (const [k, v] of Object.entries(process.env)) if (!/^npm_/i.test(k)) env[k] = v;
    assert.equal(existsSync(join(copy, 'dist')), false);
    const prepare = spawnSync('npm', ['run', 'prepare'], { cwd: copy, env, encoding: 'utf8', timeout: 120_000 });
    assert.equal(prepare.status, 0, prepare.stdout + prepare.stderr);

    const bin = join(copy, 'dist', 'index.js');
    assert.equal(
      statSync(bin).mode & 0o111,
      0o111,
      `dist/index.js mode is ${(statSync(bin).mode & 0o777).toString(8)}`,
    );
    // The bin itself, as npm's link runs it: its shebang and execute bit, not `node dist/index.js`.
    const transport = new StdioClientTransport({
      command: bin,
      env: isolatedEnv(home.path),
      cwd: home.path,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'prepare-check', version: '0.0.0' });
    try {
      await client.connect(transport);
      assert.equal(client.getServerVersion()?.name, 'signpost-docs');
      const { tools } = await client.listTools();
      assert.ok(tools.some((t) => t.name === 'list_packages'));
    } finally {
      await client.close();
    }
  });
});
