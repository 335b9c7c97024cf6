import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ApiError, SdkError, backoffDelay, createTransport, parseRetryAfter, type FetchLike } from '@signpost/sdk-core';
import { sdkTestEnv } from '@signpost/test-support/env';

const { server, project, proxy } = await sdkTestEnv({ project: true, proxy: true });

/** Real fetch, counted. */
function countingFetch(): FetchLike & { calls: number } {
  const f = ((input: string, init?: RequestInit) => {
    f.calls++;
    return fetch(input, init);
  }) as FetchLike & { calls: number };
  f.calls = 0;
  return f;
}

describe('transport', () => {
  test('sends the key as X-API-Key and parses the JSON answer', async () => {
    const transport = createTransport({ apiKey: project.liveKey, baseUrl: server.baseUrl });
    const res = await transport.request<{ accepted: number }>('POST', '/logs', {
      body: { logs: [{ level: 'info', message: 'transport says hello', category: 'core-test' }] },
    });
    assert.equal(res.status, 200);
    assert.deepEqual(res.data, { accepted: 1 });
    assert.ok(res.headers.get('ratelimit-limit') !== undefined);
    const rows = await server.db.all<{ message: string }>('SELECT message FROM log_groups WHERE project_id = ?', [
      project.projectId,
    ]);
    assert.deepEqual(
      rows.map((r) => r.message),
      ['transport says hello'],
    );
  });

  test('401 becomes an ApiError and is never retried', async () => {
    const f = countingFetch();
    const transport = createTransport({ apiKey: 'svc_live_nope', baseUrl: server.baseUrl, fetch: f, retryBaseMs: 1 });
    const error = await transport.request('POST', '/logs', { body: { logs: [] } }).catch((e: unknown) => e);
    assert.ok(error instanceof ApiError);
    assert.equal(error.status, 401);
    assert.equal(error.body.error, 'Invalid API key');
    assert.equal(f.calls, 1);
  });

  test('400 carries the validation details and is not retried', async () => {
    const f = countingFetch();
    const transport = createTransport({ apiKey: project.liveKey, baseUrl: server.baseUrl, fetch: f, retryBaseMs: 1 });
    const error = await transport
      .request('POST', '/logs', { body: { logs: [{ level: 'loud', message: 'x' }] } })
      .catch((e: unknown) => e);
    assert.ok(error instanceof ApiError);
    assert.equal(error.status, 400);
    assert.ok(error.body.details?.some((d) => d.field.startsWith('logs.0')));
    assert.equal(f.calls, 1);
  });

  test('network errors are retried with backoff, then reported as SdkError network_error', async () => {
    proxy.mode = 'down';
    const hits = proxy.hits;
    try {
      const transport = createTransport({
        apiKey: project.liveKey,
        baseUrl: proxy.baseUrl,
        maxRetries: 2,
        retryBaseMs: 5,
      });
      const error = await transport.request('GET', '/features').catch((e: unknown) => e);
      assert.ok(error instanceof SdkError);
      assert.equal(error.code, 'network_error');
      assert.equal(proxy.hits - hits, 3);
    } finally {
      proxy.mode = 'ok';
    }
  });

  test('5xx is retried and the request then reaches the server', async () => {
    proxy.failNext(2);
    const hits = proxy.hits;
    const transport = createTransport({
      apiKey: project.liveKey,
      baseUrl: proxy.baseUrl,
      maxRetries: 3,
      retryBaseMs: 5,
    });
    const res = await transport.request('POST', '/logs', {
      body: { logs: [{ level: 'warn', message: 'after two 503s' }] },
    });
    assert.equal(res.status, 200);
    assert.equal(proxy.hits - hits, 3);
  });

  test('a 503 or a 429 with a short Retry-After is retried after that wait', async () => {
    for (const status of [503, 429]) {
      proxy.failNext(1, { status, retryAfter: '1' });
      const transport = createTransport({ apiKey: project.liveKey, baseUrl: proxy.baseUrl, retryBaseMs: 1 });
      const started = Date.now();
      const res = await transport.request('GET', '/features');
      assert.equal(res.status, 200);
      assert.ok(Date.now() - started >= 900, `${status}: waited ${Date.now() - started} ms`);
      assert.equal(transport.isRateLimited(), false);
    }
  });

  test('timeouts abort the attempt and are retried', async () => {
    proxy.mode = 'hang';
    const hits = proxy.hits;
    try {
      const transport = createTransport({
        apiKey: project.liveKey,
        baseUrl: proxy.baseUrl,
        timeoutMs: 150,
        maxRetries: 1,
        retryBaseMs: 1,
      });
      const error = await transport.request('GET', '/features').catch((e: unknown) => e);
      assert.ok(error instanceof SdkError);
      assert.equal(error.code, 'timeout');
      assert.equal(proxy.hits - hits, 2);
    } finally {
      proxy.mode = 'ok';
    }
  });

  test('429 with a long Retry-After: not retried, later requests are dropped and counted', async () => {
    const limited = await server.createProject({ monthlyQuota: 1 });
    const f = countingFetch();
    const transport = createTransport({ apiKey: limited.liveKey, baseUrl: server.baseUrl, fetch: f });
    await transport.request('GET', '/features');
    const error = await transport.request('GET', '/features').catch((e: unknown) => e);
    assert.ok(error instanceof ApiError);
    assert.equal(error.status, 429);
    assert.equal(error.body.error, 'Quota exceeded');
    assert.ok((error.retryAfterMs ?? 0) > 0);
    assert.equal(f.calls, 2);
    assert.equal(transport.isRateLimited(), true);
    const dropped = await transport.request('GET', '/features').catch((e: unknown) => e);
    assert.ok(dropped instanceof SdkError);
    assert.equal(dropped.code, 'rate_limited');
    assert.equal(f.calls, 2, 'no request while rate-limited');
    assert.equal(transport.stats.droppedWhileRateLimited, 1);
  });

  test('etag: If-None-Match and a 304 without data', async () => {
    const transport = createTransport({ baseUrl: server.baseUrl });
    const first = await transport.request('GET', '/site-config', { query: { projectId: project.projectId } });
    assert.equal(first.status, 200);
    const etag = first.headers.get('etag');
    assert.ok(etag);
    const second = await transport.request('GET', '/site-config', { query: { projectId: project.projectId }, etag });
    assert.equal(second.status, 304);
    assert.equal(second.data, undefined);
  });

  test('abort signal cancels the request', async () => {
    proxy.mode = 'hang';
    try {
      const transport = createTransport({ baseUrl: proxy.baseUrl });
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 50);
      const error = await transport.request('GET', '/features', { signal: controller.signal }).catch((e: unknown) => e);
      assert.ok(error instanceof SdkError);
      assert.equal(error.code, 'aborted');
    } finally {
      proxy.mode = 'ok';
    }
  });
});

describe('backoff helpers', () => {
  test('parseRetryAfter reads seconds and HTTP dates', () => {
    assert.equal(parseRetryAfter('3'), 3000);
    assert.equal(parseRetryAfter(null), undefined);
    assert.equal(parseRetryAfter('soon'), undefined);
    const now = Date.parse('2026-11-22T10:00:00Z');
    assert.equal(parseRetryAfter('Sun, 22 Nov 2026 10:00:30 GMT', now), 30_000);
    assert.equal(parseRetryAfter('Sun, 22 Nov 2026 09:00:00 GMT', now), 0);
  });

  test('backoffDelay is full jitter under an exponential ceiling', () => {
    assert.equal(
      backoffDelay(0, 500, 30_000, () => 0.999999),
      499,
    );
    assert.equal(
      backoffDelay(3, 500, 30_000, () => 0.5),
      2000,
    );
    assert.equal(
      backoffDelay(20, 500, 30_000, () => 0.5),
      15_000,
    );
    assert.equal(
      backoffDelay(5, 500, 30_000, () => 0),
      0,
    );
  });
});
