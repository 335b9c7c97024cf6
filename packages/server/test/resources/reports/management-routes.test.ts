import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { managedProjectSuite, managedProject } from '../../support/manage-fixtures.ts';

describe('management: bugs, errors and logs', () => {
  const p = managedProjectSuite();

  const path = (rest: string) => `/projects/${p.projectId}${rest}`;

  it('lists bug reports with occurrence counts, filters them and resolves one', async () => {
    const crash = {
      title: 'App crashes on save',
      message: 'Saving a draft closes the app.',
      severity: 'critical',
      stackTrace: 'at save()',
    };
    const first = (await p.live.post('/bugs', crash)).body;
    await p.live.post('/bugs', crash);
    await p.live.post('/bugs', {
      title: 'Typo on pricing page',
      message: 'It says "pirce" instead of price.',
      severity: 'low',
    });
    await p.test.post('/bugs', { title: 'Test-key bug report', message: 'Only the test environment has this.' });

    const all = await p.member.get(path('/bugs'));
    assert.equal(all.status, 200);
    assert.equal(all.body.total, 3);
    assert.deepEqual(all.body.counts, { open: 3, resolved: 0, ignored: 0 });
    const live = await p.member.get(path('/bugs'), { query: { environment: 'live', sort: 'occurrences' } });
    assert.equal(live.body.total, 2);
    assert.equal(live.body.bugs[0].id, first.id);
    assert.equal(live.body.bugs[0].occurrences, 2);
    assert.ok(live.body.bugs[0].firstSeenAt <= live.body.bugs[0].lastSeenAt);
    assert.deepEqual(
      (await p.member.get(path('/bugs'), { query: { severity: 'critical,high' } })).body.bugs.map((b: any) => b.id),
      [first.id],
    );
    assert.deepEqual(
      (await p.member.get(path('/bugs'), { query: { q: 'pirce' } })).body.bugs.map((b: any) => b.title),
      ['Typo on pricing page'],
    );
    assert.equal((await p.member.get(path('/bugs'), { query: { severity: 'fatal' } })).status, 400);
    assert.equal(
      (await p.member.get(path('/bugs'), { query: { since: new Date(Date.now() + 60_000).toISOString() } })).body.total,
      0,
    );
    assert.equal(
      (await p.member.get(path('/bugs'), { query: { until: new Date(Date.now() - 60_000).toISOString() } })).body.total,
      0,
    );
    assert.equal(
      (await p.member.get(path('/bugs'), { query: { since: new Date(Date.now() - 60_000).toISOString() } })).body.total,
      3,
    );

    const full = await p.member.get(path(`/bugs/${first.id}`));
    assert.equal(full.body.stackTrace, 'at save()');
    assert.equal(full.body.status, 'open');

    const resolved = await p.admin.patch(path(`/bugs/${first.id}`), { status: 'resolved' });
    assert.equal(resolved.status, 200);
    assert.equal(resolved.body.status, 'resolved');
    const open = await p.member.get(path('/bugs'), { query: { status: 'open' } });
    assert.equal(open.body.total, 2);
    assert.deepEqual(open.body.counts, { open: 2, resolved: 1, ignored: 0 });
    assert.equal((await p.admin.patch(path(`/bugs/${first.id}`), { status: 'closed' })).status, 400);
    assert.equal((await p.member.patch(path(`/bugs/${first.id}`), { status: 'ignored' })).status, 403);
    assert.equal((await p.admin.patch(path('/bugs/bug_missing'), { status: 'ignored' })).status, 404);
  });

  it('shows the full error record with breadcrumbs and context; ignores a group', async () => {
    const report = {
      title: 'TypeError in checkout',
      message: 'Cannot read properties of undefined (reading "total")',
      errorType: 'TypeError',
      severity: 'high',
      stackTrace: 'TypeError: Cannot read…\n at checkout.js:10',
      breadcrumbs: [
        { timestamp: '2026-11-22T10:00:00.000Z', type: 'navigation', message: '/cart → /checkout' },
        {
          timestamp: '2026-11-22T10:00:05.000Z',
          type: 'click',
          message: 'Pay',
          category: 'ui',
          data: { button: 'pay' },
        },
      ],
      device: { browser: 'Firefox', os: 'Linux' },
      network: { online: true, rtt: 50 },
      app: { version: '1.4.0', environment: 'production' },
      url: 'https://shop.example.com/checkout',
      referrer: 'https://shop.example.com/cart',
      timestamp: '2026-11-22T10:00:06.000Z',
      metadata: { cartId: 'c_1' },
    };
    const created = (await p.live.post('/errors', report)).body;
    await p.live.post('/errors', report);
    await p.live.post('/errors', {
      title: 'Network request failed',
      message: 'fetch failed after 3 retries',
      severity: 'low',
    });

    const list = await p.member.get(path('/errors'), { query: { severity: 'high' } });
    assert.equal(list.body.total, 1);
    assert.equal(list.body.errors[0].occurrences, 2);
    assert.equal(list.body.errors[0].errorType, 'TypeError');
    assert.equal((await p.member.get(path('/errors'), { query: { q: 'checkout.js' } })).body.total, 1);

    const full = (await p.member.get(path(`/errors/${created.id}`))).body;
    assert.deepEqual(full.breadcrumbs, report.breadcrumbs);
    assert.deepEqual(full.device, report.device);
    assert.deepEqual(full.network, report.network);
    assert.deepEqual(full.app, report.app);
    assert.deepEqual(full.metadata, report.metadata);
    assert.equal(full.referrer, report.referrer);
    assert.equal(full.occurredAt, report.timestamp);

    const ignored = await p.admin.patch(path(`/errors/${created.id}`), { status: 'ignored' });
    assert.equal(ignored.body.status, 'ignored');
    assert.deepEqual((await p.member.get(path('/errors'))).body.counts, {
      open: 1,
      resolved: 0,
      ignored: 1,
      regressed: 0,
    });
    const reopened = await p.admin.patch(path(`/errors/${created.id}`), { status: 'open' });
    assert.equal(reopened.body.status, 'open');
  });

  it('lists log groups by level, category and text with counts', async () => {
    await p.live.post('/logs', {
      logs: [
        { level: 'error', message: 'Payment provider timeout', category: 'billing', source: 'api', data: { ms: 3000 } },
        { level: 'error', message: 'Payment provider timeout', category: 'billing', source: 'api', data: { ms: 4000 } },
        { level: 'info', message: 'User signed in', category: 'auth' },
        { level: 'warn', message: 'Slow query', category: 'db', timestamp: '2026-01-01T00:00:00.000Z' },
      ],
    });
    await p.test.post('/logs', { logs: [{ level: 'error', message: 'Test environment only' }] });

    const errors = await p.member.get(path('/logs'), { query: { level: 'error', environment: 'live' } });
    assert.equal(errors.body.total, 1);
    const group = errors.body.logs[0];
    assert.equal(group.occurrences, 2);
    assert.equal(group.category, 'billing');
    assert.equal(group.environment, 'live');
    assert.deepEqual((await p.member.get(path(`/logs/${group.id}`))).body.data, { ms: 4000 });
    assert.equal(
      (await p.member.get(path('/logs'), { query: { category: 'auth' } })).body.logs[0].message,
      'User signed in',
    );
    assert.equal((await p.member.get(path('/logs'), { query: { level: 'error,warn' } })).body.total, 3);
    assert.equal((await p.member.get(path('/logs'), { query: { environment: 'test' } })).body.total, 1);
    const old = await p.member.get(path('/logs'), { query: { until: '2026-06-01T00:00:00Z' } });
    assert.deepEqual(
      old.body.logs.map((l: any) => l.message),
      ['Slow query'],
    );
    assert.equal((await p.member.get(path('/logs'), { query: { level: 'fatal' } })).status, 400);
    const resolved = await p.admin.patch(path(`/logs/${group.id}`), { status: 'resolved' });
    assert.equal(resolved.body.status, 'resolved');
  });

  it('keeps other teams out', async () => {
    for (const kind of ['bugs', 'errors', 'logs']) {
      assert.equal((await p.outsider.get(path(`/${kind}`))).status, 404);
    }
    const any = (await p.member.get(path('/bugs'))).body.bugs[0];
    assert.equal((await p.outsider.get(path(`/bugs/${any.id}`))).status, 404);
    assert.equal((await p.outsider.patch(path(`/bugs/${any.id}`), { status: 'resolved' })).status, 404);
    const other = await managedProject(p.server);
    assert.equal((await other.owner.get(`/projects/${other.projectId}/bugs/${any.id}`)).status, 404);
  });
});
