import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { managedProjectSuite } from '../../support/manage-fixtures.ts';

describe('management: site configuration', () => {
  const p = managedProjectSuite();

  const path = (rest = '') => `/projects/${p.projectId}/site-config${rest}`;
  const publicConfig = () => p.anonymous.get('/site-config', { query: { projectId: p.projectId } });

  /** Runs a change and checks that it moved lastUpdated and the public ETag. */
  async function changes<T>(action: () => Promise<T>): Promise<{ result: T; config: any }> {
    const before = await publicConfig();
    await new Promise((resolve) => setTimeout(resolve, 5));
    const result = await action();
    const after = await publicConfig();
    assert.ok(after.body.lastUpdated > before.body.lastUpdated, 'lastUpdated moved');
    assert.notEqual(after.headers.get('etag'), before.headers.get('etag'));
    const revalidated = await p.anonymous.get('/site-config', {
      query: { projectId: p.projectId },
      headers: { 'if-none-match': before.headers.get('etag')! },
    });
    assert.equal(revalidated.status, 200);
    return { result, config: after.body };
  }

  it('sets every maintenance field; the public site config shows them', async () => {
    const { result, config } = await changes(() =>
      p.admin.patch(path('/maintenance'), {
        enabled: true,
        type: 'custom',
        customHtml: '<h1>Back soon</h1>',
        expectedRestoration: '2030-01-02T03:04:05+01:00',
        showStatusLink: true,
        statusPageUrl: 'https://status.example.com',
        whitelist: { localStorageKeys: ['sp-bypass'], emails: ['ops@example.com'], ips: ['10.0.0.0/8', '2001:db8::1'] },
      }),
    );
    assert.equal(result.status, 200);
    const expected = {
      enabled: true,
      type: 'custom',
      customHtml: '<h1>Back soon</h1>',
      expectedRestoration: '2030-01-02T02:04:05.000Z',
      showStatusLink: true,
      statusPageUrl: 'https://status.example.com',
      whitelist: { localStorageKeys: ['sp-bypass'], emails: ['ops@example.com'], ips: ['10.0.0.0/8', '2001:db8::1'] },
    };
    assert.deepEqual(result.body, expected);
    assert.deepEqual(config.maintenance, expected);

    // One list replaces only that list; null clears a field.
    const partial = await p.admin.patch(path('/maintenance'), {
      type: 'banner',
      customHtml: null,
      whitelist: { emails: [] },
    });
    assert.equal(partial.body.type, 'banner');
    assert.equal(partial.body.customHtml, null);
    assert.deepEqual(partial.body.whitelist, {
      localStorageKeys: ['sp-bypass'],
      emails: [],
      ips: ['10.0.0.0/8', '2001:db8::1'],
    });
    assert.deepEqual((await p.member.get(path('/maintenance'))).body, partial.body);

    for (const bad of [
      {},
      { type: 'partial' },
      { statusPageUrl: 'not a url' },
      { whitelist: { ips: ['999.1.1.1'] } },
      { whitelist: { emails: ['nope'] } },
    ]) {
      const res = await p.admin.patch(path('/maintenance'), bad);
      assert.equal(res.status, 400, JSON.stringify(bad));
    }
    const badIp = await p.admin.patch(path('/maintenance'), { whitelist: { ips: ['10.0.0.1', '10.0.0.0/33'] } });
    assert.equal(badIp.body.details[0].field, 'whitelist.ips.1');
    assert.equal((await p.member.patch(path('/maintenance'), { enabled: false })).status, 403);
  });

  it('manages status messages with types, priority and schedule', async () => {
    const { result: created } = await changes(() =>
      p.admin.post(path('/messages'), { type: 'warning', text: 'Maintenance tonight', priority: 5 }),
    );
    assert.equal(created.status, 201);
    assert.equal(created.body.isActive, true);
    assert.equal(created.body.live, true);
    const later = await p.admin.post(path('/messages'), {
      type: 'info',
      text: 'New plans next month',
      priority: 9,
      startsAt: new Date(Date.now() + 3_600_000).toISOString(),
    });
    assert.equal(later.body.live, false);
    const urgent = (await p.admin.post(path('/messages'), { type: 'error', text: 'Outage in EU', priority: 10 })).body;

    let shown = (await publicConfig()).body.messages;
    assert.deepEqual(
      shown.map((m: any) => [m.text, m.type, m.priority]),
      [
        ['Outage in EU', 'error', 10],
        ['Maintenance tonight', 'warning', 5],
      ],
    );

    await changes(() => p.admin.patch(path(`/messages/${urgent.id}`), { isActive: false }));
    shown = (await publicConfig()).body.messages;
    assert.deepEqual(
      shown.map((m: any) => m.text),
      ['Maintenance tonight'],
    );
    const all = await p.member.get(path('/messages'));
    assert.equal(all.body.messages.length, 3);

    const edited = await p.admin.patch(path(`/messages/${created.body.id}`), {
      text: 'Maintenance at 22:00 UTC',
      type: 'success',
    });
    assert.equal(edited.body.text, 'Maintenance at 22:00 UTC');
    assert.equal((await publicConfig()).body.messages[0].type, 'success');

    assert.equal((await p.admin.post(path('/messages'), { type: 'critical', text: 'x' })).status, 400);
    const backwards = await p.admin.post(path('/messages'), {
      type: 'info',
      text: 'x',
      startsAt: '2030-01-02T00:00:00Z',
      expiresAt: '2030-01-01T00:00:00Z',
    });
    assert.equal(backwards.status, 400);
    assert.equal(backwards.body.details[0].field, 'expiresAt');

    await changes(() => p.admin.delete(path(`/messages/${urgent.id}`)));
    assert.equal((await p.admin.delete(path(`/messages/${urgent.id}`))).status, 404);
    assert.equal((await p.admin.patch(path('/messages/msg_missing'), { text: 'y' })).status, 404);
  });

  it('creates, toggles and deletes feature flags', async () => {
    const { result: created } = await changes(() => p.admin.put(path('/flags/new-checkout'), { enabled: true }));
    assert.equal(created.status, 201);
    assert.equal(created.body.key, 'new-checkout');
    const { result: toggled, config } = await changes(() =>
      p.admin.put(path('/flags/new-checkout'), { enabled: false }),
    );
    assert.equal(toggled.status, 200);
    assert.equal(toggled.body.id, created.body.id);
    assert.deepEqual(config.featureFlags, [
      { id: created.body.id, projectId: p.projectId, key: 'new-checkout', enabled: false },
    ]);
    assert.equal((await p.admin.put(path('/flags/bad key!'), { enabled: true })).status, 400);
    assert.equal((await p.member.put(path('/flags/other'), { enabled: true })).status, 403);
    assert.equal((await p.member.get(path('/flags'))).body.featureFlags.length, 1);
    await changes(() => p.admin.delete(path('/flags/new-checkout')));
    assert.deepEqual((await publicConfig()).body.featureFlags, []);
    assert.equal((await p.admin.delete(path('/flags/new-checkout'))).status, 404);
  });

  it('manages environments (name, slug, url, colour, debug) and debug mode', async () => {
    const { result: prod } = await changes(() =>
      p.admin.post(path('/environments'), {
        name: 'Production',
        slug: 'production',
        url: 'https://app.example.com',
        color: '#16A34A',
      }),
    );
    assert.equal(prod.status, 201);
    assert.equal(prod.body.color, '#16a34a');
    assert.equal(prod.body.debugEnabled, false);
    const staging = await p.admin.post(path('/environments'), {
      name: 'Staging',
      slug: 'staging',
      color: '#f59e0b',
      debugEnabled: true,
    });
    assert.equal(staging.body.position, 1);
    assert.equal((await p.admin.post(path('/environments'), { name: 'Again', slug: 'production' })).status, 409);
    assert.equal((await p.admin.post(path('/environments'), { name: 'Bad', slug: 'Bad Slug' })).status, 400);
    assert.equal((await p.admin.post(path('/environments'), { name: 'Bad', slug: 'bad', color: 'green' })).status, 400);

    const { config } = await changes(() =>
      p.admin.patch(path('/environments/staging'), { url: 'https://staging.example.com', debugEnabled: false }),
    );
    assert.deepEqual(
      config.environments.map((e: any) => [e.name, e.slug, e.url, e.color, e.debugEnabled]),
      [
        ['Production', 'production', 'https://app.example.com', '#16a34a', false],
        ['Staging', 'staging', 'https://staging.example.com', '#f59e0b', false],
      ],
    );
    assert.equal((await p.admin.patch(path(`/environments/${staging.body.id}`), { slug: 'production' })).status, 409);
    await changes(() => p.admin.delete(path(`/environments/${staging.body.id}`)));
    assert.equal((await publicConfig()).body.environments.length, 1);

    const { result: debug, config: withDebug } = await changes(() => p.admin.patch(path(), { debugMode: true }));
    assert.equal(debug.body.debugMode, true);
    assert.equal(withDebug.debugMode, true);
    const whole = await p.member.get(path());
    assert.equal(whole.status, 200);
    assert.equal(whole.body.lastUpdated, withDebug.lastUpdated);
    assert.equal(whole.body.environments.length, 1);
  });

  it('keeps other teams out', async () => {
    assert.equal((await p.outsider.get(path())).status, 404);
    assert.equal((await p.outsider.patch(path('/maintenance'), { enabled: true })).status, 404);
    assert.equal((await p.outsider.put(path('/flags/x'), { enabled: true })).status, 404);
    assert.equal((await publicConfig()).body.featureFlags.length, 0);
  });
});
