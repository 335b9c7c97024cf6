import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { managedProjectSuite } from '../../support/manage-fixtures.ts';

describe('management: translations', () => {
  const p = managedProjectSuite();

  const path = (rest = '') => `/projects/${p.projectId}/translations${rest}`;
  const publicSet = (locale: string, etag?: string) =>
    p.live.get('/translations', { query: { locale }, headers: etag ? { 'if-none-match': etag } : {} });

  /** Runs a write and checks that the public translations of `locale` changed (new ETag, no 304). */
  async function changesPublic<T>(locale: string, action: () => Promise<T>): Promise<{ result: T; set: any }> {
    const before = await publicSet(locale);
    const result = await action();
    const after = await publicSet(locale, before.headers.get('etag')!);
    assert.equal(after.status, 200, 'the old ETag no longer matches');
    assert.notEqual(after.body.hash, before.body.hash);
    return { result, set: after.body };
  }

  it('manages locales', async () => {
    assert.deepEqual((await p.member.get(path('/locales'))).body, {
      defaultLocale: 'en',
      supportedLocales: ['en', 'de'],
    });
    const res = await p.admin.patch(path('/locales'), { supportedLocales: ['en', 'de', 'FR', 'pt-br'] });
    assert.deepEqual(res.body, { defaultLocale: 'en', supportedLocales: ['en', 'de', 'fr', 'pt-BR'] });
    const moved = await p.admin.patch(path('/locales'), { defaultLocale: 'es' });
    assert.deepEqual(moved.body, { defaultLocale: 'es', supportedLocales: ['es', 'en', 'de', 'fr', 'pt-BR'] });
    await p.admin.patch(path('/locales'), { defaultLocale: 'en', supportedLocales: ['en', 'de'] });
    assert.equal((await p.admin.patch(path('/locales'), { defaultLocale: 'not a locale!' })).status, 400);
    assert.equal((await p.admin.patch(path('/locales'), {})).status, 400);
    assert.equal((await p.member.patch(path('/locales'), { defaultLocale: 'de' })).status, 403);
  });

  it('creates keys with namespaces, categories and texts; edits, lists, filters and deletes them', async () => {
    const { result: created, set } = await changesPublic('de', () =>
      p.admin.post(path('/keys'), {
        key: 'checkout.pay',
        defaultText: 'Pay now',
        namespace: 'checkout',
        category: 'buttons',
        translations: { de: 'Jetzt bezahlen', FR: 'Payer' },
      }),
    );
    assert.equal(created.status, 201);
    assert.deepEqual(created.body.translations, { de: 'Jetzt bezahlen', fr: 'Payer' });
    assert.equal(set.translations['checkout.pay'], 'Jetzt bezahlen');
    assert.equal((await p.admin.post(path('/keys'), { key: 'checkout.pay', defaultText: 'Again' })).status, 409);
    assert.equal((await p.admin.post(path('/keys'), { key: 'bad key', defaultText: 'x' })).status, 400);

    await p.admin.post(path('/keys'), { key: 'nav.home', defaultText: 'Home', namespace: 'common' });
    await p.admin.post(path('/keys'), { key: 'nav.help', defaultText: 'Help', namespace: 'common', category: 'links' });

    const { set: german } = await changesPublic('de', () =>
      p.admin.put(path('/keys/nav.home/values/de'), { text: 'Startseite' }),
    );
    assert.equal(german.translations['nav.home'], 'Startseite');
    const { set: austrian } = await changesPublic('de-AT', () =>
      p.admin.put(path('/keys/nav.home/values/de-at'), { text: 'Startseite (AT)' }),
    );
    assert.equal(austrian.translations['nav.home'], 'Startseite (AT)');
    assert.equal(austrian.translations['nav.help'], 'Help');
    const { set: fallback } = await changesPublic('de-AT', () => p.admin.delete(path('/keys/nav.home/values/de-AT')));
    assert.equal(fallback.translations['nav.home'], 'Startseite');
    await changesPublic('en', () => p.admin.patch(path('/keys/nav.help'), { defaultText: 'Get help', category: null }));

    const all = await p.member.get(path('/keys'));
    assert.deepEqual(
      all.body.keys.map((k: any) => k.key),
      ['checkout.pay', 'nav.help', 'nav.home'],
    );
    assert.equal(all.body.keys[1].category, null);
    assert.equal(all.body.keys[1].defaultText, 'Get help');
    const common = await p.member.get(path('/keys'), { query: { namespace: 'common' } });
    assert.deepEqual(
      common.body.keys.map((k: any) => k.key),
      ['nav.help', 'nav.home'],
    );
    assert.deepEqual(
      (await p.member.get(path('/keys'), { query: { category: 'buttons' } })).body.keys.map((k: any) => k.key),
      ['checkout.pay'],
    );
    assert.deepEqual((await p.member.get(path('/keys'), { query: { q: 'startseite' } })).body.keys, []);
    assert.deepEqual(
      (await p.member.get(path('/keys'), { query: { q: 'HELP' } })).body.keys.map((k: any) => k.key),
      ['nav.help'],
    );
    const untranslated = await p.member.get(path('/keys'), { query: { missingLocale: 'de' } });
    assert.deepEqual(
      untranslated.body.keys.map((k: any) => k.key),
      ['nav.help'],
    );

    const { set: gone } = await changesPublic('en', () => p.admin.delete(path('/keys/nav.help')));
    assert.equal(gone.translations['nav.help'], undefined);
    assert.equal((await p.member.get(path('/keys/nav.help'))).status, 404);
    assert.equal((await p.admin.put(path('/keys/nav.help/values/de'), { text: 'x' })).status, 404);
    assert.equal((await p.member.put(path('/keys/nav.home/values/de'), { text: 'x' })).status, 403);
  });

  it('imports flat and nested files per locale and namespace, and exports them again', async () => {
    const { result: imported, set } = await changesPublic('de', () =>
      p.admin.post(
        path('/import'),
        { settings: { title: 'Einstellungen', save: 'Speichern' }, 'settings.cancel': 'Abbrechen' },
        {
          query: { locale: 'de', namespace: 'settings' },
        },
      ),
    );
    assert.equal(imported.status, 200);
    assert.deepEqual(imported.body, {
      locale: 'de',
      namespace: 'settings',
      created: ['settings.cancel', 'settings.save', 'settings.title'],
      updated: [],
      unchanged: [],
      unsupportedLocale: false,
    });
    assert.equal(set.translations['settings.save'], 'Speichern');
    const key = (await p.member.get(path('/keys/settings.save'))).body;
    assert.equal(key.namespace, 'settings');
    assert.equal(key.defaultText, '', 'a German file gives no default text');

    const english = await p.admin.post(
      path('/import'),
      { 'settings.save': 'Save', 'settings.title': 'Settings' },
      { query: { locale: 'en' } },
    );
    assert.deepEqual(english.body.updated, ['settings.save', 'settings.title']);
    assert.equal(
      (await p.member.get(path('/keys/settings.save'))).body.defaultText,
      'Save',
      "the default locale's file fills it in",
    );
    const again = await p.admin.post(path('/import'), { 'settings.save': 'Save' }, { query: { locale: 'en' } });
    assert.deepEqual(again.body.unchanged, ['settings.save']);
    const kept = await p.admin.post(
      path('/import'),
      { 'settings.save': 'SAVE!' },
      { query: { locale: 'en', overwrite: false } },
    );
    assert.deepEqual(kept.body.unchanged, ['settings.save']);
    const japanese = await p.admin.post(path('/import'), { 'settings.save': '保存' }, { query: { locale: 'ja' } });
    assert.equal(japanese.body.unsupportedLocale, true);

    const flat = await p.member.get(path('/export'), { query: { locale: 'de', namespace: 'settings' } });
    assert.equal(flat.status, 200);
    assert.deepEqual(flat.body, {
      'settings.cancel': 'Abbrechen',
      'settings.save': 'Speichern',
      'settings.title': 'Einstellungen',
    });
    assert.match(flat.headers.get('content-disposition')!, /settings\.de\.json/);
    const odd = await p.member.get(path('/export'), { query: { locale: 'de', namespace: 'we"ird ns' } });
    assert.equal(odd.headers.get('content-disposition'), 'attachment; filename="we_ird_ns.de.json"');
    const nested = await p.member.get(path('/export'), {
      query: { locale: 'en', namespace: 'settings', format: 'nested' },
    });
    assert.deepEqual(nested.body, { settings: { save: 'Save', title: 'Settings' } });
    const withFallback = await p.member.get(path('/export'), {
      query: { locale: 'en', namespace: 'settings', fallback: true },
    });
    assert.deepEqual(
      withFallback.body,
      { 'settings.save': 'Save', 'settings.title': 'Settings' },
      'no English text, no German either',
    );

    // A key that is both a text and a group cannot be nested.
    await p.admin.post(
      path('/import'),
      { settings: 'Settings page' },
      { query: { locale: 'en', namespace: 'settings' } },
    );
    assert.equal(
      (await p.member.get(path('/export'), { query: { locale: 'en', namespace: 'settings', format: 'nested' } }))
        .status,
      409,
    );

    const bad = await p.admin.post(
      path('/import'),
      { ok: 'fine', list: ['no'], deep: { n: 5 }, 'bad key': 'x' },
      { query: { locale: 'de' } },
    );
    assert.equal(bad.status, 400);
    assert.deepEqual(
      bad.body.details.map((d: any) => d.field),
      ['list', 'deep.n', 'bad key'],
    );
    assert.equal((await p.member.get(path('/keys/ok'))).status, 404, 'a bad file stores nothing');
    assert.equal((await p.admin.post(path('/import'), { a: 'b' }, { query: {} })).status, 400);
    assert.equal((await p.member.post(path('/import'), { a: 'b' }, { query: { locale: 'de' } })).status, 403);
  });

  it("serves a file's texts to its own locale only: a German file is not what English readers get", async () => {
    const german = await p.admin.post(
      path('/import'),
      { walk: { greeting: 'Hallo', nav: { home: 'Startseite', help: 'Hilfe' } } },
      {
        query: { locale: 'de', namespace: 'walk' },
      },
    );
    assert.deepEqual(german.body.created, ['walk.greeting', 'walk.nav.help', 'walk.nav.home']);
    const served = async (locale: string) =>
      (await p.live.get('/translations', { query: { locale, namespace: 'walk' } })).body.translations;
    assert.deepEqual(await served('de'), {
      'walk.greeting': 'Hallo',
      'walk.nav.help': 'Hilfe',
      'walk.nav.home': 'Startseite',
    });
    assert.deepEqual(await served('de-AT'), {
      'walk.greeting': 'Hallo',
      'walk.nav.help': 'Hilfe',
      'walk.nav.home': 'Startseite',
    });
    assert.deepEqual(await served('en'), {}, 'no English text and no default text: absent, not German');
    assert.deepEqual(await served('fr'), {});
    assert.equal((await p.member.get(path('/keys/walk.greeting'))).body.defaultText, '');

    // The default locale's file fills English values and the default text the German file left empty.
    assert.equal((await p.admin.put(path('/keys/walk.nav.home/values/en'), { text: 'Home' })).status, 200);
    const english = await p.admin.post(
      path('/import'),
      { walk: { greeting: 'Hello', nav: { home: 'Home' } } },
      { query: { locale: 'en' } },
    );
    assert.deepEqual(
      english.body.updated,
      ['walk.greeting', 'walk.nav.home'],
      'nav.home changed: its default text was filled in',
    );
    assert.equal((await p.member.get(path('/keys/walk.greeting'))).body.defaultText, 'Hello');
    assert.equal((await p.member.get(path('/keys/walk.nav.home'))).body.defaultText, 'Home');
    assert.equal((await p.member.get(path('/keys/walk.nav.help'))).body.defaultText, '');
    assert.deepEqual(await served('en'), { 'walk.greeting': 'Hello', 'walk.nav.home': 'Home' });
    assert.deepEqual(await served('fr'), { 'walk.greeting': 'Hello', 'walk.nav.home': 'Home' });
    assert.deepEqual(await served('de'), {
      'walk.greeting': 'Hallo',
      'walk.nav.help': 'Hilfe',
      'walk.nav.home': 'Startseite',
    });
    const exported = await p.member.get(path('/export'), {
      query: { locale: 'fr', namespace: 'walk', fallback: true },
    });
    assert.deepEqual(exported.body, { 'walk.greeting': 'Hello', 'walk.nav.home': 'Home' });

    // A default text set by hand is served again; a later German file leaves it alone.
    await p.admin.patch(path('/keys/walk.nav.help'), { defaultText: 'Help' });
    await p.admin.post(path('/import'), { walk: { nav: { help: 'Hilfe!' } } }, { query: { locale: 'de' } });
    assert.equal((await p.member.get(path('/keys/walk.nav.help'))).body.defaultText, 'Help');
    assert.deepEqual(await served('en'), {
      'walk.greeting': 'Hello',
      'walk.nav.help': 'Help',
      'walk.nav.home': 'Home',
    });

    const doc = (await p.owner.get('/openapi.json', { unchecked: true })).body;
    assert.match(
      doc.paths['/projects/{projectId}/translations/import'].post.description,
      /fills its own locale's values only/,
    );
    const publicDoc = (await p.live.get('/openapi.json', { unchecked: true })).body;
    assert.match(publicDoc.paths['/translations'].get.description, /is left out/);
  });

  it('imports files of thousands of keys across batches, counting created, updated and unchanged exactly', async () => {
    const file: Record<string, string> = {};
    for (let i = 0; i < 1200; i++) file[`bulk.k${String(i).padStart(4, '0')}`] = `Text ${i}`;
    const first = await p.admin.post(path('/import'), file, { query: { locale: 'fr', namespace: 'bulk' } });
    assert.equal(first.status, 200);
    assert.equal(first.body.created.length, 1200);
    assert.equal(first.body.created[0], 'bulk.k0000');
    for (let i = 0; i < 1200; i += 3) file[`bulk.k${String(i).padStart(4, '0')}`] = `Changed ${i}`;
    file['bulk.new'] = 'New one';
    const second = await p.admin.post(path('/import'), file, { query: { locale: 'fr' } });
    assert.deepEqual(
      [second.body.created.length, second.body.updated.length, second.body.unchanged.length],
      [1, 400, 800],
    );
    const kept = await p.admin.post(
      path('/import'),
      { 'bulk.k0000': 'Not this' },
      { query: { locale: 'fr', overwrite: false } },
    );
    assert.deepEqual(kept.body.unchanged, ['bulk.k0000']);
    const exported = await p.member.get(path('/export'), { query: { locale: 'fr', namespace: 'bulk' } });
    assert.equal(Object.keys(exported.body).length, 1200);
    assert.equal(exported.body['bulk.k0003'], 'Changed 3');
    assert.equal(exported.body['bulk.k0001'], 'Text 1');
  });

  it('lists keys reported missing by telemetry, with counts, and adds them as keys in one call', async () => {
    await p.live.post('/i18n-telemetry', { locale: 'de', missingKeys: ['promo.banner', 'promo.cta', 'nav.home'] });
    await p.live.post('/i18n-telemetry', { locale: 'de', missingKeys: ['promo.banner'] });
    await p.live.post('/i18n-telemetry', { locale: 'fr', missingKeys: ['promo.banner', 'bad key!'] });
    await p.test.post('/i18n-telemetry', { locale: 'de', missingKeys: ['only.in.test'] });

    const missing = await p.member.get(path('/missing'));
    assert.equal(missing.status, 200);
    const rows = missing.body.missing.map((m: any) => [m.key, m.locale, m.occurrences, m.keyExists, m.translated]);
    // nav.home has a German text already, so it is resolved and left out by default.
    assert.deepEqual(
      rows,
      [
        ['promo.banner', 'de', 2, false, false],
        ['bad key!', 'fr', 1, false, false],
        ['promo.banner', 'fr', 1, false, false],
        ['promo.cta', 'de', 1, false, false],
      ].sort((a: any, b: any) => b[2] - a[2] || 0),
    );
    assert.equal(missing.body.total, 4);
    assert.ok(missing.body.missing[0].firstSeenAt <= missing.body.missing[0].lastSeenAt);
    const withResolved = await p.member.get(path('/missing'), { query: { includeResolved: true, locale: 'de' } });
    assert.ok(withResolved.body.missing.some((m: any) => m.key === 'nav.home' && m.translated));
    const testOnly = await p.member.get(path('/missing'), { query: { environment: 'test' } });
    assert.deepEqual(
      testOnly.body.missing.map((m: any) => m.key),
      ['only.in.test'],
    );

    const { result: added } = await changesPublic('de', () =>
      p.admin.post(path('/missing/keys'), { namespace: 'promo' }),
    );
    assert.deepEqual(added.body, { created: ['promo.banner', 'promo.cta'], existing: [], invalid: ['bad key!'] });
    const banner = (await p.member.get(path('/keys/promo.banner'))).body;
    assert.equal(banner.defaultText, 'promo.banner');
    assert.equal(banner.namespace, 'promo');
    const after = await p.member.get(path('/missing'));
    assert.ok(after.body.missing.every((m: any) => m.key !== 'promo.cta' || m.keyExists));

    const picked = await p.admin.post(path('/missing/keys'), {
      keys: ['only.in.test', 'promo.cta'],
      environment: 'test',
    });
    assert.deepEqual(picked.body, { created: ['only.in.test'], existing: ['promo.cta'], invalid: [] });
    assert.equal((await p.member.post(path('/missing/keys'), {})).status, 403);
  });

  it('keeps other teams out', async () => {
    assert.equal((await p.outsider.get(path('/keys'))).status, 404);
    assert.equal((await p.outsider.get(path('/export'), { query: { locale: 'de' } })).status, 404);
    assert.equal((await p.outsider.post(path('/import'), { x: 'y' }, { query: { locale: 'de' } })).status, 404);
  });

  it('sums up progress per locale and the namespaces and categories in use', async () => {
    await p.admin.patch(path('/locales'), { defaultLocale: 'en', supportedLocales: ['en', 'de', 'fr'] });
    const before = (await p.member.get(path('/summary'))).body;
    await p.admin.post(path('/keys'), {
      key: 'summary.one',
      defaultText: 'One',
      namespace: 'zz-summary',
      category: 'zz-cat',
      translations: { en: 'One', de: 'Eins' },
    });
    await p.admin.post(path('/keys'), { key: 'summary.two', defaultText: 'Two', translations: { it: 'Due' } });
    const res = await p.member.get(path('/summary'));
    assert.equal(res.status, 200);
    assert.equal(res.body.totalKeys, before.totalKeys + 2);
    const count = (body: any, locale: string) => body.locales.find((l: any) => l.locale === locale);
    assert.deepEqual(
      res.body.locales.slice(0, 3).map((l: any) => l.locale),
      ['en', 'de', 'fr'],
      'supported locales first, the default first of all',
    );
    assert.equal(count(res.body, 'de').translated, (count(before, 'de')?.translated ?? 0) + 1);
    assert.equal(count(res.body, 'fr').translated, count(before, 'fr')?.translated ?? 0);
    assert.equal(count(res.body, 'it').supported, false, 'a locale with texts but not supported is listed too');
    assert.ok(res.body.namespaces.includes('zz-summary'));
    assert.ok(res.body.categories.includes('zz-cat'));
    await p.admin.put(path('/keys/summary.two/values/fr'), { text: 'Deux' });
    assert.equal(
      count((await p.member.get(path('/summary'))).body, 'fr').translated,
      (count(before, 'fr')?.translated ?? 0) + 1,
    );
    assert.equal((await p.outsider.get(path('/summary'))).status, 404);
    await p.admin.delete(path('/keys/summary.one'));
    await p.admin.delete(path('/keys/summary.two'));
    await p.admin.patch(path('/locales'), { defaultLocale: 'en', supportedLocales: ['en', 'de'] });
  });
});
