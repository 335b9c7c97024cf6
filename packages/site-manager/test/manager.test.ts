import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sdkTestEnv } from '@signpost/test-support/env';
import {
  ApiError,
  createSiteManager,
  evaluateMaintenance,
  ipMatches,
  type SiteConfigChange,
} from '@signpost/site-manager';

const { server } = await sdkTestEnv();

/** Real fetch, recording the status of every answer. */
function recordingFetch(statuses: number[]) {
  return async (url: string, init?: RequestInit) => {
    const response = await fetch(url, init);
    statuses.push(response.status);
    return response;
  };
}

const bump = (projectId: string) =>
  server.db.run('UPDATE projects SET config_version = config_version + 1 WHERE id = ?', [projectId]);
const memoryStorage = () => {
  const map = new Map<string, string>();
  return {
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
    removeItem: (k: string) => void map.delete(k),
    map,
  };
};

describe('site configuration', () => {
  test('flags answer the default while loading, then the server value; messages and environments', async () => {
    const site = createSiteManager({ baseUrl: server.baseUrl, projectId: server.demoProjectId });
    assert.equal(site.status, 'loading');
    assert.equal(site.isEnabled('new-dashboard', false), false, 'default while loading');
    assert.equal(site.isEnabled('new-dashboard', true), true);
    await site.ready;
    assert.equal(site.status, 'ready');
    assert.equal(site.isEnabled('new-dashboard', false), true);
    assert.equal(site.isEnabled('beta-export', true), false);
    assert.equal(site.isEnabled('no-such-flag', true), true);
    assert.deepEqual(site.flags(), { 'new-dashboard': true, 'beta-export': false });
    assert.deepEqual(
      site.messages().map((m) => m.text),
      ['Welcome to the Signpost demo project.'],
    );
    assert.deepEqual(
      site.environments().map((e) => e.slug),
      ['production', 'staging'],
    );
    assert.equal(site.maintenance().blocked, false);
    site.close();
  });

  test('If-None-Match: an unchanged configuration is a 304 that keeps the cache; a change is a 200 and a change event', async () => {
    const p = await server.createProject();
    await server.db.run(
      "INSERT INTO feature_flags (id, project_id, key, enabled, created_at) VALUES ('f1', ?, 'checkout-v2', 0, '2026-01-01T00:00:00Z')",
      [p.projectId],
    );
    await bump(p.projectId);
    const statuses: number[] = [];
    const site = createSiteManager({
      baseUrl: server.baseUrl,
      projectId: p.projectId,
      refreshIntervalMs: 0,
      fetch: recordingFetch(statuses),
    });
    const changes: SiteConfigChange[] = [];
    site.on('change', (c) => changes.push(c));
    await site.ready;
    const first = site.config;
    await site.refresh();
    assert.deepEqual(statuses, [200, 304]);
    assert.equal(site.config, first, 'the cached object is kept');
    assert.equal(changes.length, 1, 'only the first load changed something');

    await server.db.run("UPDATE feature_flags SET enabled = 1 WHERE project_id = ? AND key = 'checkout-v2'", [
      p.projectId,
    ]);
    await bump(p.projectId);
    await site.refresh();
    assert.deepEqual(statuses, [200, 304, 200]);
    assert.equal(site.isEnabled('checkout-v2'), true);
    assert.equal(changes.length, 2);
    assert.deepEqual(changes[1]!.flagsChanged, ['checkout-v2']);
    assert.equal(changes[1]!.maintenanceChanged, false);
    site.close();
  });

  test('polling notices a change by itself', async () => {
    const p = await server.createProject();
    const site = createSiteManager({ baseUrl: server.baseUrl, projectId: p.projectId, refreshIntervalMs: 50 });
    await site.ready;
    const changed = new Promise<SiteConfigChange>((resolve) => site.on('change', resolve));
    await server.db.run(
      "INSERT INTO status_messages (id, project_id, type, text, is_active, priority, created_at) VALUES ('m-poll', ?, 'warning', 'Slow uploads', 1, 5, '2026-01-01T00:00:00Z')",
      [p.projectId],
    );
    await bump(p.projectId);
    const change = await changed;
    assert.equal(change.messagesChanged, true);
    assert.deepEqual(
      site.messages().map((m) => [m.type, m.text]),
      [['warning', 'Slow uploads']],
    );
    site.close();
  });

  test('a persistent cache gives the configuration at once on the next start, and that load is a 304', async () => {
    const storage = memoryStorage();
    const first = createSiteManager({
      baseUrl: server.baseUrl,
      projectId: server.demoProjectId,
      cache: storage,
      refreshIntervalMs: 0,
    });
    await first.ready;
    first.close();
    const statuses: number[] = [];
    const second = createSiteManager({
      baseUrl: server.baseUrl,
      projectId: server.demoProjectId,
      cache: storage,
      refreshIntervalMs: 0,
      fetch: recordingFetch(statuses),
    });
    assert.equal(second.isEnabled('new-dashboard', false), true, 'known before any request');
    await second.ready;
    assert.deepEqual(statuses, [304]);
    second.close();
  });

  test('failures never throw into the app: flags keep their defaults and onError hears about it', async () => {
    const errors: unknown[] = [];
    const site = createSiteManager({
      baseUrl: 'http://127.0.0.1:9/api/public/v1',
      projectId: 'demo',
      maxRetries: 0,
      refreshIntervalMs: 0,
      onError: (e) => errors.push(e),
    });
    await site.ready;
    assert.equal(site.status, 'error');
    assert.equal(site.isEnabled('new-dashboard', true), true);
    assert.equal(site.maintenance().blocked, false);
    assert.equal(errors.length, 1);
    const unknown = createSiteManager({
      baseUrl: server.baseUrl,
      projectId: 'no-such-project',
      refreshIntervalMs: 0,
      onError: (e) => errors.push(e),
    });
    await unknown.ready;
    assert.ok(errors[1] instanceof ApiError && errors[1].status === 404);
    site.close();
    unknown.close();
  });
});

