import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sdkTestEnv } from '@signpost/test-support/env';
import i18next from 'i18next';
import { SignpostBackend } from '@signpost/i18n/i18next';

const { server, proxy } = await sdkTestEnv({ proxy: true });

test('i18next loads Signpost translations through the backend, with {name} interpolation and namespaces', async () => {
  const instance = i18next.createInstance();
  await instance.use(SignpostBackend).init({
    lng: 'de',
    fallbackLng: 'en',
    ns: ['translation', 'feedback'],
    interpolation: { prefix: '{', suffix: '}' },
    backend: { apiKey: server.demoKey, baseUrl: server.baseUrl },
  });
  assert.equal(instance.t('app.welcome', { name: 'Ada' }), 'Willkommen, Ada!');
  assert.equal(instance.t('feedback.thanks', { ns: 'feedback' }), 'Danke für dein Feedback!');
  assert.deepEqual(Object.keys(instance.getResourceBundle('de', 'feedback')).sort(), [
    'feedback.submit',
    'feedback.thanks',
  ]);
  await instance.changeLanguage('en');
  assert.equal(instance.t('nav.changelog'), 'Changelog');
});

test('saveMissing reports missing keys through create(), batched, to POST /i18n-telemetry', async () => {
  const p = await server.createProject();
  const instance = i18next.createInstance();
  await instance.use(SignpostBackend).init({
    lng: 'en',
    saveMissing: true,
    backend: { apiKey: p.liveKey, baseUrl: server.baseUrl, reportMissing: true, reportIntervalMs: 60_000 },
  });
  instance.t('checkout.title');
  instance.t('checkout.title');
  instance.t('checkout.button');
  const backend = instance.services.backendConnector.backend as SignpostBackend;
  await backend.flush();
  const rows = await server.db.all<{ key: string; locale: string; occurrences: number }>(
    'SELECT key, locale, occurrences FROM missing_translations WHERE project_id = ? ORDER BY key',
    [p.projectId],
  );
  assert.deepEqual(
    rows.map((r) => [r.key, r.locale, Number(r.occurrences)]),
    [
      ['checkout.button', 'en', 1],
      ['checkout.title', 'en', 1],
    ],
  );
});

test("reportMissing 'development' (the default) stays quiet when NODE_ENV is production", async () => {
  const p = await server.createProject();
  const backend = new SignpostBackend(undefined, { apiKey: p.liveKey, baseUrl: server.baseUrl });
  const before = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    backend.create(['en'], 'translation', 'prod.key', 'x');
  } finally {
    process.env.NODE_ENV = before;
  }
  backend.create(['en'], 'translation', 'dev.key', 'x');
  await backend.flush();
  const rows = await server.db.all<{ key: string }>('SELECT key FROM missing_translations WHERE project_id = ?', [
    p.projectId,
  ]);
  assert.deepEqual(
    rows.map((r) => r.key),
    ['dev.key'],
  );
});

test('read: asks i18next to retry on 5xx and network errors only; invalid language or namespace never reaches the URL', async () => {
  const backend = new SignpostBackend(undefined, { apiKey: server.demoKey, baseUrl: proxy.baseUrl });
  const read = (lng: string, ns: string) =>
    new Promise<[unknown, unknown]>((resolve) => backend.read(lng, ns, (error, data) => resolve([error, data])));

  proxy.failNext(1, { status: 503 });
  const [serverError, retry] = await read('en', 'translation');
  assert.ok(serverError);
  assert.equal(retry, true);

  const [, data] = await read('en', 'translation');
  assert.equal((data as Record<string, string>)['app.title'], 'Demo App');

  proxy.failNext(1, { status: 403 });
  assert.equal((await read('en', 'translation'))[1], false, 'no retry on other 4xx');

  proxy.mode = 'down';
  assert.equal((await read('en', 'translation'))[1], true, 'retry on network errors');
  proxy.mode = 'ok';

  const hits = proxy.hits;
  for (const [lng, ns] of [
    ['../../admin', 'translation'],
    ['en', '../x'],
    ['en?x=1', 'translation'],
    ['en', 'a/b'],
  ]) {
    const [error, again] = await read(lng!, ns!);
    assert.match(String(error), /not a (language|namespace)/);
    assert.equal(again, false);
  }
  assert.equal(proxy.hits, hits, 'nothing was requested');

  assert.equal((await backend.read('de', 'feedback'))['feedback.submit'], 'Feedback senden', 'promise form');
});
