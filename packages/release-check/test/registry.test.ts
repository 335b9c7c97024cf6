/**
 * Every published package as a user gets it from a registry. Verdaccio runs on 127.0.0.1 with a
 * temporary storage: `@signpost/*` only from what this test publishes there (no uplink), everything
 * else proxied from the registry npm is configured with. Each package is packed (its prepare /
 * prepack builds it), checked with publint and @arethetypeswrong/cli, and published; then, in fresh
 * temporary directories with `npm_config_registry` pointed at Verdaccio and an empty npm cache,
 * the documented commands run exactly as the READMEs write them:
 *
 * - `npx -y @signpost/docs-mcp@latest`, answered by the MCP SDK's stdio client (tools/list);
 * - `npx @signpost/cli@latest mcp setup --dry-run` in a fake home with Cursor "installed";
 * - `npx @signpost/server`: a server on SQLite in the current directory (./data), `/readyz` 200,
 *   the dashboard served from the package; then a new Vite app with the five SDKs, built, run in
 *   Chromium, submits a feature request to it;
 * - `npm install @signpost/<sdk>` for each SDK (and `npm install pino pino-abstract-transport`),
 *   then an ES module app and a CommonJS app importing every SDK, run on the oldest Node.js the
 *   SDKs' `engines` claim (20.19.0, the `node` package from the registry).
 *
 * Verdaccio itself (6.10.4) and Node.js 20.19.0 are installed once into .tmp/ (git-ignored) and
 * reused. Verdaccio is not a workspace dependency: one of its dependencies asks for `node-fetch@cjs`,
 * a dist-tag the registry no longer has, which an `overrides` entry of its own install fixes.
 *
 * Takes 4 minutes here (2 cores; 7 when other work shares them): 2 to 4 packing (each library's tsc build, the
 * server's build and the dashboard's Vite build), the rest for the installs through the proxy (an
 * empty npm cache each run) and the commands (the server's `npx` install and start ~50 s, the Vite
 * app ~60 s, docs-mcp ~30 s, the Node.js 20.19 app ~30 s).
 */
import assert from 'node:assert/strict';
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { chromium } from 'playwright-core';
import { publint } from 'publint';

const here = fileURLToPath(new URL('..', import.meta.url));
const root = join(here, '..', '..');
const cacheDir = join(here, '.tmp');
const VERDACCIO_VERSION = '6.10.4';
/** The oldest Node.js the SDKs' `engines` claim. */
const OLDEST_NODE = '20.19.0';

const SDKS = ['error-tracker', 'feature-reporter', 'site-manager', 'i18n', 'logger'];
/** Publish order: what others depend on first (the registry does not check, but a reader might). */
const PACKAGES = ['sdk-core', ...SDKS, 'docs-mcp', 'cli', 'server'];
/** Packages with importable entry points: their types are checked for ESM and CJS consumers. */
const LIBRARIES = ['sdk-core', ...SDKS, 'docs-mcp'];

const work = mkdtempSync(join(tmpdir(), 'signpost-registry-'));
const npmCache = join(work, 'npm-cache');
const userConfig = join(work, 'npmrc');
let registry = '';
let verdaccio: ChildProcess | undefined;
const tarballs = new Map<string, string>();

/** The outer `npm test`'s environment minus its npm_* settings, so nested npm runs are clean. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!/^npm_/i.test(key)) env[key] = value;
  return { ...env, ...extra };
}

/** A user's shell pointed at the test registry, with a cache of its own. */
function userEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return cleanEnv({
    npm_config_registry: registry,
    npm_config_userconfig: userConfig,
    npm_config_cache: npmCache,
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
    ...extra,
  });
}

