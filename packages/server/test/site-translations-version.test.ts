import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { newId } from '../src/kernel/ids.ts';
import { touchProjectConfig, touchProjectTranslations } from '../src/resources/projects/index.ts';
import { updateMaintenance } from '../src/resources/site-config/store.ts';
import { startTestServer, type TestProject, type TestServer } from './support/server.ts';
import { Api } from './support/api.ts';

describe('site configuration', () => {
  let server: TestServer;
  let project: TestProject;
  let api: Api;

  before(async () => {
    server = await startTestServer();
    project = await server.createProject();
    api = new Api(server.baseUrl, null);
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

describe('translations', () => {
  let server: TestServer;
  let project: TestProject;
  let api: Api;

  const key = async (
    name: string,
    defaultText: string,
    values: Record<string, string>,
    namespace: string | null = null,
  ) => {
    const id = newId('tk');
    const now = new Date().toISOString();
    await server.db.run(
      'INSERT INTO translation_keys (id, project_id, key, namespace, category, default_text, created_at, updated_at) VALUES (?, ?, ?, ?, NULL, ?, ?, ?)',
      [id, project.projectId, name, namespace, defaultText, now, now],
    );
    for (const [locale, text] of Object.entries(values)) {
      await server.db.run('INSERT INTO translation_values (key_id, locale, text, updated_at) VALUES (?, ?, ?, ?)', [
        id,
        locale,
        text,
        now,
      ]);
    }
    await touchProjectTranslations(server.db, project.projectId);
  };

  before(async () => {
    server = await startTestServer();
    project = await server.createProject(); // default locale en, supported en + de
    api = new Api(server.baseUrl, project.liveKey);
    await key('greeting', 'Hello (default)', { en: 'Hello', de: 'Hallo', 'de-AT': 'Servus' }, 'common');
    await key('farewell', 'Bye (default)', { en: 'Goodbye', de: 'Tschüss' }, 'common');
    await key('only.en', 'Only default', { en: 'English only' }, 'extra');
    await key('only.default', 'The default text', {}, 'extra');
  });
  after(() => server.close());

  it('falls back from locale to language to the default locale to the default text', async () => {
    const res = await api.get('/translations', { query: { locale: 'de-at' } });
    assert.equal(res.status, 200);
    assert.equal(res.body.locale, 'de-AT');
    assert.deepEqual(res.body.translations, {
      greeting: 'Servus',
      farewell: 'Tschüss',
      'only.en': 'English only',
      'only.default': 'The default text',
    });
    const fr = await api.get('/translations', { query: { locale: 'fr' } });
    assert.equal(fr.body.translations.greeting, 'Hello');
    const defaults = await api.get('/translations');
    assert.equal(defaults.body.locale, 'en');
  });

  it('limits the response to one namespace', async () => {
    const res = await api.get('/translations', { query: { locale: 'de', namespace: 'extra' } });
    assert.deepEqual(Object.keys(res.body.translations).sort(), ['only.default', 'only.en']);
  });

  it('hashes exactly the returned content; the ETag carries it; 304 on every If-None-Match form', async () => {
    const res = await api.get('/translations', { query: { locale: 'de' } });
    const { hash } = res.body;
    assert.equal(res.headers.get('etag'), `"${hash}"`);
    const de = await api.get('/translations', { query: { locale: 'de-DE' } });
    assert.equal(de.body.hash, hash, 'same content, same hash');
    for (const header of [hash, `"${hash}"`, `W/"${hash}"`, `"other", "${hash}"`, '*']) {
      const cached = await api.get('/translations', { query: { locale: 'de' }, headers: { 'if-none-match': header } });
      assert.equal(cached.status, 304, header);
      assert.equal(cached.text, '');
      assert.equal(cached.headers.get('content-length'), null, 'a 304 announces no body');
    }
    assert.equal(
      (await api.get('/translations', { query: { locale: 'de' }, headers: { 'if-none-match': '"stale"' } })).status,
      200,
    );
    await key('new.key', 'New', { de: 'Neu' });
    const changed = await api.get('/translations', {
      query: { locale: 'de' },
      headers: { 'if-none-match': `"${hash}"` },
    });
    assert.equal(changed.status, 200);
    assert.notEqual(changed.body.hash, hash);
    assert.equal(changed.body.translations['new.key'], 'Neu');
  });

  it('needs public:read and a valid locale', async () => {
    assert.equal((await api.get('/translations', { query: { locale: '???' } })).status, 400);
    assert.equal((await api.get('/translations', { key: null })).status, 401);
  });
});

describe('version check', () => {
  let server: TestServer;
  let project: TestProject;
  let api: Api;

  const release = async (version: string, extra: { beta?: boolean; required?: boolean; commit?: string } = {}) =>
    server.db.run(
      `INSERT INTO releases (id, project_id, version, title, release_notes, download_url, release_date, is_beta, git_commit, required, created_at)
       VALUES (?, ?, ?, ?, 'Notes', 'https://example.com/dl', ?, ?, ?, ?, ?)`,
      [
        newId('rel'),
        project.projectId,
        version,
        `Release ${version}`,
        new Date().toISOString(),
        extra.beta ? 1 : 0,
        extra.commit ?? null,
        extra.required ? 1 : 0,
        new Date().toISOString(),
      ],
    );
  const check = async (currentVersion?: string) =>
    (await api.get('/version-check', { query: { projectId: project.projectId, currentVersion } })).body;

  before(async () => {
    server = await startTestServer();
    project = await server.createProject();
    api = new Api(server.baseUrl, null);
  });
  after(() => server.close());

  it('gives latestVersion null with no releases, and 400/404 for a missing/unknown project', async () => {
    assert.deepEqual(await check('1.0.0'), {
      updateAvailable: false,
      updateRequired: false,
      updateRecommended: false,
      updateType: 'none',
      latestVersion: null,
    });
    assert.equal((await api.get('/version-check')).status, 400);
    assert.equal((await api.get('/version-check', { query: { projectId: 'missing' } })).status, 404);
  });

  it('computes update type, required and recommended', async () => {
    await release('1.0.0', { required: true, commit: 'abc1234def5678' });
    await release('1.1.0');
    await release('1.1.1', { commit: 'fedcba9876543210' });
    await release('2.0.0-beta.1', { beta: true });
    const fromOld = await check('0.9.0');
    assert.equal(fromOld.updateAvailable, true);
    assert.equal(fromOld.updateRequired, true);
    assert.equal(fromOld.updateRecommended, true);
    assert.equal(fromOld.updateType, 'major');
    assert.equal(fromOld.latestVersion.version, '1.1.1');
    assert.equal(fromOld.latestVersion.isBeta, false);
    assert.deepEqual(Object.keys(fromOld.latestVersion).sort(), [
      'downloadUrl',
      'isBeta',
      'releaseDate',
      'releaseNotes',
      'title',
      'version',
    ]);
    const minor = await check('1.0.0');
    assert.deepEqual([minor.updateType, minor.updateRequired, minor.updateRecommended], ['minor', false, true]);
    const patch = await check('1.1.0');
    assert.deepEqual([patch.updateAvailable, patch.updateType, patch.updateRecommended], [true, 'patch', false]);
    const current = await check('1.1.1');
    assert.deepEqual([current.updateAvailable, current.updateType], [false, 'none']);
    assert.equal(current.latestVersion.version, '1.1.1');
  });

  it('offers betas only to clients on a prerelease', async () => {
    const beta = await check('2.0.0-alpha.3');
    assert.equal(beta.latestVersion.version, '2.0.0-beta.1');
    assert.equal(beta.updateType, 'prerelease');
    assert.equal((await check('1.1.1')).updateAvailable, false);
    await release('3.0.0');
    const major = await check('1.1.1');
    assert.deepEqual(
      [major.updateType, major.updateRecommended, major.latestVersion.version],
      ['major', true, '3.0.0'],
    );
  });

  it('compares a known git hash as its release; an unknown hash or no version gets no update', async () => {
    const byHash = await check('abc1234');
    assert.equal(byHash.updateAvailable, true);
    assert.equal(byHash.updateType, 'major');
    const unknown = await check('0123456789abcdef');
    assert.equal(unknown.updateAvailable, false);
    assert.equal(unknown.latestVersion.version, '3.0.0');
    const none = await check();
    assert.equal(none.updateAvailable, false);
    assert.equal(none.latestVersion.version, '3.0.0');
  });
});
