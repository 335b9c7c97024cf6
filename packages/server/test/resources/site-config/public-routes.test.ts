import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { newId } from '../../../src/kernel/ids.ts';
import { touchProjectConfig } from '../../../src/resources/projects/index.ts';
import { updateMaintenance } from '../../../src/resources/site-config/store.ts';
import type { TestProject, TestServer } from '../../support/server.ts';
import type { Api } from '../../support/api.ts';
import { startPublicProject } from '../../support/public-project.ts';

describe('site configuration', () => {
  let server: TestServer;
  let project: TestProject;
  let api: Api;

  before(async () => {
    ({ server, project, api } = await startPublicProject({ key: null }));
  });
  after(() => server.close());

  it('needs no key; 400 without projectId; 404 for an unknown one', async () => {
    const res = await api.get('/site-config', { query: { projectId: project.projectId } });
    assert.equal(res.status, 200);
    assert.equal(res.body.maintenance.enabled, false);
    assert.deepEqual(res.body.messages, []);
    assert.deepEqual(res.body.featureFlags, []);
    assert.equal(res.body.debugMode, false);
    assert.deepEqual(res.body.maintenance.whitelist, { localStorageKeys: [], emails: [], ips: [] });
    assert.equal((await api.get('/site-config')).status, 400);
    assert.equal((await api.get('/site-config', { query: { projectId: 'nope' } })).status, 404);
  });

  it("shows the demo project's seeded configuration", async () => {
    const res = await api.get('/site-config', { query: { projectId: server.demoProjectId } });
    assert.deepEqual(
      res.body.featureFlags.map((f: any) => [f.key, f.enabled]),
      [
        ['beta-export', false],
        ['new-dashboard', true],
      ],
    );
    assert.equal(res.body.environments.length, 2);
    assert.match(res.body.environments[0].color, /^#[0-9a-f]{6}$/i);
    assert.equal(res.body.messages.length, 1);
  });

  it('returns only active messages by priority, and follows their schedule', async () => {
    const now = Date.now();
    const iso = (offset: number) => new Date(now + offset).toISOString();
    const add = async (
      text: string,
      priority: number,
      isActive: number,
      startsAt: string | null,
      expiresAt: string | null,
    ) =>
      server.db.run(
        `INSERT INTO status_messages (id, project_id, type, text, is_active, priority, starts_at, expires_at, created_at)
         VALUES (?, ?, 'warning', ?, ?, ?, ?, ?, ?)`,
        [newId('msg'), project.projectId, text, isActive, priority, startsAt, expiresAt, iso(0)],
      );
    await add('low', 1, 1, null, null);
    await add('high', 9, 1, iso(-60_000), iso(60_000));
    await add('inactive', 5, 0, null, null);
    await add('expired', 5, 1, null, iso(-1000));
    await add('soon', 5, 1, iso(1500), null);
    await touchProjectConfig(server.db, project.projectId);
    const res = await api.get('/site-config', { query: { projectId: project.projectId } });
    assert.deepEqual(
      res.body.messages.map((m: any) => m.text),
      ['high', 'low'],
    );
    assert.equal(res.body.messages[0].type, 'warning');
    assert.equal(res.body.messages[0].isActive, true);
    await new Promise((resolve) => setTimeout(resolve, 1600));
    const later = await api.get('/site-config', { query: { projectId: project.projectId } });
    assert.deepEqual(
      later.body.messages.map((m: any) => m.text),
      ['high', 'soon', 'low'],
    );
  });

  it('answers If-None-Match with 304 until the configuration changes, and moves lastUpdated', async () => {
    const first = await api.get('/site-config', { query: { projectId: project.projectId } });
    const etag = first.headers.get('etag')!;
    assert.match(etag, /^"[0-9a-f]{32}"$/);
    const cached = await api.get('/site-config', {
      query: { projectId: project.projectId },
      headers: { 'if-none-match': etag },
    });
    assert.equal(cached.status, 304);
    assert.equal(cached.text, '');
    assert.equal(cached.headers.get('content-length'), null, 'a 304 announces no body');
    assert.equal(cached.headers.get('content-type'), null);
    await updateMaintenance(server.db, project.projectId, { enabled: true, type: 'banner' });
    await touchProjectConfig(server.db, project.projectId);
    const changed = await api.get('/site-config', {
      query: { projectId: project.projectId },
      headers: { 'if-none-match': etag },
    });
    assert.equal(changed.status, 200);
    assert.equal(changed.body.maintenance.enabled, true);
    assert.equal(changed.body.maintenance.type, 'banner');
    assert.notEqual(changed.headers.get('etag'), etag);
    assert.ok(changed.body.lastUpdated > first.body.lastUpdated);
  });
});