function run(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv; timeout?: number }) {
  const result = spawnSync(command, args, {
    cwd: options.cwd,
    env: options.env ?? cleanEnv(),
    encoding: 'utf8',
    timeout: options.timeout ?? 300_000,
  });
  assert.equal(
    result.status,
    0,
    `${command} ${args.join(' ')} (in ${options.cwd}) failed:\n${result.stdout}\n${result.stderr}`,
  );
  return result;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

async function waitFor(url: string, timeoutMs: number, alive: () => boolean = () => true): Promise<Response> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    assert.ok(alive(), `the process answering ${url} exited`);
    try {
      const response = await fetch(url);
      if (response.ok) return response;
      last = response.status;
    } catch (error) {
      last = error;
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`${url} did not answer 200 within ${timeoutMs} ms (last: ${String(last)})`);
}

/** Installs `specs` into .tmp/<name> once (npm runs the `node` package's install script only when allowed). */
function cachedInstall(name: string, manifest: Record<string, unknown>, check: string): string {
  const dir = join(cacheDir, name);
  if (existsSync(join(dir, check))) return dir;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: `release-check-${name}`, private: true, ...manifest }),
  );
  run('npm', ['install', '--no-audit', '--no-fund', '--foreground-scripts'], { cwd: dir });
  assert.ok(existsSync(join(dir, check)), `${name} installed`);
  return dir;
}

function verdaccioConfig(storage: string, upstream: string): string {
  return `storage: ${JSON.stringify(storage)}
auth:
  htpasswd:
    file: ${JSON.stringify(join(storage, 'htpasswd'))}
    max_users: 10
uplinks:
  upstream:
    url: ${JSON.stringify(upstream)}
    timeout: 60s
packages:
  '@signpost/*':
    access: $all
    publish: $authenticated
  '**':
    access: $all
    proxy: upstream
server:
  keepAliveTimeout: 60
log: { type: stdout, format: pretty, level: error }
`;
}

function tarballOf(dir: string): string {
  const cwd = join(root, 'packages', dir);
  // The build scripts print to stdout too, so the tarball's name comes from the manifest.
  const { name, version } = JSON.parse(readFileSync(join(cwd, 'package.json'), 'utf8')) as {
    name: string;
    version: string;
  };
  run('npm', ['pack', '--pack-destination', join(work, 'tarballs')], { cwd, env: cleanEnv(), timeout: 600_000 });
  const tarball = join(work, 'tarballs', `${name.replace('@', '').replace('/', '-')}-${version}.tgz`);
  assert.ok(existsSync(tarball), `npm pack wrote ${tarball}`);
  return tarball;
}

before(async () => {
  mkdirSync(join(work, 'tarballs'), { recursive: true });
  const verdaccioDir = cachedInstall(
    'verdaccio',
    { dependencies: { verdaccio: VERDACCIO_VERSION }, overrides: { 'node-fetch': '2.7.0' } },
    'node_modules/verdaccio/bin/verdaccio',
  );
  const upstream = run('npm', ['config', 'get', 'registry'], { cwd: work }).stdout.trim();
  const storage = join(work, 'verdaccio');
  mkdirSync(storage, { recursive: true });
  writeFileSync(join(storage, 'config.yaml'), verdaccioConfig(storage, upstream));
  const port = await freePort();
  registry = `http://127.0.0.1:${port}/`;
  verdaccio = spawn(
    process.execPath,
    [
      join(verdaccioDir, 'node_modules/verdaccio/bin/verdaccio'),
      '--config',
      join(storage, 'config.yaml'),
      '--listen',
      `127.0.0.1:${port}`,
    ],
    { cwd: storage, env: cleanEnv(), stdio: ['ignore', 'inherit', 'inherit'] },
  );
  await waitFor(`${registry}-/ping`, 60_000, () => verdaccio?.exitCode === null);

  // A publisher's account (Verdaccio's htpasswd), as `npm adduser` would make it.
  const user = await fetch(`${registry}-/user/org.couchdb.user:release-check`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'release-check', password: 'release-check-password' }),
  });
  assert.equal(user.status, 201, await user.clone().text());
  const { token } = (await user.json()) as { token: string };
  writeFileSync(userConfig, `//127.0.0.1:${port}/:_authToken=${token}\n`);

  for (const dir of PACKAGES) {
    const tarball = tarballOf(dir);
    tarballs.set(dir, tarball);
    run('npm', ['publish', tarball, '--registry', registry], { cwd: work, env: userEnv() });
  }
});

