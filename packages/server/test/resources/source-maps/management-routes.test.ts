/**
 * Source maps through the management API: a TypeScript app minified by esbuild, uploaded per
 * release or by debug ID, and a real V8 stack of it (run in node:vm under its public URL)
 * resolved to the original files, functions and context lines. Bad uploads store nothing.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import vm from 'node:vm';
import { after, before, describe, it } from 'node:test';
import { managedProject, managedProjectSuite } from '../../support/manage-fixtures.ts';
import { resolveEventFrames } from '../../../src/resources/source-maps/index.ts';
import { buildMinifiedApp, framesOfStack, type MinifiedApp } from '../../support/source-map-app.ts';

const APP_URL = 'https://shop.example/assets/app.js';
const DEBUG_ID = 'c0ffee00-1234-4abc-8def-0123456789ab';
// biome-ignore lint/suspicious/noTemplateCurlyInString: the original source line, a template literal
const THROW_LINE = '      throw new RangeError(`Negative quantity for ${line.sku}`);';

/** Runs the bundle as the page at APP_URL would and returns the Sentry frames of its error. */
function crash(app: MinifiedApp): ReturnType<typeof framesOfStack> {
  const sandbox: Record<string, any> = {};
  vm.runInNewContext(`${app.js}\nglobalThis.shop = shop;`, sandbox, { filename: APP_URL });
  try {
    sandbox['shop'].pay();
  } catch (error) {
    return framesOfStack((error as Error).stack!).filter((frame) => frame.filename === APP_URL);
  }
  throw new Error('pay() did not throw');
}

