/**
 * `signpost sourcemaps upload` as users run it, end to end: a TypeScript app with the real
 * @sentry/browser, bundled and minified by esbuild with its source map, uploaded by the built CLI
 * to a real Signpost server; the app runs in Chromium, and the frames of the event @sentry/browser
 * sends are resolved by the server to the original file, function and context lines: by release,
 * and by debug ID without a release.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { readFileSync } from 'node:fs';
import { startTestServer, type TestServer } from '@signpost/server/testing';
import { type ManagedProject, managedProject } from '@signpost/server/testing/manage-fixtures';
import { buildMinifiedApp } from '@signpost/server/testing/source-map-app';
import { launchChromium, waitFor } from '@signpost/test-support/browser';
import type { Browser } from 'playwright-core';
import { cliEntry } from './support.ts';

const DEBUG_ID = '5b1f0c3e-9a41-4d7e-8c2b-71e0d4a9f6b2';
// biome-ignore lint/suspicious/noTemplateCurlyInString: the original source line, a template literal
const CONTEXT = '      throw new RangeError(`Negative quantity for ${line.sku}`);';

interface Run {
  status: number;
  stdout: string;
  stderr: string;
}

describe('signpost sourcemaps', { timeout: 180_000 }, () => {
  let server: TestServer;
  let project: ManagedProject;
  let token: string;
  let work: string;
  let site: Server;
  let siteOrigin: string;
  let browser: Browser;
  let dsn: string;
  /** Path on the site → [content type, body]. */
  const files = new Map<string, [string, string]>();

  function signpost(args: string[]): Promise<Run> {
    const env: Record<string, string> = {};
    for (const [name, value] of Object.entries(process.env))
      if (!name.startsWith('SIGNPOST_') && value !== undefined) env[name] = value;
    Object.assign(env, {
      SIGNPOST_CONFIG_DIR: join(work, 'config'),
      SIGNPOST_URL: server.origin,
      SIGNPOST_TOKEN: token,
      SIGNPOST_PROJECT: project.projectId,
    });
    return new Promise((resolve) => {
      execFile(process.execPath, [cliEntry, ...args], { env, timeout: 60_000 }, (error, stdout, stderr) => {
        resolve({ status: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
      });
    });
  }

  function page(release: string | undefined, script: string): string {
    return `<!doctype html><html><head><title>Shop</title></head><body>
<button id="pay">Pay</button><output id="result"></output>
<script>window.SHOP = ${JSON.stringify({ dsn, release })};</script>
<script src="${script}"></script></body></html>`;
  }

  /** Opens the page, clicks Pay and returns the event @sentry/browser sent (and the server took). */
  async function capture(path: string): Promise<any> {
    const context = await browser.newContext();
    const tab = await context.newPage();
    const events: any[] = [];
    tab.on('requestfinished', async (request) => {
      if (!request.url().includes('/envelope/')) return;
      const response = await request.response();
      if (response?.status() !== 200) return;
      const lines = (request.postData() ?? '').split('\n');
      for (let i = 1; i < lines.length - 1; i += 2) {
        if (JSON.parse(lines[i]!).type === 'event') events.push(JSON.parse(lines[i + 1]!));
      }
    });
    await tab.goto(`${siteOrigin}${path}`);
    await tab.click('#pay');
    const event = await waitFor(() => events[0], 15_000, 'the Sentry event');
    await context.close();
    return event;
  }

  const resolve = (body: unknown) => project.owner.post(`/projects/${project.projectId}/source-maps/resolve`, body);
  const framesOf = (event: any) => event.exception.values[0].stacktrace.frames;

  before(async () => {
    server = await startTestServer();
    project = await managedProject(server);
    token = project.owner.headers['authorization']!.replace(/^Bearer /, '');
    const number = (await server.db.get<{ ingest_number: number }>('SELECT ingest_number FROM projects WHERE id = ?', [
      project.projectId,
    ]))!.ingest_number;
    dsn = `${server.origin.replace('://', `://${project.liveKey}@`)}/${number}`;
    work = mkdtempSync(join(tmpdir(), 'signpost-cli-sourcemaps-'));
    site = createServer((request, response) => {
      const file = files.get(new URL(request.url!, 'http://x').pathname);
      if (!file) return void response.writeHead(404).end();
      response.writeHead(200, { 'content-type': file[0] }).end(file[1]);
    });
    await new Promise<void>((done) => site.listen(0, '127.0.0.1', done));
    siteOrigin = `http://localhost:${(site.address() as AddressInfo).port}`;
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    site?.closeAllConnections();
    await new Promise((done) => site?.close(done));
    await server?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('uploads a build for a release, and the browser event resolves to the original source', async () => {
    const app = await buildMinifiedApp({ entry: 'browser-main.ts', outDir: join(work, 'release') });
    files.set('/shop', ['text/html', page('shop@1.4.0', '/assets/app.js')]);
    files.set('/assets/app.js', ['text/javascript', app.js]);

    const upload = await signpost([
      'sourcemaps',
      'upload',
      '--release',
      'shop@1.4.0',
      '--url-prefix',
      '~/assets',
      app.dir,
    ]);
    assert.equal(upload.status, 0, upload.stderr);
    assert.match(upload.stdout, /^Uploaded 2 files for release shop@1\.4\.0:$/m);
    assert.match(upload.stdout, /~\/assets\/app\.js {2}\(minified\)/);
    assert.match(upload.stdout, /~\/assets\/app\.js\.map {2}\(source map\)/);

    const event = await capture('/shop');
    assert.equal(event.release, 'shop@1.4.0');
    const frames = framesOf(event);
    const minified = frames.at(-1);
    assert.match(minified.filename, /\/assets\/app\.js$/);
    assert.match(minified.function, /^[A-Za-z_$]{1,2}$/, `a minified name: ${minified.function}`);

    const resolved = await resolve({ release: event.release, frames });
    assert.equal(resolved.status, 200, resolved.text);
    const out = resolved.body.frames;
    const inner = out.at(-1);
    assert.equal(inner.mapped, true);
    assert.equal(inner.filename, 'src/cart.ts');
    assert.equal(inner.function, 'computeTotal');
    assert.equal(inner.lineno, 11);
    assert.equal(inner.context_line, CONTEXT);
    assert.deepEqual(inner.pre_context.slice(-2), ['  for (const line of lines) {', '    if (line.quantity < 0) {']);
    assert.deepEqual(inner.post_context.slice(0, 2), ['    }', '    total += line.quantity * line.price;']);
    const checkout = out.at(-2);
    assert.equal(checkout.filename, 'src/checkout.ts');
    assert.equal(checkout.function, 'checkout');
    assert.equal(checkout.context_line, '  const total = computeTotal(lines);');
    // The SDK's own code is in the bundle too: it maps into node_modules, not in-app.
    assert.ok(
      out.some(
        (frame: any) => frame.mapped && /node_modules\/@sentry\//.test(frame.filename) && frame.in_app === false,
      ),
      JSON.stringify(out.map((f: any) => f.filename)),
    );

    const list = await signpost(['sourcemaps', 'list', '--release', 'shop@1.4.0', '--json']);
    assert.equal(JSON.parse(list.stdout).artifacts.length, 2);
  });

  it('uploads a build with debug IDs without a release, found through the event debug_meta', async () => {
    const app = await buildMinifiedApp({ entry: 'browser-main.ts', outDir: join(work, 'debug-id'), debugId: DEBUG_ID });
    files.set('/v2', ['text/html', page(undefined, '/v2/app.js')]);
    files.set('/v2/app.js', ['text/javascript', app.js]);

    const upload = await signpost(['sourcemaps', 'upload', '--url-prefix', '~/v2', app.dir]);
    assert.equal(upload.status, 0, upload.stderr);
    assert.match(upload.stdout, new RegExp(`~/v2/app\\.js\\.map {2}\\(source map, debug ID ${DEBUG_ID}\\)`));

    const event = await capture('/v2');
    assert.equal(event.release, undefined);
    assert.deepEqual(event.debug_meta.images, [
      { type: 'sourcemap', code_file: `${siteOrigin}/v2/app.js`, debug_id: DEBUG_ID },
    ]);
    const resolved = await resolve({ debug_meta: event.debug_meta, frames: framesOf(event) });
    const inner = resolved.body.frames.at(-1);
    assert.equal(inner.filename, 'src/cart.ts');
    assert.equal(inner.function, 'computeTotal');
    assert.equal(inner.context_line, CONTEXT);
  });

  it('refuses what is not a build: no maps, a broken map, a bad release (nothing stored)', async () => {
    const before = JSON.parse((await signpost(['sourcemaps', 'list', '--json'])).stdout).artifacts.length;
    const empty = join(work, 'empty');
    mkdirSync(empty);
    writeFileSync(join(empty, 'app.js'), 'console.log(1)');
    const none = await signpost(['sourcemaps', 'upload', '--release', 'shop@2', empty]);
    assert.equal(none.status, 2);
    assert.match(none.stderr, /No \*\.map files/);

    const broken = join(work, 'broken');
    mkdirSync(broken);
    writeFileSync(join(broken, 'app.js'), 'console.log(1)\n//# sourceMappingURL=app.js.map');
    writeFileSync(join(broken, 'app.js.map'), '<html>not a map</html>');
    const bad = await signpost(['sourcemaps', 'upload', '--release', 'shop@2', broken]);
    assert.equal(bad.status, 1);
    assert.match(bad.stderr, /app\.js\.map is not JSON, so not a source map \(HTTP 400\)/);

    const release = await signpost(['sourcemaps', 'upload', '--release', 'shop 2', join(work, 'release', 'dist')]);
    assert.equal(release.status, 1);
    assert.match(release.stderr, /release/);
    assert.match(release.stderr, /HTTP 400/);

    const after = JSON.parse((await signpost(['sourcemaps', 'list', '--json'])).stdout).artifacts.length;
    assert.equal(after, before);
    assert.ok(readFileSync(join(broken, 'app.js.map'), 'utf8'));
  });
});