after(async () => {
  verdaccio?.kill();
  rmSync(work, { recursive: true, force: true });
});

/**
 * A new Vite app with the five SDKs from the registry, built, served from its dist/ and opened in
 * Chromium: it loads every SDK and submits a feature request to the server at `base` with the
 * README's demo key. Returns what the page saw.
 */
async function viteAppInChromium(base: string): Promise<{ loaded: string[]; created: { id?: unknown } }> {
  const app = mkdtempSync(join(work, 'vite-app-'));
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'vite-app', private: true, type: 'module' }));
  const sdks = SDKS.map((sdk) => `@signpost/${sdk}`);
  run('npm', ['install', ...sdks], { cwd: app, env: userEnv() });
  run('npm', ['install', '--save-dev', 'vite'], { cwd: app, env: userEnv() });
  writeFileSync(
    join(app, 'index.html'),
    '<!doctype html><html><head><title>vite app</title></head><body><script type="module" src="/main.js"></script></body></html>',
  );
  writeFileSync(
    join(app, 'main.js'),
    `import { createErrorTracker } from '@signpost/error-tracker';
import { createFeatureReporter } from '@signpost/feature-reporter';
import { createSiteManager } from '@signpost/site-manager';
import { createI18n } from '@signpost/i18n';
import { createLogger } from '@signpost/logger';

const apiKey = 'svc_live_demo_signpostpublicdemokey0001';
const baseUrl = ${JSON.stringify(`${base}/api/public/v1`)};
const loaded = [createErrorTracker, createFeatureReporter, createSiteManager, createI18n, createLogger].map((f) => typeof f);
createFeatureReporter({ apiKey, baseUrl })
  .submitFeature({ title: 'Sent from a Vite app', description: 'Built with Vite, run in Chromium.' })
  .then((created) => { document.body.dataset.result = JSON.stringify({ loaded, created }); })
  .catch((error) => { document.body.dataset.result = JSON.stringify({ loaded, error: String(error) }); });
`,
  );
  run('npx', ['vite', 'build'], { cwd: app, env: userEnv() });

  const dist = join(app, 'dist');
  const site = createHttpServer((request, response) => {
    const path = join(dist, request.url === '/' ? 'index.html' : (request.url ?? '').split('?')[0]);
    if (!path.startsWith(dist) || !existsSync(path)) return void response.writeHead(404).end();
    const type = path.endsWith('.js') ? 'text/javascript' : path.endsWith('.css') ? 'text/css' : 'text/html';
    response.writeHead(200, { 'content-type': type }).end(readFileSync(path));
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  const address = site.address();
  const browser = await chromium.launch({
    executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu'],
  });
  try {
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/`);
    await page.waitForSelector('body[data-result]', { state: 'attached', timeout: 30_000 });
    return JSON.parse((await page.getAttribute('body', 'data-result')) ?? '{}');
  } finally {
    await browser.close();
    site.close();
  }
}

describe('published packages', () => {
  it('publint finds nothing in any tarball', async () => {
    for (const dir of PACKAGES) {
      const tarball = readFileSync(tarballs.get(dir) as string);
      const { messages } = await publint({
        pack: { tarball: tarball.buffer.slice(tarball.byteOffset, tarball.byteOffset + tarball.byteLength) },
        level: 'suggestion',
        strict: true,
      });
      assert.deepEqual(
        messages.map((m) => `${m.code} ${m.path.join('.')}`),
        [],
        `publint on @signpost/${dir}`,
      );
    }
  });

  it('types resolve for ESM and CJS consumers (@arethetypeswrong/cli)', () => {
    // The SDKs are ES modules: CommonJS loads them with require() (Node.js 20.19+, proven below),
    // which TypeScript types under "module": "node20"/"nodenext" (5.8+) but not under "node16",
    // so that one rule is off; node10 resolution (no `exports`) is not claimed.
    const attw = join(root, 'node_modules', '.bin', 'attw');
    for (const dir of LIBRARIES) {
      run(attw, [tarballs.get(dir) as string, '--profile', 'node16', '--ignore-rules', 'cjs-resolves-to-esm'], {
        cwd: work,
      });
    }
  });

  it('every tarball carries LICENSE, and the bins are executable', () => {
    for (const dir of PACKAGES) {
      const list = run('tar', ['-tzvf', tarballs.get(dir) as string], { cwd: work }).stdout;
      assert.match(list, /package\/LICENSE\n/, `LICENSE in @signpost/${dir}`);
      const manifest = JSON.parse(
        run('tar', ['-xzOf', tarballs.get(dir) as string, 'package/package.json'], { cwd: work }).stdout,
      ) as { bin?: Record<string, string> };
      for (const bin of Object.values(manifest.bin ?? {})) {
        const line = list.split('\n').find((l) => l.endsWith(`package/${bin.replace(/^\.\//, '')}`));
        assert.ok(line, `${bin} in @signpost/${dir}`);
        assert.match(line, /^-rwx/, `${bin} of @signpost/${dir} is executable`);
      }
    }
  });
});

