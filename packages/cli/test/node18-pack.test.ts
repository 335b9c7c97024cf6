/**
 * Both packages as users get them: `npm pack` tarballs, installed with Node 18 and its npm (node@18 and
 * npm@10 from the npm registry, cached in the temp dir), the docs server's initialize + tools/list
 * run over stdio on Node 18, and `signpost mcp setup --dry-run` run on Node 18.
 */
import assert from 'node:assert/strict';
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { fakeMachine, packageDir, snapshot } from './support.ts';

const docsDir = join(packageDir, '..', 'docs-mcp');
const runtimeDir = join(tmpdir(), 'signpost-node18-runtime');
const node18 = join(runtimeDir, 'node_modules', 'node', 'bin', 'node');
const npm10 = join(runtimeDir, 'node_modules', 'npm', 'bin', 'npm-cli.js');

/** The environment of the outer `npm test` minus its npm_* settings, so nested npm runs are clean. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^npm_/i.test(k)) env[k] = v;
  return { ...env, ...extra };
}

function run(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv },
): SpawnSyncReturns<string> {
  const result = spawnSync(command, args, {
    cwd: options.cwd,
    env: options.env ?? cleanEnv(),
    encoding: 'utf8',
    timeout: 120_000,
  });
  assert.equal(result.status, 0, `${command} ${args.join(' ')} failed:\n${result.stdout}\n${result.stderr}`);
  return result;
}

function ensureNode18(): void {
  const ok = existsSync(npm10) && spawnSync(node18, ['--version'], { encoding: 'utf8' }).stdout?.startsWith('v18.');
  if (ok) return;
  rmSync(runtimeDir, { recursive: true, force: true });
  mkdirSync(runtimeDir, { recursive: true });
  run('npm', ['install', '--prefix', runtimeDir, '--no-audit', '--no-fund', 'node@18', 'npm@10'], { cwd: runtimeDir });
  assert.match(spawnSync(node18, ['--version'], { encoding: 'utf8' }).stdout, /^v18\./);
}

function pack(dir: string, destination: string): string {
  if (!existsSync(join(dir, 'dist', 'index.js'))) run('npm', ['run', 'build'], { cwd: dir });
  // The dist folders are built by each package's test script; --ignore-scripts keeps this test from
  // rebuilding them under another test's feet.
  const out = run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', destination], { cwd: dir });
  const [info] = JSON.parse(out.stdout.slice(out.stdout.indexOf('['))) as {
    filename: string;
    files: { path: string }[];
  }[];
  assert.ok(info, 'npm pack reported the tarball');
  assert.ok(
    info.files.some((f) => f.path === 'dist/index.js'),
    'tarball has dist/index.js',
  );
  assert.ok(
    !info.files.some((f) => f.path.startsWith('src/') || f.path.startsWith('test/')),
    'tarball has no sources or tests',
  );
  return join(destination, info.filename);
}

describe('npm pack tarballs on Node 18', { timeout: 240_000 }, () => {
  const work = mkdtempSync(join(tmpdir(), 'signpost-pack-'));
  const project = join(work, 'project');
  const path18 = `${dirname(node18)}${delimiter}${process.env['PATH'] ?? ''}`;
  let installLog = '';

  before(() => {
    ensureNode18();
    const tarballs = [pack(docsDir, work), pack(packageDir, work)];
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'node18-check', private: true }));
    const install = run(node18, [npm10, 'install', '--no-audit', '--no-fund', '--prefer-offline', ...tarballs], {
      cwd: project,
      env: cleanEnv({ PATH: path18 }),
    });
    installLog = install.stdout + install.stderr;
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  it('installs without engine warnings', () => {
    assert.doesNotMatch(installLog, /EBADENGINE/, installLog);
    assert.match(
      spawnSync('node', ['--version'], { env: cleanEnv({ PATH: path18 }), encoding: 'utf8' }).stdout,
      /^v18\./,
    );
  });

  it('the docs server answers initialize and tools/list over stdio on Node 18', async () => {
    const home = mkdtempSync(join(work, 'home-'));
    const transport = new StdioClientTransport({
      command: join(project, 'node_modules', '.bin', 'signpost-docs-mcp'),
      env: { PATH: path18, HOME: home },
      cwd: home,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const client = new Client({ name: 'node18-check', version: '0.0.0' });
    try {
      await client.connect(transport);
      assert.equal(client.getServerVersion()?.name, 'signpost-docs');
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((t) => t.name).sort(), [
        'get_api_reference',
        'get_code_examples',
        'get_installation_guide',
        'get_package_docs',
        'list_packages',
      ]);
      const result = await client.callTool({ name: 'list_packages', arguments: {} });
      assert.match(JSON.stringify(result), /npm install @signpost\/error-tracker/);
      const unknown = await client.callTool({ name: 'get_api_reference', arguments: { package: 'x' } });
      assert.equal(unknown.isError, true);
    } finally {
      await client.close();
    }
    assert.equal(stderr, '');
    assert.deepEqual(snapshot(home), {});
  });

  it('signpost mcp setup --dry-run runs on Node 18 and writes nothing', () => {
    const m = fakeMachine('linux', ['cursor', 'vscode']);
    try {
      const before = m.tree();
      const r = spawnSync(
        join(project, 'node_modules', '.bin', 'signpost'),
        ['mcp', 'setup', '--dry-run', '--platform', 'linux'],
        {
          env: { PATH: path18, HOME: m.env['HOME']! },
          encoding: 'utf8',
        },
      );
      assert.equal(r.status, 0, r.stdout + r.stderr);
      assert.match(r.stdout, /\+ {4}"service-docs": \{/);
      assert.match(r.stdout, /Dry run: 2 file\(s\) would change; nothing was written\./);
      assert.deepEqual(m.tree(), before);
      const version = spawnSync(join(project, 'node_modules', '.bin', 'signpost'), ['--version'], {
        env: { PATH: path18 },
        encoding: 'utf8',
      });
      assert.match(version.stdout, /^\d+\.\d+\.\d+/);
    } finally {
      m.remove();
    }
  });
});