describe('management: source maps', () => {
  const p = managedProjectSuite();
  let work: string;
  let plain: MinifiedApp;
  let injected: MinifiedApp;

  before(async () => {
    work = mkdtempSync(join(tmpdir(), 'signpost-sourcemaps-'));
    plain = await buildMinifiedApp({ entry: 'node-main.ts', outDir: join(work, 'plain') });
    injected = await buildMinifiedApp({ entry: 'node-main.ts', outDir: join(work, 'injected'), debugId: DEBUG_ID });
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  const path = (rest = '') => `/projects/${p.projectId}/source-maps${rest}`;
  const count = async () => (await p.member.get(path())).body.artifacts.length;
  const blobs = async () =>
    (await p.server.db.all('SELECT checksum FROM source_map_blobs WHERE project_id = ?', [p.projectId])).length;

  it('resolves a minified stack by release to the original files, functions and context lines', async () => {
    const frames = crash(plain);
    assert.equal(frames.length, 3);
    assert.match(frames[2]!.function!, /^[a-z]$/, 'the innermost frame carries a minified name');

    const upload = await p.admin.post(path(), {
      release: 'shop@1.4.0',
      files: [
        { name: '~/assets/app.js', content: plain.js },
        { name: '~/assets/app.js.map', content: plain.map },
      ],
    });
    assert.equal(upload.status, 201, upload.text);
    assert.deepEqual(
      upload.body.artifacts.map((a: any) => [a.name, a.kind, a.release, a.dist, a.sourceMappingUrl]),
      [
        ['~/assets/app.js', 'minified_source', 'shop@1.4.0', null, 'app.js.map'],
        ['~/assets/app.js.map', 'source_map', 'shop@1.4.0', null, null],
      ],
    );

    const resolved = await p.member.post(path('/resolve'), { release: 'shop@1.4.0', frames });
    assert.equal(resolved.status, 200, resolved.text);
    const [outer, middle, inner] = resolved.body.frames;
    assert.equal(inner.mapped, true);
    assert.equal(inner.filename, 'src/cart.ts');
    assert.equal(inner.abs_path, '~/src/cart.ts');
    assert.equal(inner.function, 'computeTotal');
    assert.equal(inner.lineno, 11);
    assert.equal(inner.context_line, THROW_LINE);
    assert.deepEqual(inner.pre_context.slice(-2), ['  for (const line of lines) {', '    if (line.quantity < 0) {']);
    assert.equal(inner.post_context[0], '    }');
    assert.equal(inner.source_map, '~/assets/app.js.map');
    assert.equal(inner.minified.filename, APP_URL);
    assert.equal(middle.filename, 'src/checkout.ts');
    assert.equal(middle.function, 'checkout');
    assert.equal(middle.lineno, 4);
    assert.equal(middle.context_line, '  const total = computeTotal(lines);');
    assert.equal(outer.filename, 'src/node-main.ts');
    assert.equal(outer.function, 'pay');

    // Another release, no release, or another project: nothing maps.
    for (const body of [{ release: 'shop@1.3.0', frames }, { frames }]) {
      const other = await p.member.post(path('/resolve'), body);
      assert.deepEqual(
        other.body.frames.map((f: any) => f.mapped),
        [false, false, false],
      );
      assert.equal(other.body.frames[2].function, frames[2]!.function);
    }
    const stranger = await managedProject(p.server);
    const leak = await stranger.owner.post(`/projects/${stranger.projectId}/source-maps/resolve`, {
      release: 'shop@1.4.0',
      frames,
    });
    assert.equal(leak.body.frames[2].mapped, false);
    assert.equal((await p.outsider.post(path('/resolve'), { release: 'shop@1.4.0', frames })).status, 404);
  });

  it('shows a Sentry event of the release with its frames mapped, the stored event unchanged', async () => {
    const frames = crash(plain);
    const number = (await p.server.db.get<{ ingest_number: number }>(
      'SELECT ingest_number FROM projects WHERE id = ?',
      [p.projectId],
    ))!.ingest_number;
    const event = {
      event_id: 'a1b2c3d4e5f60718293a4b5c6d7e8f90',
      platform: 'javascript',
      release: 'shop@1.4.0',
      exception: { values: [{ type: 'RangeError', value: 'Negative quantity for sku-1', stacktrace: { frames } }] },
    };
    const sent = await fetch(`${p.server.origin}/api/${number}/store/?sentry_key=${p.liveKey}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(event),
    });
    assert.equal(sent.status, 200, await sent.text());
    const groups = await p.member.get(`/projects/${p.projectId}/error-groups`, { query: { q: 'Negative quantity' } });
    const [group] = groups.body.groups;
    const shown = await p.member.get(`/projects/${p.projectId}/error-groups/${group.id}/events/latest`);
    assert.equal(shown.status, 200, shown.text);
    const inner = shown.body.event.exception.values[0].stacktrace.frames[2];
    assert.equal(inner.mapped, true);
    assert.equal(inner.filename, 'src/cart.ts');
    assert.equal(inner.function, 'computeTotal');
    assert.equal(inner.context_line, THROW_LINE);
    assert.equal(inner.minified.filename, APP_URL);
    // Another project's map never applies: a second project's copy of the event stays minified.
    const stranger = await managedProject(p.server);
    const strangerNumber = (await p.server.db.get<{ ingest_number: number }>(
      'SELECT ingest_number FROM projects WHERE id = ?',
      [stranger.projectId],
    ))!.ingest_number;
    await fetch(`${p.server.origin}/api/${strangerNumber}/store/?sentry_key=${stranger.liveKey}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(event),
    });
    const [theirs] = (await stranger.member.get(`/projects/${stranger.projectId}/error-groups`)).body.groups;
    const theirEvent = await stranger.member.get(
      `/projects/${stranger.projectId}/error-groups/${theirs.id}/events/latest`,
    );
    assert.equal(theirEvent.body.event.exception.values[0].stacktrace.frames[2].filename, APP_URL);
  });

  it('finds a map by the debug ID of debug_meta, without a release', async () => {
    const frames = crash(injected);
    const upload = await p.admin.post(path(), {
      files: [
        { name: '~/assets/app.js', content: injected.js },
        { name: '~/assets/app.js.map', content: injected.map },
      ],
    });
    assert.equal(upload.status, 201, upload.text);
    assert.deepEqual(
      upload.body.artifacts.map((a: any) => [a.release, a.debugId]),
      [
        [null, DEBUG_ID],
        [null, DEBUG_ID],
      ],
    );
    const listed = await p.member.get(path(), { query: { debugId: DEBUG_ID.toUpperCase() } });
    assert.equal(listed.body.artifacts.length, 2);

    const debugMeta = { images: [{ type: 'sourcemap', code_file: APP_URL, debug_id: DEBUG_ID }] };
    const resolved = await p.member.post(path('/resolve'), { debug_meta: debugMeta, frames });
    assert.equal(resolved.status, 200, resolved.text);
    const inner = resolved.body.frames[2];
    assert.equal(inner.mapped, true);
    assert.equal(inner.filename, 'src/cart.ts');
    assert.equal(inner.function, 'computeTotal');
    assert.equal(inner.context_line, THROW_LINE);
    // The frame's own debug_id (as Sentry's SDK sets it before moving it to debug_meta) works too.
    const byFrame = await p.member.post(path('/resolve'), {
      frames: frames.map((frame) => ({ ...frame, debug_id: DEBUG_ID })),
    });
    assert.equal(byFrame.body.frames[2].lineno, 11);

    // The debug ID is no key to another project's maps.
    const stranger = await managedProject(p.server);
    const leak = await stranger.owner.post(`/projects/${stranger.projectId}/source-maps/resolve`, {
      debug_meta: debugMeta,
      frames,
    });
    assert.equal(leak.body.frames[2].mapped, false);

    // What the event read path calls: a whole Sentry event, its debug_meta and frames.
    const [stack, empty] = await resolveEventFrames(p.server.db, p.projectId, {
      debug_meta: debugMeta,
      exception: { values: [{ stacktrace: { frames } }, {}] },
    });
    assert.equal(stack![2]!.function, 'computeTotal');
    assert.deepEqual(empty, []);
  });

  it('stores a content once per project, and deletes it with its last artifact', async () => {
    const before = await blobs();
    const again = await p.admin.post(path(), {
      release: 'shop@1.4.1',
      dist: 'web',
      files: [{ name: '~/assets/app.js.map', content: plain.map }],
    });
    assert.equal(again.status, 201);
    assert.equal(await blobs(), before, 'the same map under another release is stored once');
    const [artifact] = again.body.artifacts;
    assert.equal(artifact.dist, 'web');
    const frames = crash(plain);
    const wrongDist = await p.member.post(path('/resolve'), { release: 'shop@1.4.1', frames });
    assert.equal(wrongDist.body.frames[2].mapped, false, 'a dist is part of the lookup');
    const withDist = await p.member.post(path('/resolve'), { release: 'shop@1.4.1', dist: 'web', frames });
    // Found as <file>.map without the minified file: the position maps; the function's original
    // name needs the minified file (its declaration), so the minified name stays.
    assert.equal(withDist.body.frames[2].filename, 'src/cart.ts');
    assert.equal(withDist.body.frames[2].lineno, 11);
    assert.equal(withDist.body.frames[2].function, frames[2]!.function);

    assert.equal((await p.member.delete(path(`/${artifact.id}`))).status, 403);
    assert.equal((await p.admin.delete(path(`/${artifact.id}`))).status, 204);
    assert.equal((await p.admin.delete(path(`/${artifact.id}`))).status, 404);
    assert.equal(await blobs(), before, 'still used by shop@1.4.0');
    const gone = await p.admin.delete(path(), { query: { release: 'shop@1.4.0' } });
    assert.deepEqual(gone.body, { deleted: 2 });
    assert.equal(await blobs(), before - 2);
    const after = await p.member.post(path('/resolve'), { release: 'shop@1.4.0', frames });
    assert.equal(after.body.frames[2].mapped, false);
  });

  it('refuses bad uploads with a clear 4xx and stores nothing', async () => {
    const artifacts = await count();
    const stored = await blobs();
    const cases: [unknown, number, RegExp][] = [
      [{ release: 'shop@2', files: [{ name: '~/app.js.map', content: 'console.log(1)' }] }, 400, /not JSON/],
      [{ release: 'shop@2', files: [{ name: '~/app.js.map', content: '{"version":2}' }] }, 400, /version 3/],
      [
        {
          release: 'shop@2',
          files: [{ name: '~/app.js.map', content: '{"version":3,"sources":[],"names":[],"mappings":"!!!"}' }],
        },
        400,
        /Base64 VLQ/,
      ],
      [{ release: 'bad/release', files: [{ name: '~/app.js.map', content: plain.map }] }, 400, /release/],
      [{ release: '..', files: [{ name: '~/app.js.map', content: plain.map }] }, 400, /release/],
      [{ files: [{ name: '~/app.js.map', content: plain.map }] }, 400, /debug ID.*release/],
      [
        {
          release: 'shop@2',
          files: [{ name: '~/app.js', content: plain.js, debugId: 'nope-nope-nope-nope-nope-nope-nope' }],
        },
        400,
        /UUID/,
      ],
      [
        {
          release: 'shop@2',
          files: [
            { name: '~/ok.js.map', content: plain.map },
            { name: '~/big.js', content: 'x'.repeat(10 * 1024 * 1024 + 1) },
          ],
        },
        413,
        /at most/,
      ],
      [{ release: 'shop@2', files: [] }, 400, /files/],
    ];
    for (const [body, status, message] of cases) {
      const response = await p.admin.post(path(), body);
      assert.equal(response.status, status, `${JSON.stringify(body).slice(0, 200)} → ${response.text.slice(0, 300)}`);
      assert.match(response.body.error, message);
    }
    assert.equal(
      (await p.member.post(path(), { release: 'shop@2', files: [{ name: '~/a.js.map', content: plain.map }] })).status,
      403,
    );
    assert.equal(await count(), artifacts);
    assert.equal(await blobs(), stored);
  });
});
