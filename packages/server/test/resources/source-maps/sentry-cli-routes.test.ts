/**
 * The real `sentry-cli sourcemaps upload` (@sentry/cli) pointed at Signpost, unchanged: chunk
 * upload and artifact-bundle assemble, by release and by debug ID; the uploaded maps then
 * resolve a stack of the minified app. Bad chunks and bundles get a 4xx and store nothing.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import vm from 'node:vm';
import { gzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { zipSync, strToU8 } from 'fflate';
import { managedProjectSuite } from '../../support/manage-fixtures.ts';
import { buildMinifiedApp, framesOfStack, type MinifiedApp } from '../../support/source-map-app.ts';

const SENTRY_CLI = join(
  dirname(createRequire(import.meta.url).resolve('@sentry/cli/package.json')),
  'bin',
  'sentry-cli',
);
const APP_URL = 'https://shop.example/static/app.js';
const DEBUG_ID = '0d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6';

function crash(app: MinifiedApp) {
  const sandbox: Record<string, any> = {};
  vm.runInNewContext(`${app.js}\nglobalThis.shop = shop;`, sandbox, { filename: APP_URL });
  try {
    sandbox['shop'].pay();
  } catch (error) {
    return framesOfStack((error as Error).stack!).filter((frame) => frame.filename === APP_URL);
  }
  throw new Error('pay() did not throw');
}

describe('sentry-cli sourcemaps upload against Signpost', { timeout: 120_000 }, () => {
  const p = managedProjectSuite();
  let work: string;
  let token: string;

  before(() => {
    work = mkdtempSync(join(tmpdir(), 'signpost-sentry-cli-'));
    token = p.owner.headers['authorization']!.replace(/^Bearer /, '');
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  function sentryCli(args: string[], authToken = token): Promise<{ status: number; output: string }> {
    const env: Record<string, string | undefined> = { ...process.env, SENTRY_LOG_LEVEL: 'warn', HOME: work };
    for (const name of Object.keys(env))
      if (name.startsWith('SENTRY_') && name !== 'SENTRY_LOG_LEVEL') delete env[name];
    return new Promise((resolve) => {
      execFile(
        SENTRY_CLI,
        ['--url', p.server.origin, '--auth-token', authToken, ...args],
        { env, timeout: 60_000 },
        (error, stdout, stderr) =>
          resolve({ status: error ? (typeof error.code === 'number' ? error.code : 1) : 0, output: stdout + stderr }),
      );
    });
  }
  const artifacts = async () => (await p.member.get(`/projects/${p.projectId}/source-maps`)).body.artifacts;
  const api = (path: string, init: RequestInit = {}) =>
    fetch(`${p.server.origin}/api/0/organizations/signpost${path}`, {
      ...init,
      headers: { authorization: `Bearer ${token}`, ...(init.headers as Record<string, string>) },
    });

  it('uploads a build for a release; its frames resolve', async () => {
    const app = await buildMinifiedApp({ entry: 'node-main.ts', outDir: join(work, 'release') });
    const upload = await sentryCli([
      'sourcemaps',
      'upload',
      '--org',
      'signpost',
      '--project',
      p.projectId,
      '--release',
      'shop@3.0.0',
      '--url-prefix',
      '~/static',
      app.dir,
    ]);
    assert.equal(upload.status, 0, upload.output);
    assert.match(upload.output, /Upload type: artifact bundle/);
    const stored = (await artifacts()).filter((a: any) => a.release === 'shop@3.0.0');
    assert.deepEqual(stored.map((a: any) => [a.name, a.kind]).sort(), [
      ['~/static/app.js', 'minified_source'],
      ['~/static/app.js.map', 'source_map'],
    ]);
    const frames = crash(app);
    const resolved = await p.member.post(`/projects/${p.projectId}/source-maps/resolve`, {
      release: 'shop@3.0.0',
      frames,
    });
    const inner = resolved.body.frames.at(-1);
    assert.equal(inner.filename, 'src/cart.ts');
    assert.equal(inner.function, 'computeTotal');
    assert.equal(inner.lineno, 11);

    // The same bundle again: the server says it has it, nothing is uploaded twice.
    const again = await sentryCli([
      'sourcemaps',
      'upload',
      '--org',
      'signpost',
      '--project',
      p.projectId,
      '--release',
      'shop@3.0.0',
      '--url-prefix',
      '~/static',
      app.dir,
    ]);
    assert.equal(again.status, 0, again.output);
    assert.equal((await artifacts()).length, stored.length);
  });

  it('uploads a build with debug IDs and no release; debug_meta finds it', async () => {
    const app = await buildMinifiedApp({ entry: 'node-main.ts', outDir: join(work, 'debug-id'), debugId: DEBUG_ID });
    const upload = await sentryCli(['sourcemaps', 'upload', '--org', 'signpost', '--project', p.projectId, app.dir]);
    assert.equal(upload.status, 0, upload.output);
    assert.match(upload.output, new RegExp(`debug id ${DEBUG_ID}`));
    const frames = crash(app);
    const resolved = await p.member.post(`/projects/${p.projectId}/source-maps/resolve`, {
      debug_meta: { images: [{ type: 'sourcemap', code_file: APP_URL, debug_id: DEBUG_ID }] },
      frames,
    });
    assert.equal(resolved.body.frames.at(-1).function, 'computeTotal');
  });

  it('refuses a bad token, another team’s project, bad chunks and bad bundles, storing nothing', async () => {
    const before = (await artifacts()).length;
    const app = await buildMinifiedApp({ entry: 'node-main.ts', outDir: join(work, 'refused') });
    const badToken = await sentryCli(
      ['sourcemaps', 'upload', '--org', 'o', '--project', p.projectId, '--release', 'x@1', app.dir],
      'sp_pat_wrong',
    );
    assert.notEqual(badToken.status, 0);
    assert.match(badToken.output, /401|Invalid personal access token/);
    const stranger = await p.server.createProject();
    const foreign = await sentryCli([
      'sourcemaps',
      'upload',
      '--org',
      'o',
      '--project',
      stranger.projectId,
      '--release',
      'x@1',
      app.dir,
    ]);
    assert.notEqual(foreign.status, 0);
    // Signpost answers 404 (a project of another team is not found), which sentry-cli words so:
    assert.match(foreign.output, /Release not found/);

    const multipart = (name: string, field: string, bytes: Uint8Array) => {
      const form = new FormData();
      form.append(field, new Blob([new Uint8Array(bytes)]), name);
      return api('/chunk-upload/', { method: 'POST', body: form });
    };
    const content = strToU8('not the chunk it claims');
    const wrong = await multipart('0'.repeat(40), 'file', content);
    assert.equal(wrong.status, 400);
    assert.match((await wrong.json()).error, /does not match its SHA-1/);
    const notGzip = await multipart(createHash('sha1').update(content).digest('hex'), 'file_gzip', content);
    assert.equal(notGzip.status, 400);

    // A zip without a manifest, uploaded as a chunk: assembling it is a 400.
    const zip = zipSync({ 'files/app.js': strToU8('x') });
    const checksum = createHash('sha1').update(zip).digest('hex');
    assert.equal((await multipart(checksum, 'file_gzip', gzipSync(zip))).status, 200);
    const assemble = (chunks: string[]) =>
      api('/artifactbundle/assemble/', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ checksum, chunks, projects: [p.projectId], version: 'x@1' }),
      });
    const missing = await assemble(['f'.repeat(40)]);
    assert.deepEqual(await missing.json(), { state: 'not_found', missingChunks: ['f'.repeat(40)], detail: null });
    const noManifest = await assemble([checksum]);
    assert.equal(noManifest.status, 400);
    assert.match((await noManifest.json()).error, /no manifest\.json/);
    assert.equal((await api('/chunk-upload/', { headers: { authorization: '' } })).status, 401);
    assert.equal((await artifacts()).length, before);
  });
});
