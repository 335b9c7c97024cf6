/** The built server, driven by the official MCP Inspector's CLI (a devDependency, so nothing is downloaded). */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { PACKAGE_NAMES } from '../dist/content.js';
import { isolatedEnv, packageDir, serverEntry, tempDir } from './support.ts';

const run = promisify(execFile);

function inspectorCli(): string {
  for (let dir = packageDir; ; dir = dirname(dir)) {
    const pkgDir = join(dir, 'node_modules', '@modelcontextprotocol', 'inspector');
    if (existsSync(join(pkgDir, 'package.json'))) {
      const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')) as { bin: Record<string, string> };
      return join(pkgDir, pkg.bin['mcp-inspector']!);
    }
    if (dirname(dir) === dir) throw new Error('@modelcontextprotocol/inspector is not installed (npm install)');
  }
}

async function inspect(args: string[]): Promise<{ code: number; json: unknown; stdout: string }> {
  const home = tempDir('inspector');
  try {
    const result = await run(process.execPath, [inspectorCli(), '--cli', process.execPath, serverEntry, ...args], {
      cwd: home.path,
      env: isolatedEnv(home.path),
      timeout: 60_000,
    }).then(
      (r) => ({ code: 0, stdout: r.stdout }),
      (e: { code?: number; stdout?: string }) => ({ code: e.code ?? -1, stdout: e.stdout ?? '' }),
    );
    const json = JSON.parse(
      result.stdout.slice(result.stdout.indexOf('{'), result.stdout.indexOf('\n}\n') + 2),
    ) as unknown;
    return { ...result, json };
  } finally {
    home.remove();
  }
}

describe('MCP Inspector CLI', () => {
  it('tools/list shows the five tools', async () => {
    const { code, json } = await inspect(['--method', 'tools/list']);
    assert.equal(code, 0);
    const names = (json as { tools: { name: string }[] }).tools.map((t) => t.name).sort();
    assert.deepEqual(names, [
      'get_api_reference',
      'get_code_examples',
      'get_installation_guide',
      'get_package_docs',
      'list_packages',
    ]);
  });

  it('tools/call get_installation_guide answers', async () => {
    const { code, json } = await inspect([
      '--method',
      'tools/call',
      '--tool-name',
      'get_installation_guide',
      '--tool-arg',
      'package=logger',
    ]);
    assert.equal(code, 0);
    const result = json as { isError?: boolean; content: { text: string }[] };
    assert.notEqual(result.isError, true);
    assert.match(result.content[0]!.text, /npm install @signpost\/logger/);
  });

  it('tools/call with an unknown package reports the tool error', async () => {
    const { code, json } = await inspect([
      '--method',
      'tools/call',
      '--tool-name',
      'get_package_docs',
      '--tool-arg',
      'package=nope',
    ]);
    assert.notEqual(code, 0, 'the Inspector exits non-zero on isError');
    const result = json as { isError?: boolean; content: { text: string }[] };
    assert.equal(result.isError, true);
    for (const name of PACKAGE_NAMES) assert.ok(result.content[0]!.text.includes(name));
  });
});
