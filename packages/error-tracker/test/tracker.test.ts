import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { sdkTestEnv } from '@signpost/test-support/env';
import { ApiError, createErrorTracker, describeElement, parseUserAgent } from '@signpost/error-tracker';
import { nodeDevice } from '@signpost/error-tracker/node';

const { server } = await sdkTestEnv();

interface Row {
  id: string;
  title: string;
  message: string;
  stack_trace: string | null;
  error_type: string | null;
  severity: string;
  breadcrumbs: string | null;
  device: string | null;
  app: string | null;
  metadata: string | null;
  occurrences: number;
  environment: string;
}
const rows = (projectId: string) =>
  server.db.all<Row>('SELECT * FROM error_reports WHERE project_id = ? ORDER BY first_seen_at, title', [projectId]);

describe('createErrorTracker (Node)', () => {
  test('captureException sends title, message, type, stack, severity, app and metadata', async () => {
    const p = await server.createProject();
    const tracker = createErrorTracker({
      apiKey: p.liveKey,
      baseUrl: server.baseUrl,
      release: '3.1.0',
      environment: 'staging',
      metadata: { region: 'eu' },
    });
    tracker.internal.setDeviceProvider(nodeDevice);
    tracker.setUser({ id: 'u1', email: 'u1@example.com' });
    const result = await tracker.captureException(new TypeError('total is not a function'), {
      severity: 'high',
      metadata: { orderId: 'o1' },
    });
    assert.ok(result?.id);
    assert.equal(result.duplicate, false);
    const [row] = await rows(p.projectId);
    assert.equal(row!.id, result.id);
    assert.equal(row!.title, 'TypeError: total is not a function');
    assert.equal(row!.message, 'total is not a function');
    assert.equal(row!.error_type, 'TypeError');
    assert.equal(row!.severity, 'high');
    assert.match(row!.stack_trace!, /tracker\.test\.ts/);
    const app = JSON.parse(row!.app!);
    assert.equal(app.version, '3.1.0');
    assert.equal(app.environment, 'staging');
    assert.equal(app.userId, 'u1');
    assert.equal(app.userEmail, 'u1@example.com');
    assert.ok(app.sessionId);
    assert.deepEqual(JSON.parse(row!.metadata!), { region: 'eu', orderId: 'o1' });
    const device = JSON.parse(row!.device!);
    assert.equal(device.device, 'server');
    assert.match(device.userAgent, /^Node\.js\/v/);
  });

  test('captureMessage, short messages and non-Error values still satisfy the API', async () => {
    const p = await server.createProject();
    const tracker = createErrorTracker({ apiKey: p.liveKey, baseUrl: server.baseUrl, dedupeWindowMs: 0 });
    assert.ok(await tracker.captureMessage('Cache warm-up slow', 'medium'));
    assert.ok(await tracker.captureException(new Error('x')));
    assert.ok(await tracker.captureException('a string'));
    assert.ok(await tracker.captureException({ code: 42 }));
    assert.ok(await tracker.captureException(undefined));
    const stored = await rows(p.projectId);
    assert.equal(stored.length, 5);
    const message = stored.find((r) => r.error_type === 'Message')!;
    assert.equal(message.title, 'Message: Cache warm-up slow');
    assert.equal(message.severity, 'medium');
    for (const r of stored) {
      assert.ok(r.title.length >= 5, r.title);
      assert.ok(r.message.length >= 10, r.message);
    }
    assert.ok(stored.some((r) => r.message.includes('{"code":42}')));
  });

  test('beforeSend can change or drop an event; drops are counted', async () => {
    const p = await server.createProject();
    const tracker = createErrorTracker({
      apiKey: p.liveKey,
      baseUrl: server.baseUrl,
      beforeSend: (event, hint) => {
        if (event.message.includes('ignore me')) return null;
        assert.ok(hint.originalError instanceof Error);
        return { ...event, message: event.message.replace(/\d{4}-\d{4}/, '[card]'), metadata: { scrubbed: true } };
      },
    });
    assert.equal(await tracker.captureException(new Error('please ignore me now')), undefined);
    await tracker.captureException(new Error('card 1234-5678 declined'));
    const stored = await rows(p.projectId);
    assert.deepEqual(
      stored.map((r) => r.message),
      ['card [card] declined'],
    );
    assert.deepEqual(JSON.parse(stored[0]!.metadata!), { scrubbed: true });
    assert.equal(tracker.stats.dropped, 1);
    assert.equal(tracker.stats.sent, 1);
  });

  test('sampling happens first: sampleRate 0 sends nothing and never calls beforeSend', async () => {
    const p = await server.createProject();
    let called = 0;
    const tracker = createErrorTracker({
      apiKey: p.liveKey,
      baseUrl: server.baseUrl,
      sampleRate: 0,
      beforeSend: (e) => {
        called++;
        return e;
      },
    });
    await tracker.captureException(new Error('sampled out, not sent'));
    assert.equal(tracker.stats.sampledOut, 1);
    assert.equal(called, 0);
    assert.equal((await rows(p.projectId)).length, 0);
  });

  test('a burst of the same error is sent once (client-side de-duplication)', async () => {
    const p = await server.createProject();
    let requests = 0;
    const tracker = createErrorTracker({
      apiKey: p.liveKey,
      baseUrl: server.baseUrl,
      fetch: (u, i) => {
        requests++;
        return fetch(u, i);
      },
    });
    const burst = () => {
      throw new Error('render loop exploded');
    };
    for (let i = 0; i < 25; i++) {
      try {
        burst();
      } catch (error) {
        void tracker.captureException(error);
      }
    }
    await tracker.flush();
    assert.equal(requests, 1);
    assert.equal(tracker.stats.deduplicated, 24);
    await tracker.captureException(new Error('a different one'));
    assert.equal(requests, 2);
  });

  test('breadcrumbs: the 50 newest are sent', async () => {
    const p = await server.createProject();
    const tracker = createErrorTracker({
      apiKey: p.liveKey,
      baseUrl: server.baseUrl,
      beforeBreadcrumb: (c) => (c.message === 'secret' ? null : c),
    });
    for (let i = 0; i < 60; i++) tracker.addBreadcrumb({ type: 'custom', message: `step ${i}`, data: { i } });
    tracker.addBreadcrumb({ type: 'custom', message: 'secret' });
    await tracker.captureException(new Error('after 60 steps'));
    const crumbs = JSON.parse((await rows(p.projectId))[0]!.breadcrumbs!);
    assert.equal(crumbs.length, 50);
    assert.equal(crumbs[0].message, 'step 10');
    assert.equal(crumbs[49].message, 'step 59');
    assert.ok(crumbs[0].timestamp);
  });

  test('ignoreErrors', async () => {
    const p = await server.createProject();
    const tracker = createErrorTracker({
      apiKey: p.liveKey,
      baseUrl: server.baseUrl,
      ignoreErrors: ['ResizeObserver loop', /^AbortError:/],
    });
    await tracker.captureException(new Error('ResizeObserver loop limit exceeded'));
    const abort = new Error('The user aborted a request.');
    abort.name = 'AbortError';
    await tracker.captureException(abort);
    assert.equal(tracker.stats.dropped, 2);
    assert.equal((await rows(p.projectId)).length, 0);
  });

  test('the server counts repeats of the same title and type on one record', async () => {
    const p = await server.createProject();
    const tracker = createErrorTracker({ apiKey: p.testKey, baseUrl: server.baseUrl, dedupeWindowMs: 0 });
    const first = await tracker.captureException(new Error('same again'));
    const second = await tracker.captureException(new Error('same again'));
    assert.equal(second?.id, first?.id);
    assert.equal(second?.duplicate, true);
    const [row] = await rows(p.projectId);
    assert.equal(row!.occurrences, 2);
    assert.equal(row!.environment, 'test');
  });

  test('failures go to onError and captures resolve undefined; nothing throws', async () => {
    const errors: unknown[] = [];
    const tracker = createErrorTracker({
      apiKey: 'svc_live_wrong',
      baseUrl: server.baseUrl,
      onError: (e) => errors.push(e),
    });
    assert.equal(await tracker.captureException(new Error('refused report')), undefined);
    assert.ok(errors[0] instanceof ApiError);
    assert.equal((errors[0] as ApiError).status, 401);
    assert.equal(tracker.stats.failed, 1);

    const down = createErrorTracker({
      apiKey: 'svc_live_x',
      baseUrl: 'http://127.0.0.1:9/api/public/v1',
      maxRetries: 0,
      onError: (e) => errors.push(e),
    });
    assert.equal(await down.captureException(new Error('nowhere to go')), undefined);
    const throwing = createErrorTracker({
      apiKey: 'svc_live_x',
      baseUrl: server.baseUrl,
      beforeSend: () => {
        throw new Error('hook bug');
      },
      onError: (e) => errors.push(e),
    });
    assert.equal(await throwing.captureException(new Error('hook will throw')), undefined);
    assert.match(String(errors.at(-1)), /hook bug/);
  });
});

