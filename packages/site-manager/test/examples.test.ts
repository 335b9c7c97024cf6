import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startTestServer, type TestServer } from '@signpost/server/testing';
import type { Browser } from 'playwright-core';
import {
  bundle,
  EXAMPLE_BASE_URL,
  launchBrowser,
  startStatic,
  type StaticServer,
} from '../../feature-reporter/test/support/browser.ts';
import { quickStart, runNode, runSnippet } from '../../feature-reporter/test/support/run.ts';

const pkgDir = fileURLToPath(new URL('..', import.meta.url));
const examples = fileURLToPath(new URL('../examples/', import.meta.url));
let server: TestServer;
let browser: Browser;
let site: StaticServer;

before(async () => {
  [server, browser, site] = await Promise.all([startTestServer(), launchBrowser(), startStatic()]);
});
after(async () => {
  await browser?.close();
  await site?.close();
  await server?.close();
});

const page = (script: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>x</title></head><body><div id="root"></div><script type="module" src="${script}"></script></body></html>`;

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
    site.set('/browser.html', html);
    // One module graph for both imports, as a CDN would serve it.
    site.set(
      '/esm/index.js',
      await bundle(
        "export * from '@signpost/site-manager'; export { mountMaintenanceGate } from '@signpost/site-manager/gate';",
        pkgDir,
      ),
    );
    site.set('/esm/gate.js', "export { mountMaintenanceGate } from './index.js';");
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
    site.set(
      '/of.js',
      await bundle(
        readFileSync(`${examples}browser.openfeature.js`, 'utf8').replaceAll(EXAMPLE_BASE_URL, server.baseUrl),
        pkgDir,
      ),
    );
    site.set('/of.html', page('/of.js'));
    const tab = await browser.newPage();
    await tab.goto(`${site.origin}/of.html`);
    await tab.waitForFunction(() => document.body.dataset.newDashboard === 'true');
    await tab.close();
  });

  test('examples/react.tsx in Chromium', async () => {
    site.set(
      '/react.js',
      await bundle(
        `import { createElement } from 'react'; import { createRoot } from 'react-dom/client'; import { App } from './examples/react.tsx';
       createRoot(document.getElementById('root')).render(createElement(App));`,
        pkgDir,
        { replace: { [EXAMPLE_BASE_URL]: server.baseUrl } },
      ),
    );
    site.set('/react.html', page('/react.js'));
    const tab = await browser.newPage();
    await tab.goto(`${site.origin}/react.html`);
    await tab.getByRole('heading', { name: 'New dashboard' }).waitFor();
    assert.equal(await tab.locator('.message.info').textContent(), 'Welcome to the Signpost demo project.');
    await tab.close();
  });

  test('examples/nextjs: the layout loads the configuration on the server and renders with it', async () => {
    const code = await bundle(
      `import { renderToString } from 'react-dom/server';
       import RootLayout from './examples/nextjs/app/layout.tsx';
       export async function render() { return renderToString(await RootLayout({ children: 'page' })); }`,
      pkgDir,
      { platform: 'node', external: ['react', 'react-dom', '@signpost/*'] },
    );
    const file = `${pkgDir}.next-example-${process.pid}.mjs`;
    writeFileSync(file, code);
    process.env.SIGNPOST_URL = server.baseUrl;
    try {
      const { render } = await import(file);
      assert.match(await render(), /<div data-new-dashboard="true">page<\/div>/);
    } finally {
      rmSync(file, { force: true });
    }
  });
});
