import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import {
  ApiError,
  createBatcher,
  createOfflineQueue,
  createReporter,
  createTransport,
  guard,
  type StorageLike,
} from '@signpost/sdk-core';
import { sdkTestEnv } from '@signpost/test-support/env';

const { server, project, proxy } = await sdkTestEnv({ project: true, proxy: true });

async function logMessages(projectId: string): Promise<string[]> {
  const rows = await server.db.all<{ message: string }>(
    'SELECT message FROM log_groups WHERE project_id = ? ORDER BY message',
    [projectId],
  );
  return rows.map((r) => r.message);
}

describe('batcher', () => {
  test('cuts batches at maxBatchSize and sends them all to the server', async () => {
    const p = await server.createProject();
    const transport = createTransport({ apiKey: p.liveKey, baseUrl: server.baseUrl });
    const sizes: number[] = [];
    const batcher = createBatcher<{ level: string; message: string }>({
      maxBatchSize: 100,
      flushIntervalMs: 60_000,
      send: async (logs) => {
        sizes.push(logs.length);
        await transport.request('POST', '/logs', { body: { logs } });
      },
    });
    for (let i = 0; i < 250; i++) batcher.add({ level: 'info', message: `entry ${String(i).padStart(3, '0')}` });
    assert.equal(batcher.size, 50);
    await batcher.close();
    assert.deepEqual(sizes, [100, 100, 50]);
    assert.equal((await logMessages(p.projectId)).length, 250);
  });

  test('flushes on its interval', async () => {
    const sent: number[][] = [];
    const batcher = createBatcher<number>({ flushIntervalMs: 30, send: async (items) => void sent.push(items) });
    batcher.add(1);
    batcher.add(2);
    await new Promise((r) => setTimeout(r, 80));
    assert.deepEqual(sent, [[1, 2]]);
    await batcher.close();
  });

  test('a full queue drops the oldest and counts them', async () => {
    const sent: number[] = [];
    const batcher = createBatcher<number>({
      maxBatchSize: 5,
      maxQueueSize: 5,
      flushIntervalMs: 0,
      send: async (items) => void sent.push(...items),
    });
    // maxBatchSize flushes each time it is reached, so nothing is dropped in normal use.
    for (let i = 0; i < 12; i++) batcher.add(i);
    await batcher.close();
    assert.equal(sent.length + batcher.dropped, 12);
  });

  test('a slow API: at most maxConcurrentSends batches in flight, the queue stays bounded', async () => {
    let inFlight = 0;
    let most = 0;
    const release: (() => void)[] = [];
    const batcher = createBatcher<number>({
      maxBatchSize: 10,
      maxQueueSize: 100,
      flushIntervalMs: 0,
      send: () => {
        inFlight++;
        most = Math.max(most, inFlight);
        return new Promise<void>((resolve) =>
          release.push(() => {
            inFlight--;
            resolve();
          }),
        );
      },
    });
    for (let i = 0; i < 1000; i++) batcher.add(i);
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(most, 2);
    assert.equal(batcher.size, 100);
    assert.equal(batcher.dropped, 880);
    const flushed = batcher.flush();
    while (release.length || batcher.size) {
      for (const r of release.splice(0)) r();
      await new Promise((r) => setTimeout(r, 1));
    }
    await flushed;
    assert.equal(most, 2);
  });

  test('a failing send is reported, never thrown', async () => {
    const errors: unknown[] = [];
    const batcher = createBatcher<number>({
      flushIntervalMs: 0,
      onError: (e) => errors.push(e),
      send: async () => {
        throw new Error('boom');
      },
    });
    batcher.add(1);
    await batcher.flush();
    assert.equal(errors.length, 1);
    await batcher.close();
  });

  test('keepalive flushes are cut to fit the 64 KB budget', async () => {
    const batches: number[] = [];
    const batcher = createBatcher<string>({
      flushIntervalMs: 0,
      send: async (items, { keepalive }) => {
        assert.equal(keepalive, true);
        batches.push(items.length);
      },
    });
    for (let i = 0; i < 40; i++) batcher.add('x'.repeat(5000));
    await batcher.flush({ keepalive: true });
    assert.ok(batches.length >= 4, `batches: ${batches.join(',')}`);
    assert.equal(
      batches.reduce((a, b) => a + b, 0),
      40,
    );
    for (const n of batches) assert.ok(n * 5003 < 64_000);
    await batcher.close();
  });
});

function memoryStorage(): StorageLike & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    getItem: (k) => data.get(k) ?? null,
    setItem: (k, v) => void data.set(k, v),
    removeItem: (k) => void data.delete(k),
  };
}

