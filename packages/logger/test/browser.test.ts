import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { closeContext, importMapPage, openReady, waitFor, withLocalImportMap } from '@signpost/test-support/browser';
import { sdkTestEnv } from '@signpost/test-support/env';

const { server, browser, site } = await sdkTestEnv({ browser: true, site: true });

const messages = async (projectId: string) =>
  (
    await server.db.all<{ message: string }>('SELECT message FROM log_groups WHERE project_id = ? ORDER BY message', [
      projectId,
    ])
  ).map((r) => r.message);

function page(name: string, apiKey: string, script: string): string {
  return site.serve(
    `/${name}.html`,
    importMapPage(
      ['sdk-core', 'logger'],
      `import { createLogger } from '@signpost/logger';
window.log = createLogger({ apiKey: ${JSON.stringify(apiKey)}, baseUrl: ${JSON.stringify(server.baseUrl)}, flushIntervalMs: 600000 });
${script}`,
    ),
  );
}

describe('logger in Chromium', () => {
  test('entries are flushed when the page is hidden (visibilitychange)', async () => {
    const p = await server.createProject();
    const { context, tab } = await openReady(
      browser,
      page('hide', p.liveKey, `log.info('queued before hide', { n: 1 }); log.warn('second entry');`),
    );
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
    const { context, tab } = await openReady(
      browser,
      page('leave', p.liveKey, `document.addEventListener('click', () => log.error('clicked, then left'));`),
    );
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
    await tab.goto(site.serve('/example.html', html));
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
    const { context, tab } = await openReady(browser, page('offline', p.liveKey, ''));
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
