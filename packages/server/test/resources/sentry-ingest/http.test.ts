/**
 * The Sentry ingest over plain HTTP: compressed bodies, the three ways of carrying the key, the
 * refusals (403 alike for a bad key and another project's number, 400, 413, 429) and what
 * happens to items that are not events or logs.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { ingestCounts } from '../../../src/resources/sentry-ingest/index.ts';
import { managedProjectSuite } from '../../support/manage-fixtures.ts';
import type { TestServer } from '../../support/server.ts';

async function ingestNumber(server: TestServer, projectId: string): Promise<number> {
  const row = await server.db.get<{ ingest_number: number }>('SELECT ingest_number FROM projects WHERE id = ?', [
    projectId,
  ]);
  return Number(row!.ingest_number);
}

function event(title: string, extra: Record<string, unknown> = {}) {
  return {
    event_id: crypto.randomUUID().replaceAll('-', ''),
    timestamp: Date.now() / 1000,
    platform: 'javascript',
    level: 'error',
    exception: {
      values: [
        {
          type: 'RangeError',
          value: title,
          stacktrace: {
            frames: [
              { function: 'main', filename: 'app.js', abs_path: 'https://shop.example/app.js', lineno: 1, colno: 10 },
              { function: 'render', filename: 'app.js', abs_path: 'https://shop.example/app.js', lineno: 20, colno: 5 },
            ],
          },
        },
      ],
    },
    ...extra,
  };
}

function envelope(header: Record<string, unknown>, items: { header: Record<string, unknown>; payload: unknown }[]) {
  const lines = [JSON.stringify(header)];
  for (const item of items) {
    const payload = typeof item.payload === 'string' ? item.payload : JSON.stringify(item.payload);
    lines.push(JSON.stringify({ ...item.header, length: Buffer.byteLength(payload) }), payload);
  }
  return `${lines.join('\n')}\n`;
}

describe('Sentry ingest over HTTP', () => {
  const p = managedProjectSuite();
  const url = async (path: 'envelope' | 'store', query = '') =>
    `${p.server.origin}/api/${await ingestNumber(p.server, p.projectId)}/${path}/${query}`;
  const post = async (target: string, body: string | Buffer, headers: Record<string, string> = {}) =>
    fetch(target, {
      method: 'POST',
      body: typeof body === 'string' ? body : new Uint8Array(body),
      headers: { 'content-type': 'application/x-sentry-envelope', ...headers },
    });
  const errorsTitled = async (title: string) =>
    (await p.owner.get(`/projects/${p.projectId}/errors`, { query: { q: title } })).body.errors.filter(
      (e: any) => e.title === `RangeError: ${title}`,
    );

  it('answers the preflight for any origin with the headers Sentry SDKs send', async () => {
    const response = await fetch(await url('envelope'), {
      method: 'OPTIONS',
      headers: { origin: 'https://shop.example', 'access-control-request-method': 'POST' },
    });
    assert.equal(response.status, 204);
    assert.equal(response.headers.get('access-control-allow-origin'), '*');
    assert.equal(
      response.headers.get('access-control-allow-headers'),
      'Content-Type, X-Sentry-Auth, Content-Encoding, sentry-trace, baggage, Authorization, X-API-Key',
    );
  });

  it('takes gzip, deflate and brotli bodies, with the key in the query, X-Sentry-Auth or the DSN', async () => {
    const number = await ingestNumber(p.server, p.projectId);
    const cases = [
      ['gzip', gzipSync, `?sentry_key=${p.liveKey}&sentry_version=7`, {}],
      [
        'deflate',
        deflateSync,
        '',
        { 'x-sentry-auth': `Sentry sentry_version=7, sentry_key=${p.liveKey}, sentry_client=test/1.0` },
      ],
      ['br', brotliCompressSync, '', {}],
    ] as const;
    for (const [encoding, compress, query, headers] of cases) {
      const sent = event(`compressed with ${encoding}`);
      const dsn = `http://${p.liveKey}@127.0.0.1/${number}`;
      const body = envelope({ event_id: sent.event_id, dsn }, [{ header: { type: 'event' }, payload: sent }]);
      const response = await post(await url('envelope', query), compress(Buffer.from(body)), {
        'content-encoding': encoding,
        ...headers,
      });
      assert.equal(response.status, 200, await response.clone().text());
      assert.deepEqual(await response.json(), { id: sent.event_id });
      assert.equal(response.headers.get('access-control-allow-origin'), '*');
      assert.equal((await errorsTitled(`compressed with ${encoding}`)).length, 1, encoding);
    }
  });

  it('stores a legacy /store/ event, with or without the trailing slash', async () => {
    for (const slash of ['/', '']) {
      const sent = event(`stored through store${slash}`);
      const target = (await url('store')).replace(/\/$/, slash);
      const response = await post(target, JSON.stringify(sent), {
        'content-type': 'application/json',
        'x-api-key': p.liveKey,
      });
      assert.equal(response.status, 200);
      assert.deepEqual(await response.json(), { id: sent.event_id });
    }
    assert.equal((await errorsTitled('stored through store/')).length, 1);
    assert.equal((await errorsTitled('stored through store')).length, 1);
  });

  it('counts the same event twice on one group, and reads the stack newest call first', async () => {
    const sent = event('the same event twice');
    for (let i = 0; i < 2; i++) {
      const response = await post(
        await url('envelope', `?sentry_key=${p.liveKey}`),
        envelope({}, [{ header: { type: 'event' }, payload: sent }]),
        {
          'content-type': 'text/plain;charset=UTF-8',
        },
      );
      assert.equal(response.status, 200);
    }
    const [group] = await errorsTitled('the same event twice');
    assert.equal(group.occurrences, 2);
    const full = await p.owner.get(`/projects/${p.projectId}/errors/${group.id}`);
    assert.equal(
      full.body.stackTrace,
      [
        'RangeError: the same event twice',
        '    at render (https://shop.example/app.js:20:5)',
        '    at main (https://shop.example/app.js:1:10)',
      ].join('\n'),
    );
  });

  it('maps breadcrumbs, contexts, user, release, environment and level onto the report', async () => {
    const t = Date.now() / 1000;
    const sent = event('mapped in full', {
      level: 'fatal',
      release: 'web@3.1.0',
      environment: 'stage',
      timestamp: 1e15,
      user: { id: 'u-1', email: 'grace@example.com', username: 'grace' },
      request: {
        url: 'https://shop.example/cart',
        headers: { 'User-Agent': 'Mozilla/5.0 Firefox/140.0', Referer: 'https://shop.example/' },
      },
      contexts: {
        browser: { name: 'Firefox', version: '140.0' },
        os: { name: 'Linux' },
        device: { model: 'Framework 13', online: true, screen_width_pixels: 2256, screen_height_pixels: 1504 },
        culture: { locale: 'de-DE', timezone: 'Europe/Berlin' },
        network: { effective_type: '4g', rtt: 50 },
      },
      tags: { huge: 'x'.repeat(6000) },
      breadcrumbs: {
        values: [
          { timestamp: t - 5, category: 'navigation', data: { from: '/', to: '/cart' } },
          { timestamp: t - 4, category: 'ui.input', message: 'input.qty' },
          { timestamp: t - 3, category: 'console', level: 'warning', message: 'low stock' },
          {
            timestamp: t - 2,
            type: 'http',
            category: 'xhr',
            data: { method: 'POST', url: '/api/pay', status_code: 402 },
          },
          { timestamp: t - 1, category: 'checkout', message: 'coupon applied', data: { code: 'X1' } },
        ],
      },
    });
    const response = await post(
      await url('envelope', `?sentry_key=${p.liveKey}`),
      envelope({}, [{ header: { type: 'event' }, payload: sent }]),
    );
    assert.equal(response.status, 200, await response.clone().text());
    const [group] = await errorsTitled('mapped in full');
    const full = (await p.owner.get(`/projects/${p.projectId}/errors/${group.id}`)).body;
    assert.equal(full.severity, 'critical');
    assert.equal(full.url, 'https://shop.example/cart');
    assert.equal(full.referrer, 'https://shop.example/');
    assert.deepEqual(full.app, {
      version: 'web@3.1.0',
      environment: 'staging',
      userId: 'u-1',
      userEmail: 'grace@example.com',
    });
    assert.deepEqual(full.device, {
      userAgent: 'Mozilla/5.0 Firefox/140.0',
      browser: 'Firefox',
      browserVersion: '140.0',
      os: 'Linux',
      device: 'Framework 13',
      screenResolution: '2256x1504',
      language: 'de-DE',
      timezone: 'Europe/Berlin',
    });
    assert.deepEqual(full.network, { effectiveType: '4g', rtt: 50, online: true });
    assert.deepEqual(
      full.breadcrumbs.map((b: any) => [b.type, b.message]),
      [
        ['navigation', '/ → /cart'],
        ['input', 'input.qty'],
        ['console', 'low stock'],
        ['http', 'POST /api/pay [402]'],
        ['custom', 'coupon applied'],
      ],
    );
    assert.equal(full.metadata.sentry.eventId, sent.event_id);
    assert.equal(full.metadata.sentry.environment, 'stage');
    assert.equal(full.metadata.sentry.tags, undefined);
  });

  it('refuses a bad key, another project’s key and an unknown number alike with 403', async () => {
    const other = await p.server.createProject();
    const otherNumber = await ingestNumber(p.server, other.projectId);
    const body = envelope({}, [{ header: { type: 'event' }, payload: event('never stored') }]);
    const bodies = new Set<string>();
    for (const target of [
      await url('envelope', `?sentry_key=${p.liveKey.slice(0, -4)}aaaa`),
      await url('envelope', `?sentry_key=${other.liveKey}`),
      `${p.server.origin}/api/${otherNumber}/envelope/?sentry_key=${p.liveKey}`,
      `${p.server.origin}/api/999999999/envelope/?sentry_key=${p.liveKey}`,
      `${p.server.origin}/api/not-a-number/envelope/?sentry_key=${p.liveKey}`,
    ]) {
      const response = await post(target, body);
      assert.equal(response.status, 403, target);
      bodies.add(await response.text());
    }
    assert.equal(bodies.size, 1, [...bodies].join('\n'));
    assert.equal((await errorsTitled('never stored')).length, 0);
    const missing = await post(await url('envelope'), body);
    assert.equal(missing.status, 401);
  });

  it('refuses a key without errors:write', async () => {
    const logsOnly = await p.server.createProject({ scopes: ['logs:write'] });
    const number = await ingestNumber(p.server, logsOnly.projectId);
    const response = await post(
      `${p.server.origin}/api/${number}/envelope/?sentry_key=${logsOnly.liveKey}`,
      envelope({}, [{ header: { type: 'event' }, payload: event('no scope') }]),
    );
    assert.equal(response.status, 403);
  });

  it('answers 400 to a malformed envelope and 413 to a body too large, compressed or not', async () => {
    const target = await url('envelope', `?sentry_key=${p.liveKey}`);
    for (const bad of [
      'not json\n{}',
      '{}\n{"type":"event","length":999}\n{}',
      '{}\n{"length":2}\n{}',
      '{}\n{"type":"event"}\n{not json',
    ]) {
      const response = await post(target, bad);
      assert.equal(response.status, 400, bad);
    }
    assert.equal(
      (await post(target, gzipSync(Buffer.from('garbage')).subarray(0, 10), { 'content-encoding': 'gzip' })).status,
      400,
    );
    assert.equal((await post(target, Buffer.alloc(2 * 1024 * 1024, 0x61))).status, 413);
    // 64 MiB of zeros gzip to about 64 KiB: inflating stops at the limit.
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024));
    assert.ok(bomb.length < 1024 * 1024);
    assert.equal((await post(target, bomb, { 'content-encoding': 'gzip' })).status, 413);
  });

  it('skips blank lines between items, whatever whitespace they hold', async () => {
    const title = `Padded envelope ${crypto.randomUUID()}`;
    // An item without a length runs to its newline; the lines around it hold only spaces, tabs,
    // carriage returns, or Unicode spaces (a no-break space, a byte order mark).
    const body = `{}\n \t\r\n{"type":"event"}\n${JSON.stringify(event(title))}\n\u00a0\ufeff\n\n`;
    const response = await post(await url('envelope', `?sentry_key=${p.liveKey}`), body);
    assert.equal(response.status, 200);
    assert.equal((await errorsTitled(title)).length, 1);
  });

  it('accepts other item types with a 200, drops them and counts them', async () => {
    const before = { ...ingestCounts(p.server.db).dropped };
    const response = await post(
      await url('envelope', `?sentry_key=${p.liveKey}`),
      envelope({ sent_at: new Date().toISOString() }, [
        { header: { type: 'session' }, payload: { sid: 'abc', status: 'ok', init: true } },
        { header: { type: 'client_report' }, payload: { discarded_events: [] } },
        { header: { type: 'transaction' }, payload: { type: 'transaction', spans: [] } },
        { header: { type: 'attachment', filename: 'a.txt' }, payload: 'hello\nworld' },
      ]),
    );
    assert.equal(response.status, 200);
    const after = ingestCounts(p.server.db).dropped;
    for (const type of ['session', 'client_report', 'transaction', 'attachment']) {
      assert.equal((after[type] ?? 0) - (before[type] ?? 0), 1, type);
    }
  });

  it('answers 429 with Retry-After and X-Sentry-Rate-Limits once the quota is used', async () => {
    const limited = await p.server.createProject({ monthlyQuota: 1 });
    const target = `${p.server.origin}/api/${await ingestNumber(p.server, limited.projectId)}/envelope/?sentry_key=${limited.liveKey}`;
    const body = envelope({}, [{ header: { type: 'event' }, payload: event('within quota') }]);
    assert.equal((await post(target, body)).status, 200);
    const refused = await post(target, body);
    assert.equal(refused.status, 429);
    assert.ok(Number(refused.headers.get('retry-after')) > 0);
    assert.match(refused.headers.get('x-sentry-rate-limits') ?? '', /^\d+::organization:quota_exceeded$/);
    assert.match(refused.headers.get('access-control-expose-headers') ?? '', /X-Sentry-Rate-Limits/);
  });
});
