/**
 * The dashboard surface at /app: the built app's files with their cache and security headers, the
 * page for every client route, nothing outside the build folder, and a clear page without a build.
 * (The real build in a real browser is tested in packages/dashboard.)
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import { DASHBOARD_PREFIX, dashboardSurface } from '../../src/dashboard/plugin.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

async function appServing(distDir: string): Promise<FastifyInstance> {
  const app = Fastify();
  await app.register(async (scoped) => dashboardSurface(scoped, { distDir }), { prefix: DASHBOARD_PREFIX });
  await app.ready();
  return app;
}

describe('dashboard surface', () => {
  let dir: string;
  let app: FastifyInstance;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'signpost-dashboard-'));
    await mkdir(join(dir, 'assets'));
    await writeFile(join(dir, 'index.html'), '<!doctype html><title>App</title><div id="root"></div>');
    await writeFile(join(dir, 'assets', 'index-abc123.js'), 'console.log(1)');
    await writeFile(join(dir, 'assets', 'index-abc123.css'), 'body{}');
    const bundle = `export const app = ${JSON.stringify('x'.repeat(4000))};`;
    await writeFile(join(dir, 'assets', 'bundle-def456.js'), bundle);
    await writeFile(join(dir, 'assets', 'bundle-def456.js.br'), brotliCompressSync(bundle));
    await writeFile(join(dir, 'assets', 'bundle-def456.js.gz'), gzipSync(bundle));
    await writeFile(join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    await writeFile(join(tmpdir(), 'signpost-outside.txt'), 'secret');
    app = await appServing(dir);
  });
  after(async () => {
    await app.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('serves the page at /app and every client route, revalidated, with a strict CSP', async () => {
    for (const url of [
      '/app',
      '/app/',
      '/app/sign-in',
      '/app/verify-email?token=abc',
      '/app/a/b/c',
      '/app/projects/demo/releases/2.0.0',
    ]) {
      const response = await app.inject({ url });
      assert.equal(response.statusCode, 200, url);
      assert.match(response.headers['content-type'] as string, /^text\/html/);
      assert.equal(response.headers['cache-control'], 'no-cache');
      const csp = response.headers['content-security-policy'] as string;
      assert.match(csp, /script-src 'self'(;|$)/);
      assert.match(csp, /connect-src 'self'/);
      assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
      assert.equal(response.headers['x-content-type-options'], 'nosniff');
      assert.equal(response.headers['referrer-policy'], 'same-origin');
      assert.match(response.body, /<div id="root">/);
    }
  });

  it('serves hashed assets for a year (immutable) and other files briefly, with their types', async () => {
    const script = await app.inject({ url: '/app/assets/index-abc123.js' });
    assert.equal(script.statusCode, 200);
    assert.equal(script.headers['content-type'], 'text/javascript; charset=utf-8');
    assert.equal(script.headers['cache-control'], 'public, max-age=31536000, immutable');
    assert.equal(script.headers['x-content-type-options'], 'nosniff');
    assert.equal(script.body, 'console.log(1)');
    const style = await app.inject({ url: '/app/assets/index-abc123.css' });
    assert.equal(style.headers['content-type'], 'text/css; charset=utf-8');
    const icon = await app.inject({ url: '/app/favicon.svg' });
    assert.equal(icon.statusCode, 200);
    assert.equal(icon.headers['content-type'], 'image/svg+xml');
    assert.equal(icon.headers['cache-control'], 'public, max-age=3600');
  });

  it("serves the build's precompressed copy the browser prefers, and the file itself otherwise", async () => {
    const plain = await app.inject({ url: '/app/assets/bundle-def456.js' });
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.equal(plain.headers['vary'], 'Accept-Encoding');
    const bundle = plain.body;
    const brotli = await app.inject({
      url: '/app/assets/bundle-def456.js',
      headers: { 'accept-encoding': 'gzip, deflate, br, zstd' },
    });
    assert.equal(brotli.headers['content-encoding'], 'br');
    assert.equal(brotli.headers['content-type'], 'text/javascript; charset=utf-8');
    assert.ok(brotli.rawPayload.length < bundle.length / 10);
    assert.equal(brotliDecompressSync(brotli.rawPayload).toString(), bundle);
    const gzip = await app.inject({ url: '/app/assets/bundle-def456.js', headers: { 'accept-encoding': 'gzip' } });
    assert.equal(gzip.headers['content-encoding'], 'gzip');
    assert.equal(gunzipSync(gzip.rawPayload).toString(), bundle);
    const refused = await app.inject({
      url: '/app/assets/bundle-def456.js',
      headers: { 'accept-encoding': 'br;q=0, gzip;q=0' },
    });
    assert.equal(refused.headers['content-encoding'], undefined);
    assert.equal(refused.body, bundle);
    // A file the build did not compress is sent as it is, whatever the browser accepts.
    const small = await app.inject({ url: '/app/assets/index-abc123.js', headers: { 'accept-encoding': 'br' } });
    assert.equal(small.headers['content-encoding'], undefined);
    assert.equal(small.body, 'console.log(1)');
  });

  it('answers 404 for a missing file and never serves anything outside the build', async () => {
    assert.equal((await app.inject({ url: '/app/assets/missing-000.js' })).statusCode, 404);
    for (const url of [
      '/app/../signpost-outside.txt',
      '/app/%2e%2e/signpost-outside.txt',
      '/app/assets/..%2f..%2fsignpost-outside.txt',
    ]) {
      const response = await app.inject({ url });
      assert.notEqual(response.body, 'secret', url);
    }
  });

  it('without a build, /app says how to build it', async () => {
    const bare = await appServing(join(dir, 'no-such-build'));
    try {
      for (const url of ['/app', '/app/account']) {
        const response = await bare.inject({ url });
        assert.equal(response.statusCode, 503);
        assert.match(response.headers['content-type'] as string, /^text\/html/);
        assert.match(response.body, /npm run build -w @signpost\/dashboard/);
      }
    } finally {
      await bare.close();
    }
  });
});

describe('dashboard surface in the server', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => server.close());

  it('is mounted at /app beside the APIs, which keep their own answers', async () => {
    const page = await fetch(`${server.origin}/app/account`);
    assert.ok(page.status === 200 || page.status === 503, String(page.status));
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
    assert.equal(page.headers.get('cache-control'), 'no-cache');
    const me = await fetch(`${server.origin}/api/v1/me`);
    assert.equal(me.status, 401);
  });
});