describe('the documented commands, from the registry', () => {
  it('npx -y @signpost/docs-mcp@latest answers tools/list over stdio', async () => {
    const cwd = mkdtempSync(join(work, 'docs-mcp-'));
    const home = mkdtempSync(join(work, 'home-'));
    const transport = new StdioClientTransport({
      command: 'npx',
      args: ['-y', '@signpost/docs-mcp@latest'],
      env: userEnv({ HOME: home }) as Record<string, string>,
      cwd,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const client = new Client({ name: 'release-check', version: '0.0.0' });
    try {
      await client.connect(transport);
      const { tools } = await client.listTools();
      assert.ok(
        tools.some((tool) => tool.name === 'list_packages'),
        `tools: ${tools.map((t) => t.name).join(', ')}\n${stderr}`,
      );
      const listed = await client.callTool({ name: 'list_packages', arguments: {} });
      assert.match(JSON.stringify(listed.content), /@signpost\/error-tracker/);
    } finally {
      await client.close();
    }
  });

  it('npx @signpost/cli@latest mcp setup --dry-run shows the change and writes nothing', () => {
    const cwd = mkdtempSync(join(work, 'cli-'));
    const home = mkdtempSync(join(work, 'home-'));
    mkdirSync(join(home, '.cursor'));
    const result = run('npx', ['@signpost/cli@latest', 'mcp', 'setup', '--dry-run'], {
      cwd,
      env: userEnv({ HOME: home, XDG_CONFIG_HOME: join(home, '.config') }),
    });
    assert.match(result.stdout, /@signpost\/docs-mcp@latest/, result.stdout + result.stderr);
    assert.deepEqual(readdirSync(join(home, '.cursor')), [], 'dry run wrote nothing');
  });

  it('npx @signpost/server starts a server on SQLite in the current directory; a Vite app reports to it from Chromium', async () => {
    const cwd = mkdtempSync(join(work, 'server-'));
    const port = await freePort();
    const server = spawn('npx', ['@signpost/server'], {
      cwd,
      env: userEnv({ PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' }),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    server.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    server.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    try {
      const base = `http://127.0.0.1:${port}`;
      await waitFor(`${base}/readyz`, 240_000, () => server.exitCode === null).catch((error: Error) => {
        throw new Error(`${error.message}\n${output}`);
      });
      assert.ok(existsSync(join(cwd, 'data')), `./data created in the current directory: ${readdirSync(cwd)}`);
      const demo = await fetch(`${base}/api/public/v1/roadmap`, {
        headers: { 'x-api-key': 'svc_live_demo_signpostpublicdemokey0001' },
      });
      assert.equal(demo.status, 200, 'the demo project answers the README example');
      const dashboard = await fetch(`${base}/app/`);
      assert.equal(dashboard.status, 200, 'the dashboard build ships in the package');
      assert.match(await dashboard.text(), /<script[^>]+src="\/app\//);

      // A new Vite app with the five SDKs, built and run in Chromium, reports to this server.
      const seen = await viteAppInChromium(base);
      assert.deepEqual(seen.loaded, Array(SDKS.length).fill('function'), JSON.stringify(seen));
      assert.equal(typeof seen.created?.id, 'string', `the feature request was created: ${JSON.stringify(seen)}`);
    } finally {
      if (server.pid) process.kill(-server.pid, 'SIGTERM');
      await new Promise((resolve) => (server.exitCode === null ? server.once('exit', resolve) : resolve(null)));
    }
  });

  it(`the SDKs install with the README commands and load as ESM and CommonJS on Node.js ${OLDEST_NODE}`, () => {
    const nodeDir = cachedInstall(
      `node-${OLDEST_NODE}`,
      { dependencies: { node: OLDEST_NODE }, allowScripts: { node: true } },
      'node_modules/node/bin/node',
    );
    const oldNode = join(nodeDir, 'node_modules', 'node', 'bin', 'node');
    assert.equal(execFileSync(oldNode, ['--version'], { encoding: 'utf8' }).trim(), `v${OLDEST_NODE}`);
    const env = userEnv({ PATH: `${dirname(oldNode)}${delimiter}${process.env['PATH'] ?? ''}` });

    const app = mkdtempSync(join(work, 'node-app-'));
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'node-app', private: true }));
    let log = '';
    for (const sdk of ['sdk-core', ...SDKS]) {
      log += run('npm', ['install', `@signpost/${sdk}`], { cwd: app, env }).stderr;
    }
    log += run('npm', ['install', 'pino', 'pino-abstract-transport'], { cwd: app, env }).stderr;
    assert.doesNotMatch(log, /EBADENGINE/, log);

    const factories: Record<string, string> = {
      'sdk-core': 'createTransport',
      'error-tracker': 'createErrorTracker',
      'feature-reporter': 'createFeatureReporter',
      'site-manager': 'createSiteManager',
      i18n: 'createI18n',
      logger: 'createLogger',
    };
    const entries = Object.entries(factories);
    writeFileSync(
      join(app, 'app.mjs'),
      `${entries.map(([sdk, name], i) => `import { ${name} as f${i} } from '@signpost/${sdk}';`).join('\n')}
import { init } from '@signpost/error-tracker/node';
import transport from '@signpost/logger/pino';
const all = [${entries.map((_, i) => `f${i}`).join(', ')}, init, transport];
console.log(JSON.stringify({ version: process.version, types: all.map((f) => typeof f) }));
`,
    );
    writeFileSync(
      join(app, 'app.cjs'),
      `const all = [${entries.map(([sdk, name]) => `require('@signpost/${sdk}').${name}`).join(', ')},
  require('@signpost/error-tracker/node').init, require('@signpost/logger/pino').default];
console.log(JSON.stringify({ version: process.version, types: all.map((f) => typeof f) }));
`,
    );
    for (const file of ['app.mjs', 'app.cjs']) {
      const out = run(oldNode, [file], { cwd: app, env });
      const result = JSON.parse(out.stdout) as { version: string; types: string[] };
      assert.equal(result.version, `v${OLDEST_NODE}`);
      assert.deepEqual(result.types, Array(entries.length + 2).fill('function'), `${file}: ${out.stdout}${out.stderr}`);
    }
  });
});