describe('helpers', () => {
  test('describeElement: short selectors, never values', () => {
    const el = {
      tagName: 'INPUT',
      id: 'email',
      classList: ['field', 'wide', 'third'],
      getAttribute: (n: string) => ({ name: 'email', type: 'email', value: 'secret@example.com' })[n] ?? null,
    };
    assert.equal(describeElement(el), 'input#email.field.wide[name="email"][type="email"]');
    const long = { tagName: 'DIV', id: 'x'.repeat(100), classList: [], getAttribute: () => null };
    assert.equal(describeElement(long).length, 80);
  });

  test('parseUserAgent', () => {
    assert.deepEqual(
      parseUserAgent(
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.86',
      ),
      { browser: 'Edge', browserVersion: '131.0.2903.86', os: 'Windows', osVersion: '10.0', device: 'desktop' },
    );
    assert.deepEqual(
      parseUserAgent(
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
      ),
      { browser: 'Safari', browserVersion: '17.5', os: 'iOS', osVersion: '17.5', device: 'mobile' },
    );
  });

  test('the main entry and the React entry have nothing Node-only', () => {
    const dist = new URL('../dist/', import.meta.url);
    for (const file of readdirSync(dist).filter((f) => f.endsWith('.js') && f !== 'node.js')) {
      assert.doesNotMatch(readFileSync(new URL(file, dist), 'utf8'), /from ['"]node:|require\(|process\.on\(/, file);
    }
  });
});

test('while rate-limited (429), reports are dropped and counted without a report each', async () => {
  const p = await server.createProject({ monthlyQuota: 1 });
  const errors: unknown[] = [];
  const tracker = createErrorTracker({ apiKey: p.liveKey, baseUrl: server.baseUrl, onError: (e) => errors.push(e) });
  assert.ok(await tracker.captureException(new Error('uses the whole quota')));
  assert.equal(await tracker.captureException(new Error('refused with 429')), undefined);
  assert.equal(errors.length, 1);
  for (let i = 0; i < 3; i++) await tracker.captureException(new Error(`dropped while limited ${i}`));
  assert.equal(errors.length, 1);
  assert.equal(tracker.stats.failed, 4);
});