describe('offline queue', () => {
  test('keeps requests while the API is unreachable and replays them when it is back', async () => {
    const p = await server.createProject();
    const transport = createTransport({ apiKey: p.liveKey, baseUrl: proxy.baseUrl, maxRetries: 0 });
    const storage = memoryStorage();
    const queue = createOfflineQueue({ transport, storageKey: 'test:queue', storage, minDelayMs: 20, maxDelayMs: 100 });
    proxy.mode = 'down';
    try {
      const result = await queue.send({
        method: 'POST',
        path: '/logs',
        body: { logs: [{ level: 'error', message: 'sent while offline' }] },
      });
      assert.equal(result, undefined);
      assert.equal(queue.size, 1);
      assert.ok(storage.data.get('test:queue')?.includes('sent while offline'));
      await new Promise((r) => setTimeout(r, 100));
      assert.equal(queue.size, 1, 'still offline: kept');
    } finally {
      proxy.mode = 'ok';
    }
    await queue.replay();
    assert.equal(queue.size, 0);
    assert.deepEqual(await logMessages(p.projectId), ['sent while offline']);
    assert.equal(storage.data.has('test:queue'), false);
    queue.close();
  });

  test('a replay asked for while a failing one is under way gets a pass of its own', async () => {
    const p = await server.createProject();
    const transport = createTransport({ apiKey: p.liveKey, baseUrl: proxy.baseUrl, maxRetries: 0, timeoutMs: 300 });
    const queue = createOfflineQueue({
      transport,
      storageKey: 'test:follow-up',
      storage: memoryStorage(),
      minDelayMs: 60_000,
    });
    queue.enqueue({
      method: 'POST',
      path: '/logs',
      body: { logs: [{ level: 'warn', message: 'kept through a hanging attempt' }] },
    });
    proxy.mode = 'hang';
    let first: Promise<void>;
    try {
      // A pass begins while the API does not answer, as a timer's pass would; the API comes back
      // before it times out, and the page asks for a replay (as on the browser's online event).
      first = queue.replay();
      await new Promise((r) => setTimeout(r, 50));
    } finally {
      proxy.mode = 'ok';
    }
    await queue.replay();
    await first;
    assert.equal(queue.size, 0);
    assert.deepEqual(await logMessages(p.projectId), ['kept through a hanging attempt']);
    queue.close();
  });

  test('is bounded: the oldest requests are dropped and counted', async () => {
    const transport = createTransport({ apiKey: project.liveKey, baseUrl: proxy.baseUrl, maxRetries: 0 });
    const queue = createOfflineQueue({
      transport,
      storageKey: 'q',
      storage: memoryStorage(),
      maxItems: 30,
      minDelayMs: 60_000,
    });
    for (let i = 0; i < 35; i++)
      queue.enqueue({ method: 'POST', path: '/logs', body: { logs: [{ level: 'info', message: `n${i}` }] } });
    assert.equal(queue.size, 30);
    assert.equal(queue.dropped, 5);
    queue.close();
  });

  test('4xx answers are not queued: they reject', async () => {
    const transport = createTransport({ apiKey: 'svc_live_invalid', baseUrl: server.baseUrl });
    const queue = createOfflineQueue({ transport, storageKey: 'q', storage: null });
    const error = await queue.send({ method: 'POST', path: '/logs', body: { logs: [] } }).catch((e: unknown) => e);
    assert.ok(error instanceof ApiError);
    assert.equal(queue.size, 0);
    queue.close();
  });

  test('requests kept in storage by an earlier page are replayed on start', async () => {
    const p = await server.createProject();
    const storage = memoryStorage();
    storage.setItem(
      'kept',
      JSON.stringify([
        { method: 'POST', path: '/logs', body: { logs: [{ level: 'info', message: 'from the last visit' }] } },
      ]),
    );
    const transport = createTransport({ apiKey: p.liveKey, baseUrl: server.baseUrl });
    const queue = createOfflineQueue({ transport, storageKey: 'kept', storage, minDelayMs: 10 });
    for (let i = 0; i < 50 && queue.size > 0; i++) await new Promise((r) => setTimeout(r, 20));
    assert.equal(queue.size, 0);
    assert.deepEqual(await logMessages(p.projectId), ['from the last visit']);
    queue.close();
  });
});

describe('reporting', () => {
  test('goes to onError, falls back to the console, never throws', () => {
    const seen: unknown[] = [];
    createReporter((e) => seen.push(e))(new Error('one'));
    assert.equal(seen.length, 1);
    const warn = console.warn;
    const warned: unknown[][] = [];
    console.warn = (...args: unknown[]) => void warned.push(args);
    try {
      createReporter(() => {
        throw new Error('handler broke');
      })(new Error('two'));
      createReporter()(new Error('three'));
    } finally {
      console.warn = warn;
    }
    assert.equal(warned.length, 2);
    assert.equal(warned[0]![0], '[signpost]');
  });

  test('guard turns throws and rejections into reports', async () => {
    const seen: unknown[] = [];
    const report = createReporter((e) => seen.push(e));
    assert.equal(
      guard(
        report,
        () => {
          throw new Error('sync');
        },
        'fallback',
      )(),
      'fallback',
    );
    assert.equal(
      await guard(
        report,
        async () => {
          throw new Error('async');
        },
        'later',
      )(),
      'later',
    );
    assert.equal(seen.length, 2);
  });
});

test('the entry point has nothing Node-only', () => {
  const dist = new URL('../dist/', import.meta.url);
  for (const file of readdirSync(dist).filter((f) => f.endsWith('.js'))) {
    const code = readFileSync(new URL(file, dist), 'utf8');
    assert.doesNotMatch(code, /from ['"]node:|require\(/, file);
  }
});

test('toJsonSafe handles errors, cycles, bigints, depth and long strings', async () => {
  const { toJsonSafe } = await import('@signpost/sdk-core');
  const cyclic: Record<string, unknown> = { a: 1 };
  cyclic['self'] = cyclic;
  const out = toJsonSafe({
    err: new TypeError('bad'),
    cyclic,
    big: 10n,
    fn: () => 1,
    long: 'x'.repeat(3000),
    deep: { a: { b: { c: { d: { e: { f: { g: 1 } } } } } } },
  }) as Record<string, any>;
  assert.equal(out.err.name, 'TypeError');
  assert.equal(out.err.message, 'bad');
  assert.equal(out.cyclic.self, '[Circular]');
  assert.equal(out.big, '10');
  assert.equal('fn' in out, false);
  assert.equal(out.long.length, 2000);
  assert.equal(out.deep.a.b.c.d.e, '[Object]');
  JSON.stringify(out);
});
