import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { startTestServer, type TestServer } from '@signpost/server/testing';
import {
  closeContext,
  importMap,
  launchChromium,
  startStaticServer,
  waitFor,
  withLocalImportMap,
  type StaticServer,
} from '../../sdk-core/test/support/browser.ts';

let server: TestServer;
let web: StaticServer;
let browser: Browser;
before(async () => {
  [server, web, browser] = await Promise.all([startTestServer(), startStaticServer(), launchChromium()]);
});
after(async () => {
  await browser?.close();
  await web?.close();
  await server?.close();
});

const messages = async (projectId: string) =>
  (
    await server.db.all<{ message: string }>('SELECT message FROM log_groups WHERE project_id = ? ORDER BY message', [
      projectId,
    ])
  ).map((r) => r.message);

function page(name: string, apiKey: string, script: string): string {
  return web.page(
    `/${name}.html`,
    `<!doctype html><html><head>${importMap(['sdk-core', 'logger'])}</head><body>
<script type="module">
import { createLogger } from '@signpost/logger';
window.log = createLogger({ apiKey: ${JSON.stringify(apiKey)}, baseUrl: ${JSON.stringify(server.baseUrl)}, flushIntervalMs: 600000 });
${script}
window.ready = true;
</script></body></html>`,
  );
}

describe('logger in Chromium', () => {
  test('entries are flushed when the page is hidden (visibilitychange)', async () => {
    const p = await server.createProject();
    const context = await browser.newContext();
    const tab = await context.newPage();
    await tab.goto(page('hide', p.liveKey, `log.info('queued before hide', { n: 1 }); log.warn('second entry');`));
    await tab.waitForFunction('window.ready === true');
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual(await messages(p.projectId), [], 'nothing sent before the page is hidden');
    await tab.evaluate(() => {
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await waitFor(async () => (await messages(p.projectId)).length === 2, 10_000, 'entries after hide');
    assert.deepEqual(await messages(p.projectId), ['queued before hide', 'second entry']);
    await closeContext(context);
  });

  test('entries logged right before leaving the page still arrive (pagehide + keepalive)', async () => {
    const p = await server.createProject();
    const context = await browser.newContext();
    const tab = await context.newPage();
    await tab.goto(
      page('leave', p.liveKey, `document.addEventListener('click', () => log.error('clicked, then left'));`),
    );
    await tab.waitForFunction('window.ready === true');
    await tab.mouse.click(10, 10);
    await tab.goto('about:blank', { waitUntil: 'commit' });
    await waitFor(async () => (await messages(p.projectId)).length === 1, 10_000, 'entry after leaving');
    await closeContext(context);
  });

  test('examples/browser.html logs and flushes on hide', async () => {
    const p = await server.createProject();
    const html = withLocalImportMap(readFileSync(new URL('../examples/browser.html', import.meta.url), 'utf8'), [
      'sdk-core',
      'logger',
    ])
      .replace('svc_live_your_key', p.liveKey)
      .replace('http://localhost:3000/api/public/v1', server.baseUrl);
    const context = await browser.newContext();
    const tab = await context.newPage();
    const consoleLines: string[] = [];
    tab.on('console', (m) => consoleLines.push(m.text()));
    await tab.goto(web.page('/example.html', html));
    await tab.waitForFunction('!!window.signpostLog');
    await tab.click('#buy');
    await tab.goto('about:blank', { waitUntil: 'commit' });
    await waitFor(async () => (await messages(p.projectId)).length === 2, 10_000, 'example entries');
    assert.deepEqual(await messages(p.projectId), ['Buy clicked', 'Page loaded']);
    assert.ok(
      consoleLines.some((l) => l.includes('Page loaded')),
      'console pass-through',
    );
    await closeContext(context);
  });

  test('a batch logged while offline is kept and sent when the browser is back online', async () => {
    const p = await server.createProject();
    const context = await browser.newContext();
    const tab = await context.newPage();
    await tab.goto(page('offline', p.liveKey, ''));
    await tab.waitForFunction('window.ready === true');
    await context.setOffline(true);
    await tab.evaluate(async () => {
      const log = (window as unknown as { log: { info(m: string): void; flush(): Promise<void> } }).log;
      log.info('written offline');
      await log.flush();
    });
    const kept = await tab.evaluate(() => localStorage.getItem('signpost:logger:queue'));
    assert.match(kept ?? '', /written offline/);
    assert.deepEqual(await messages(p.projectId), []);
    await context.setOffline(false);
    await waitFor(async () => (await messages(p.projectId)).length === 1, 10_000, 'replayed entry');
    await closeContext(context);
  });
});
