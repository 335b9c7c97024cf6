import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sdkTestEnv } from '@signpost/test-support/env';
import { ApiError, createI18n, interpolate, pluralKeys } from '@signpost/i18n';

const { server, project } = await sdkTestEnv({ project: true });

let n = 0;
async function addKey(projectId: string, key: string, defaultText: string, values: Record<string, string> = {}) {
  const id = `tk_test_${++n}`;
  await server.db.run(
    'INSERT INTO translation_keys (id, project_id, key, namespace, category, default_text, created_at, updated_at) VALUES (?, ?, ?, NULL, NULL, ?, ?, ?)',
    [id, projectId, key, defaultText, '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z'],
  );
  for (const [locale, text] of Object.entries(values))
    await server.db.run('INSERT INTO translation_values (key_id, locale, text, updated_at) VALUES (?, ?, ?, ?)', [
      id,
      locale,
      text,
      '2026-01-01T00:00:00Z',
    ]);
  await server.db.run('UPDATE projects SET translations_version = translations_version + 1 WHERE id = ?', [projectId]);
}

for (const [key, en, de] of [
  ['cart.items_one', '{count} item', '{count} Artikel'],
  ['cart.items_other', '{count} items', '{count} Artikel'],
  ['cart.items_zero', 'Your cart is empty', 'Dein Warenkorb ist leer'],
  ['greeting', 'Hello, {name}!', 'Hallo, {name}!'],
] as const)
  await addKey(project.projectId, key, en, { de });

function recordingFetch(log: Array<{ url: string; status: number; body?: string }>) {
  return async (url: string, init?: RequestInit) => {
    const response = await fetch(url, init);
    log.push({ url, status: response.status, ...(typeof init?.body === 'string' ? { body: init.body } : {}) });
    return response;
  };
}

