import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { EXAMPLE_BASE_URL, scriptPage } from '@signpost/test-support/browser';
import { bundle, importServerBundle, serveReactExample } from '@signpost/test-support/bundle';
import { sdkTestEnv } from '@signpost/test-support/env';
import { quickStart, runNode, runSnippet } from '@signpost/test-support/run';

const pkgDir = fileURLToPath(new URL('..', import.meta.url));
const examples = fileURLToPath(new URL('../examples/', import.meta.url));
const { server, browser, site } = await sdkTestEnv({ browser: true, site: true });

const missing = async (projectId: string) =>
  (
    await server.db.all<{ key: string; locale: string }>(
      'SELECT key, locale FROM missing_translations WHERE project_id = ? ORDER BY key',
      [projectId],
    )
  ).map((r) => `${r.locale}:${r.key}`);

describe('README and examples', () => {
  test('the README quick start works as written', async () => {
    const out = await runSnippet(quickStart(new URL('../README.md', import.meta.url).pathname), pkgDir, {
      origin: server.origin,
    });
    assert.equal(out.trim(), 'Willkommen, Ada!');
  });

  test('examples/node.mjs reports its missing plural key on close', async () => {
    const p = await server.createProject();
    await server.db.run(
      "INSERT INTO translation_keys (id, project_id, key, namespace, category, default_text, created_at, updated_at) VALUES ('tk_ex', ?, 'app.welcome', NULL, NULL, 'Welcome, {name}!', '2026-01-01', '2026-01-01')",
      [p.projectId],
    );
    await server.db.run(
      "INSERT INTO translation_values (key_id, locale, text, updated_at) VALUES ('tk_ex', 'de', 'Willkommen, {name}!', '2026-01-01')",
    );
    const out = await runNode(`${examples}node.mjs`, {
      cwd: pkgDir,
      env: { SIGNPOST_URL: server.baseUrl, SIGNPOST_API_KEY: p.liveKey },
    });
    assert.equal(out, 'Willkommen, Ada!\n3 items\nnav.changelog\n');
    assert.deepEqual(await missing(p.projectId), ['de:cart.items', 'en:nav.changelog']);
  });

  test('examples/node.i18next.mjs', async () => {
    const out = await runNode(`${examples}node.i18next.mjs`, { cwd: pkgDir, env: { SIGNPOST_URL: server.baseUrl } });
    assert.equal(out, 'Willkommen, Ada!\nFeedback senden\n');
  });

  test('examples/browser.html in Chromium: renders, switches language', async () => {
    site.serve(
      '/browser.html',
      readFileSync(`${examples}browser.html`, 'utf8')
        .replaceAll('https://esm.sh/@signpost/i18n', '/esm/i18n.js')
        .replaceAll(EXAMPLE_BASE_URL, server.baseUrl),
    );
    site.serve('/esm/i18n.js', await bundle("export * from '@signpost/i18n';", pkgDir));
    const page = await (await browser.newContext({ locale: 'en-US' })).newPage();
    await page.goto(`${site.origin}/browser.html`);
    await page.locator('#welcome', { hasText: 'Welcome, Ada!' }).waitFor();
    await page.selectOption('#locale', 'de');
    await page.locator('#welcome', { hasText: 'Willkommen, Ada!' }).waitFor();
    assert.equal(await page.locator('h1').textContent(), 'Demo-App');
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'de');
    await page.context().close();
  });

  test('in Chromium, missing keys still queued when the page is hidden are sent with keepalive', async () => {
    const p = await server.createProject();
    site.serve(
      '/hide.js',
      await bundle(
        `import { createI18n } from '@signpost/i18n';
       const q = new URLSearchParams(location.search);
       const i18n = createI18n({ apiKey: q.get('key'), baseUrl: q.get('api'), locale: 'en', reportIntervalMs: 600000 });
       await i18n.ready;
       i18n.t('checkout.pay'); i18n.t('checkout.pay'); i18n.t('checkout.cancel');
       window.done = true;`,
        pkgDir,
      ),
    );
    site.serve('/hide.html', scriptPage('/hide.js'));
    const page = await browser.newPage();
    await page.goto(`${site.origin}/hide.html?key=${p.liveKey}&api=${encodeURIComponent(server.baseUrl)}`);
    await page.waitForFunction(() => (window as unknown as { done?: boolean }).done === true);
    assert.deepEqual(await missing(p.projectId), [], 'nothing sent before the page goes away');
    await page.goto('about:blank');
    for (let i = 0; i < 100 && (await missing(p.projectId)).length < 2; i++)
      await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(await missing(p.projectId), ['en:checkout.cancel', 'en:checkout.pay']);
    await page.close();
  });

  test('examples/react.tsx in Chromium', async () => {
    const url = await serveReactExample(site, pkgDir, { [EXAMPLE_BASE_URL]: server.baseUrl });
    const page = await browser.newPage();
    await page.goto(url);
    await page.getByRole('heading', { name: 'Welcome, Ada!' }).waitFor();
    await page.getByRole('button', { name: 'Deutsch' }).click();
    await page.getByRole('heading', { name: 'Willkommen, Ada!' }).waitFor();
    await page.close();
  });

  test('examples/nextjs: the server component translates', async () => {
    process.env.SIGNPOST_URL = server.baseUrl;
    process.env.SIGNPOST_API_KEY = server.demoKey;
    const { render } = await importServerBundle(
      `import { renderToString } from 'react-dom/server';
       import Page from './examples/nextjs/app/page.tsx';
       export async function render(lang) { return renderToString(await Page({ searchParams: Promise.resolve({ lang }) })); }`,
      pkgDir,
    );
    assert.equal(await render('de'), '<main lang="de"><h1>Demo-App</h1><p>Willkommen, Ada!</p></main>');
    assert.equal(await render('en'), '<main lang="en"><h1>Demo App</h1><p>Welcome, Ada!</p></main>');
  });
});
