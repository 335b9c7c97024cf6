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

describe('README and examples', () => {
  test('the README quick start works as written', async () => {
    const out = await runSnippet(quickStart(new URL('../README.md', import.meta.url).pathname), pkgDir, {
      origin: server.origin,
    });
    assert.equal(out.trim(), 'true');
  });

  test('examples/node.mjs', async () => {
    const out = await runNode(`${examples}node.mjs`, {
      cwd: pkgDir,
      env: { SIGNPOST_URL: server.baseUrl, SIGNPOST_PROJECT: 'demo' },
    });
    assert.match(out, /before loading, new-dashboard = false/);
    assert.match(
      out,
      /\nnew-dashboard = true\nbeta-export = false\nmaintenance blocks: false\n\[info\] Welcome to the Signpost demo project\.\n/,
    );
    assert.match(out, /update minor: 1\.1\.0/);
  });

  test('examples/browser.html in Chromium: flag and message render; the cache makes the reload a 304', async () => {
    const html = readFileSync(`${examples}browser.html`, 'utf8')
      .replaceAll('https://esm.sh/@signpost/site-manager/gate', '/esm/gate.js')
      .replaceAll('https://esm.sh/@signpost/site-manager', '/esm/index.js')
      .replaceAll(EXAMPLE_BASE_URL, server.baseUrl);
    site.serve('/browser.html', html);
    // One module graph for both imports, as a CDN would serve it.
    site.serve(
      '/esm/index.js',
      await bundle(
        "export * from '@signpost/site-manager'; export { mountMaintenanceGate } from '@signpost/site-manager/gate';",
        pkgDir,
      ),
    );
    site.serve('/esm/gate.js', "export { mountMaintenanceGate } from './index.js';");
    const tab = await browser.newPage();
    const statuses: number[] = [];
    tab.on('response', (r) => r.url().includes('/site-config') && statuses.push(r.status()));
    await tab.goto(`${site.origin}/browser.html`);
    await tab.locator('#new-dashboard').waitFor({ state: 'visible' });
    assert.equal(await tab.locator('#messages p.info').textContent(), 'Welcome to the Signpost demo project.');
    await tab.reload();
    await tab.locator('#new-dashboard').waitFor({ state: 'visible' });
    for (let i = 0; i < 100 && statuses.length < 2; i++) await new Promise((r) => setTimeout(r, 20)); // the revalidation after the cached start
    assert.deepEqual(statuses, [200, 304]);
    await tab.close();
  });

  test('examples/browser.openfeature.js in Chromium', async () => {
    site.serve(
      '/of.js',
      await bundle(
        readFileSync(`${examples}browser.openfeature.js`, 'utf8').replaceAll(EXAMPLE_BASE_URL, server.baseUrl),
        pkgDir,
      ),
    );
    site.serve('/of.html', scriptPage('/of.js'));
    const tab = await browser.newPage();
    await tab.goto(`${site.origin}/of.html`);
    await tab.waitForFunction(() => document.body.dataset.newDashboard === 'true');
    await tab.close();
  });

  test('examples/react.tsx in Chromium', async () => {
    const url = await serveReactExample(site, pkgDir, { [EXAMPLE_BASE_URL]: server.baseUrl });
    const tab = await browser.newPage();
    await tab.goto(url);
    await tab.getByRole('heading', { name: 'New dashboard' }).waitFor();
    assert.equal(await tab.locator('.message.info').textContent(), 'Welcome to the Signpost demo project.');
    await tab.close();
  });

  test('examples/nextjs: the layout loads the configuration on the server and renders with it', async () => {
    process.env.SIGNPOST_URL = server.baseUrl;
    const { render } = await importServerBundle(
      `import { renderToString } from 'react-dom/server';
       import RootLayout from './examples/nextjs/app/layout.tsx';
       export async function render() { return renderToString(await RootLayout({ children: 'page' })); }`,
      pkgDir,
    );
    assert.match(await render(), /<div data-new-dashboard="true">page<\/div>/);
  });
});
