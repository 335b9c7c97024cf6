import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { newId } from '../../../src/kernel/ids.ts';
import { touchProjectTranslations } from '../../../src/resources/projects/index.ts';
import type { TestProject, TestServer } from '../../support/server.ts';
import type { Api } from '../../support/api.ts';
import { startPublicProject } from '../../support/public-project.ts';

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
    ({ server, project, api } = await startPublicProject()); // default locale en, supported en + de
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
