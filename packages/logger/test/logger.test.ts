import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sdkTestEnv } from '@signpost/test-support/env';
import { ApiError, createLogger } from '@signpost/logger';

const { server } = await sdkTestEnv();

interface Row {
  level: string;
  category: string | null;
  source: string | null;
  message: string;
  data: string | null;
  user_id: string | null;
  app_version: string | null;
  fingerprint: string;
  occurrences: number;
  environment: string;
}
const rows = (projectId: string) =>
  server.db.all<Row>('SELECT * FROM log_groups WHERE project_id = ? ORDER BY message', [projectId]);

function countingFetch() {
  const bodies: { logs: unknown[] }[] = [];
  const f = (input: string, init?: RequestInit) => {
    if (typeof init?.body === 'string') bodies.push(JSON.parse(init.body));
    return fetch(input, init);
  };
  return { f, bodies };
}

describe('createLogger', () => {
  test('sends levels, structured data, category, source, user and app version', async () => {
    const p = await server.createProject();
    const log = createLogger({
      apiKey: p.liveKey,
      baseUrl: server.baseUrl,
      level: 'trace',
      category: 'checkout',
      source: 'web',
      appVersion: '2.0.0',
    });
    log.setUser('user_1');
    log.error('payment failed', { orderId: 'o1', amount: 12.5 });
    log.warn('slow answer', { ms: 2300 });
    log.info('order placed');
    log.debug('cart state', { items: 3 }, { category: 'cart' });
    log.trace('entering pay()');
    await log.flush();
    const stored = await rows(p.projectId);
    assert.deepEqual(
      stored.map((r) => [r.level, r.message]),
      [
        ['debug', 'cart state'],
        ['trace', 'entering pay()'],
        ['info', 'order placed'],
        ['error', 'payment failed'],
        ['warn', 'slow answer'],
      ],
    );
    const failed = stored.find((r) => r.message === 'payment failed')!;
    assert.deepEqual(JSON.parse(failed.data!), { orderId: 'o1', amount: 12.5 });
    assert.equal(failed.category, 'checkout');
    assert.equal(failed.source, 'web');
    assert.equal(failed.user_id, 'user_1');
    assert.equal(failed.app_version, '2.0.0');
    assert.equal(stored.find((r) => r.message === 'cart state')!.category, 'cart');
    assert.equal(failed.environment, 'live');
    assert.equal(log.stats.sent, 5);
  });

  test('batches at most 100 entries per request and flushes by size', async () => {
    const p = await server.createProject();
    const { f, bodies } = countingFetch();
    const log = createLogger({ apiKey: p.liveKey, baseUrl: server.baseUrl, fetch: f, flushIntervalMs: 60_000 });
    for (let i = 0; i < 230; i++) log.info(`entry ${String(i).padStart(3, '0')}`);
    // Two full batches went out by size; 30 wait for the interval or a flush.
    await new Promise((r) => setTimeout(r, 200));
    assert.deepEqual(
      bodies.map((b) => b.logs.length),
      [100, 100],
    );
    await log.flush();
    assert.deepEqual(
      bodies.map((b) => b.logs.length),
      [100, 100, 30],
    );
    assert.equal((await rows(p.projectId)).length, 230);
    await log.close();
  });

  test('flushes on its interval', async () => {
    const p = await server.createProject();
    const log = createLogger({ apiKey: p.liveKey, baseUrl: server.baseUrl, flushIntervalMs: 100 });
    log.info('by interval');
    for (let i = 0; i < 40 && (await rows(p.projectId)).length === 0; i++) await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(
      (await rows(p.projectId)).map((r) => r.message),
      ['by interval'],
    );
    await log.close();
  });

  test('the level filter, beforeSend and custom fingerprints', async () => {
    const p = await server.createProject();
    const log = createLogger({
      apiKey: p.testKey,
      baseUrl: server.baseUrl,
      level: 'warn',
      fingerprint: (entry) => (entry.message.startsWith('timeout') ? 'timeouts' : undefined),
      beforeSend: (entry) =>
        entry.data?.['secret'] ? null : { ...entry, message: entry.message.replace(/\d+/g, 'N') },
    });
    log.info('not sent');
    log.warn('has a secret', { secret: true });
    log.warn('timeout after 30 s');
    log.warn('timeout after 60 s');
    log.error('disk 91% full', {}, { fingerprint: 'disk' });
    log.error('disk 95% full', {}, { fingerprint: 'disk' });
    await log.flush();
    const stored = await rows(p.projectId);
    assert.deepEqual(
      stored.map((r) => [r.message, r.fingerprint, r.occurrences]),
      [
        ['disk N% full', 'disk', 2],
        ['timeout after N s', 'timeouts', 2],
      ],
    );
    assert.equal(stored[0]!.environment, 'test');
    assert.equal(log.stats.dropped, 1);
  });

  test('errors (and caught unknowns) become message plus data.error', async () => {
    const p = await server.createProject();
    const log = createLogger({ apiKey: p.liveKey, baseUrl: server.baseUrl });
    try {
      JSON.parse('{nope');
    } catch (error) {
      log.error(error, { input: '{nope' });
    }
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic['self'] = cyclic;
    log.info('cyclic data', { cyclic, big: 1n });
    await log.flush();
    const stored = await rows(p.projectId);
    const cyc = stored.find((r) => r.message === 'cyclic data');
    const err = stored.find((r) => r.message !== 'cyclic data');
    const data = JSON.parse(err!.data!);
    assert.equal(data.error.name, 'SyntaxError');
    assert.match(data.error.stack, /SyntaxError/);
    assert.equal(data.input, '{nope');
    assert.deepEqual(JSON.parse(cyc!.data!), { cyclic: { name: 'loop', self: '[Circular]' }, big: '1' });
  });

  test('child loggers share the queue and add defaults', async () => {
    const p = await server.createProject();
    const log = createLogger({ apiKey: p.liveKey, baseUrl: server.baseUrl, defaultData: { service: 'api' } });
    log.child({ category: 'jobs', data: { queue: 'mail' } }).info('job done', { id: 1 });
    await log.flush();
    const [row] = await rows(p.projectId);
    assert.equal(row!.category, 'jobs');
    assert.deepEqual(JSON.parse(row!.data!), { service: 'api', queue: 'mail', id: 1 });
  });

  test('console pass-through', async () => {
    const printed: unknown[][] = [];
    const original = { warn: console.warn, error: console.error, info: console.info };
    console.warn = (...a: unknown[]) => void printed.push(['warn', ...a]);
    console.error = (...a: unknown[]) => void printed.push(['error', ...a]);
    console.info = (...a: unknown[]) => void printed.push(['info', ...a]);
    try {
      const log = createLogger({ apiKey: undefined, console: 'warn', onError: () => {} });
      log.info('quiet');
      log.warn('loud', { a: 1 });
      log.error('louder');
    } finally {
      Object.assign(console, original);
    }
    assert.deepEqual(printed, [
      ['warn', 'loud', { a: 1 }],
      ['error', 'louder'],
    ]);
  });

  test('failures go to onError, never to the caller', async () => {
    const errors: unknown[] = [];
    const log = createLogger({ apiKey: 'svc_live_wrong', baseUrl: server.baseUrl, onError: (e) => errors.push(e) });
    log.info('will be refused');
    await log.flush();
    assert.equal(errors.length, 1);
    assert.ok(errors[0] instanceof ApiError);
    assert.equal((errors[0] as ApiError).status, 401);
    assert.equal(log.stats.dropped, 1);

    const missing: unknown[] = [];
    const noKey = createLogger({ apiKey: undefined, onError: (e) => missing.push(e) });
    noKey.info('nothing sent');
    await noKey.flush();
    assert.equal(missing.length, 1);
  });

  test('an unreachable server does not throw and does not keep the process alive', async () => {
    const errors: unknown[] = [];
    const log = createLogger({
      apiKey: 'svc_live_x',
      baseUrl: 'http://127.0.0.1:9/api/public/v1',
      maxRetries: 1,
      onError: (e) => errors.push(e),
    });
    log.info('lost');
    await log.flush();
    assert.equal(errors.length, 1);
  });
});

test('while rate-limited (429), batches are dropped and counted without a report each', async () => {
  const p = await server.createProject({ monthlyQuota: 1 });
  const errors: unknown[] = [];
  const log = createLogger({ apiKey: p.liveKey, baseUrl: server.baseUrl, onError: (e) => errors.push(e) });
  log.info('uses the whole quota');
  await log.flush();
  log.info('refused with 429');
  await log.flush();
  assert.equal(errors.length, 1, 'the 429 itself is reported');
  for (let i = 0; i < 3; i++) {
    log.info(`dropped ${i}`);
    await log.flush();
  }
  assert.equal(errors.length, 1, 'drops while limited are only counted');
  assert.equal(log.stats.dropped, 4);
  assert.equal(log.stats.sent, 1);
});

test('the main entry has nothing Node-only', async () => {
  const { readFileSync } = await import('node:fs');
  assert.doesNotMatch(
    readFileSync(new URL('../dist/index.js', import.meta.url), 'utf8'),
    /from ['"]node:|require\(|from ['"]pino/,
  );
});