describe('translations', () => {
  test('loads a locale, interpolates {name}, falls back de-AT → de on the server', async () => {
    const i18n = createI18n({ apiKey: server.demoKey, baseUrl: server.baseUrl, locale: 'de-AT', reportMissing: false });
    assert.equal(i18n.t('app.title'), 'app.title', 'the key itself while loading');
    await i18n.ready;
    assert.equal(i18n.t('app.welcome', { name: 'Ada' }), 'Willkommen, Ada!');
    assert.equal(i18n.exists('nav.changelog'), true);
    await i18n.setLocale('en');
    assert.equal(i18n.locale, 'en');
    assert.equal(i18n.t('app.welcome', { name: 'Ada' }), 'Welcome, Ada!');
  });

  test('namespaces load only their keys', async () => {
    const i18n = createI18n({
      apiKey: server.demoKey,
      baseUrl: server.baseUrl,
      locale: 'de',
      namespaces: ['feedback'],
    });
    await i18n.ready;
    assert.equal(i18n.t('feedback.thanks'), 'Danke für dein Feedback!');
    assert.equal(i18n.exists('app.title'), false);
    await i18n.loadNamespaces(['common']);
    assert.equal(i18n.t('app.title'), 'Demo-App');
  });

  test('plurals through Intl.PluralRules, with _zero; numbers formatted for the locale', async () => {
    const i18n = createI18n({ apiKey: project.liveKey, baseUrl: server.baseUrl, locale: 'en' });
    await i18n.ready;
    assert.equal(i18n.t('cart.items', { count: 1 }), '1 item');
    assert.equal(i18n.t('cart.items', { count: 1200 }), '1,200 items');
    assert.equal(i18n.t('cart.items', { count: 0 }), 'Your cart is empty');
    await i18n.setLocale('de');
    assert.equal(i18n.t('cart.items', { count: 1200 }), '1.200 Artikel');
    assert.deepEqual(pluralKeys('files', 'pl', 5), ['files_many', 'files_other', 'files']);
    assert.deepEqual(pluralKeys('files', 'pl', 2), ['files_few', 'files_other', 'files']);
    assert.equal(interpolate('{a} and {b} and {missing}', { a: 1, b: 'x' }, 'en'), '1 and x and {missing}');
  });

  test('ETag caching: a reload is a 304 that reuses the cache; a change is a 200', async () => {
    const log: Array<{ url: string; status: number }> = [];
    const i18n = createI18n({
      apiKey: project.liveKey,
      baseUrl: server.baseUrl,
      locale: 'en',
      fetch: recordingFetch(log),
      reportMissing: false,
    });
    await i18n.ready;
    await i18n.load('en');
    assert.deepEqual(
      log.map((l) => l.status),
      [200, 304],
    );
    assert.equal(i18n.t('greeting', { name: 'Bo' }), 'Hello, Bo!');
    await addKey(project.projectId, 'late.key', 'Arrived later');
    await i18n.load('en');
    assert.deepEqual(
      log.map((l) => l.status),
      [200, 304, 200],
    );
    assert.equal(i18n.t('late.key'), 'Arrived later');
  });

  test('fallbacks: the fallback locale, then defaultValue, then the key', async () => {
    const p = await server.createProject();
    await addKey(p.projectId, 'a', 'A', { de: 'A-de' });
    const i18n = createI18n({
      apiKey: p.liveKey,
      baseUrl: server.baseUrl,
      locale: 'de',
      fallbackLocale: 'en',
      reportMissing: false,
    });
    await i18n.ready;
    await addKey(p.projectId, 'b', 'B only in en');
    await i18n.load('en'); // de is not reloaded: b is missing there
    assert.equal(i18n.t('a'), 'A-de');
    assert.equal(i18n.t('b'), 'B only in en');
    assert.equal(i18n.t('c', undefined, { defaultValue: 'C default' }), 'C default');
    assert.equal(i18n.t('d'), 'd');
  });

  test('missing keys are reported once each, batched, at most 100 per request', async () => {
    const p = await server.createProject();
    const log: Array<{ url: string; status: number; body?: string }> = [];
    const seen: string[] = [];
    const i18n = createI18n({
      apiKey: p.liveKey,
      baseUrl: server.baseUrl,
      locale: 'en',
      fetch: recordingFetch(log),
      reportIntervalMs: 60_000,
      onMissingKey: (k) => seen.push(k),
    });
    await i18n.ready;
    for (let round = 0; round < 3; round++) for (let i = 0; i < 150; i++) i18n.t(`missing.k${i}`, { count: 2 });
    await i18n.flush();
    const reports = log.filter((l) => l.url.endsWith('/i18n-telemetry'));
    assert.deepEqual(
      reports.map((r) => JSON.parse(r.body!).missingKeys.length),
      [100, 50],
    );
    assert.ok(reports.every((r) => r.status === 200 && JSON.parse(r.body!).locale === 'en'));
    const rows = await server.db.all<{ key: string; occurrences: number }>(
      'SELECT key, occurrences FROM missing_translations WHERE project_id = ?',
      [p.projectId],
    );
    assert.equal(rows.length, 150);
    assert.ok(
      rows.every((r) => Number(r.occurrences) === 1),
      'de-duplicated on the client',
    );
    assert.equal(seen.length, 450, 'onMissingKey hears every miss');
    await i18n.close();
  });

  test('failures never throw into the app', async () => {
    const errors: unknown[] = [];
    const i18n = createI18n({
      apiKey: 'svc_live_wrong',
      baseUrl: server.baseUrl,
      locale: 'en',
      onError: (e) => errors.push(e),
    });
    await i18n.ready;
    assert.equal(i18n.t('app.title', undefined, { defaultValue: 'App' }), 'App');
    assert.ok(errors[0] instanceof ApiError && errors[0].status === 401);
    await i18n.setLocale('de');
    assert.equal(i18n.locale, 'de');
    await assert.rejects(i18n.load('../etc'), /Not a locale/);
  });
});