describe('maintenance gate', () => {
  async function maintenanceProject(type: 'full' | 'banner' | 'custom', whitelist: object) {
    const p = await server.createProject();
    // A project has no maintenance row until its settings first change: the test writes one.
    await server.db.run('INSERT INTO maintenance_settings (project_id) VALUES (?)', [p.projectId]);
    await server.db.run(
      `UPDATE maintenance_settings SET enabled = 1, type = ?, custom_html = ?, expected_restoration = '2030-01-01T10:00:00.000Z',
       show_status_link = 1, status_page_url = 'https://status.example.com', whitelist = ? WHERE project_id = ?`,
      [type, type === 'custom' ? '<h1>Back at ten</h1>' : null, JSON.stringify(whitelist), p.projectId],
    );
    await bump(p.projectId);
    return p;
  }

  test('full maintenance blocks; the whitelist lets through a localStorage key, an e-mail set by the app, an IP passed by the app', async () => {
    const p = await maintenanceProject('full', {
      localStorageKeys: ['team-preview'],
      emails: ['Ops@Example.com'],
      ips: ['10.1.0.0/16', '2001:db8::1'],
    });
    const storage = memoryStorage();
    const site = createSiteManager({
      baseUrl: server.baseUrl,
      projectId: p.projectId,
      refreshIntervalMs: 0,
      visitor: { storage },
    });
    await site.ready;
    const state = site.maintenance();
    assert.equal(state.enabled, true);
    assert.equal(state.blocked, true);
    assert.equal(state.bypassedBy, null);
    assert.equal(state.statusPageUrl, 'https://status.example.com');
    assert.equal(state.expectedRestoration, '2030-01-01T10:00:00.000Z');

    const changes: SiteConfigChange[] = [];
    site.on('change', (c) => changes.push(c));
    site.setUser({ email: 'ops@example.com ' });
    assert.equal(site.maintenance().bypassedBy, 'email');
    assert.equal(site.maintenance().blocked, false);
    assert.equal(changes.length, 1, 'the app hears that the gate opened');
    site.setUser(null);
    assert.equal(site.maintenance().blocked, true);

    site.setClientIp('10.1.200.3');
    assert.equal(site.maintenance().bypassedBy, 'ip');
    site.setClientIp('10.2.0.1');
    assert.equal(site.maintenance().blocked, true);
    site.setClientIp('2001:DB8::1');
    assert.equal(site.maintenance().bypassedBy, 'ip');
    site.setClientIp(undefined);

    storage.setItem('team-preview', '1');
    assert.equal(site.maintenance().bypassedBy, 'localStorageKey');
    site.close();
  });

  test('banner keeps the app working; custom blocks and carries its HTML', async () => {
    const banner = createSiteManager({
      baseUrl: server.baseUrl,
      projectId: (await maintenanceProject('banner', {})).projectId,
      refreshIntervalMs: 0,
    });
    await banner.ready;
    assert.deepEqual([banner.maintenance().banner, banner.maintenance().blocked], [true, false]);
    const custom = createSiteManager({
      baseUrl: server.baseUrl,
      projectId: (await maintenanceProject('custom', {})).projectId,
      refreshIntervalMs: 0,
    });
    await custom.ready;
    assert.deepEqual([custom.maintenance().blocked, custom.maintenance().customHtml], [true, '<h1>Back at ten</h1>']);
    banner.close();
    custom.close();
  });

  test('ipMatches and evaluateMaintenance on their own', () => {
    assert.equal(ipMatches('192.168.1.9', '192.168.1.0/24'), true);
    assert.equal(ipMatches('192.168.2.9', '192.168.1.0/24'), false);
    assert.equal(ipMatches('::ffff:192.168.1.9', '192.168.1.9'), true);
    assert.equal(ipMatches('1.2.3.4', '0.0.0.0/0'), true);
    assert.equal(ipMatches('1.2.3.4', 'nonsense/99'), false);
    assert.equal(evaluateMaintenance(undefined).blocked, false);
  });
});

describe('version check', () => {
  test('answers for the app version, and 404 for an unknown project', async () => {
    const site = createSiteManager({
      baseUrl: server.baseUrl,
      projectId: server.demoProjectId,
      appVersion: '1.0.0',
      autoStart: false,
    });
    const info = await site.checkVersion();
    assert.equal(info.updateAvailable, true);
    assert.equal(info.updateType, 'minor');
    assert.equal(info.latestVersion?.version, '1.1.0');
    assert.equal((await site.checkVersion('1.1.0')).updateAvailable, false);
    assert.equal((await site.checkVersion('1.2.0-beta.0')).latestVersion?.version, '1.2.0-beta.1');
    const missing = createSiteManager({ baseUrl: server.baseUrl, projectId: 'nope', autoStart: false });
    const error = await missing.checkVersion('1.0.0').catch((e: unknown) => e);
    assert.ok(error instanceof ApiError && error.status === 404);
    site.close();
    missing.close();
  });
});
