import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'node:test';
import { build } from 'esbuild';
import type { Page } from 'playwright-core';
import { importMapPage, openReady, waitFor, withLocalImportMap } from '@signpost/test-support/browser';
import { sdkTestEnv } from '@signpost/test-support/env';

const { server, browser, site } = await sdkTestEnv({ browser: true, site: true });

interface Row {
  title: string;
  message: string;
  error_type: string;
  severity: string;
  breadcrumbs: string | null;
  device: string | null;
  network: string | null;
  app: string | null;
  url: string | null;
  metadata: string | null;
}
const rows = (projectId: string) =>
  server.db.all<Row>('SELECT * FROM error_reports WHERE project_id = ? ORDER BY first_seen_at, title', [projectId]);
const PACKAGES = ['sdk-core', 'error-tracker'];

function testPage(name: string, apiKey: string): string {
  return site.serve(
    `/${name}.html`,
    importMapPage(
      PACKAGES,
      `import { init, captureException } from '@signpost/error-tracker';
window.tracker = init({ apiKey: ${JSON.stringify(apiKey)}, baseUrl: ${JSON.stringify(server.baseUrl)}, environment: 'production', release: '9.9.9' });
window.captureException = captureException;
document.getElementById('save').addEventListener('click', () => fetch('/missing?token=abc'));
document.getElementById('boom').addEventListener('click', () => { throw new TypeError('boom from a click handler'); });
document.getElementById('reject').addEventListener('click', () => { Promise.reject(new Error('rejected and never handled')); });`,
      `<form onsubmit="return false"><input id="email" name="email" type="email" class="field"><textarea name="notes"></textarea></form>
<button id="save" class="primary" aria-label="Save profile">Save</button>
<button id="boom">Boom</button>
<button id="reject">Reject</button>`,
    ),
  );
}

async function open(name: string, apiKey: string): Promise<{ tab: Page; close: () => Promise<void> }> {
  const { context, tab } = await openReady(browser, testPage(name, apiKey));
  return { tab, close: () => context.close() };
}

describe('error-tracker in Chromium', () => {
  test('an uncaught error arrives with breadcrumbs (no input values) and context', async () => {
    const p = await server.createProject();
    const { tab, close } = await open('uncaught', p.liveKey);
    await tab.click('#email');
    await tab.fill('#email', 'secret-value@example.com');
    await tab.fill('textarea', 'my private notes');
    await tab.click('#save');
    await tab.waitForTimeout(100);
    await tab.evaluate(() => {
      console.warn('low on memory', { free: 12 });
      history.pushState({}, '', '/checkout?step=2');
    });
    await tab.click('#boom');
    await waitFor(async () => (await rows(p.projectId)).length === 1, 10_000, 'error report');
    const [row] = await rows(p.projectId);
    assert.equal(row!.title, 'TypeError: boom from a click handler');
    assert.equal(row!.severity, 'high');
    assert.deepEqual(JSON.parse(row!.metadata!), { mechanism: 'onerror', handled: false });
    const stored = JSON.stringify(row);
    assert.doesNotMatch(stored, /secret-value|private notes|token=abc/);

    const crumbs = JSON.parse(row!.breadcrumbs!) as {
      type: string;
      message: string;
      category?: string;
      level?: string;
      data?: Record<string, unknown>;
    }[];
    const types = crumbs.map((c) => `${c.type}: ${c.message}`);
    assert.ok(types.includes('click: input#email.field[name="email"][type="email"]'), types.join('\n'));
    assert.ok(types.includes('input: input#email.field[name="email"][type="email"]'), types.join('\n'));
    assert.ok(types.includes('input: textarea[name="notes"]'), types.join('\n'));
    assert.ok(types.includes('click: button#save.primary[aria-label="Save profile"]'), types.join('\n'));
    assert.ok(
      types.some((t) => /^http: GET \/missing \[404\]$/.test(t)),
      types.join('\n'),
    );
    assert.ok(types.includes('console: low on memory {"free":12}'), types.join('\n'));
    assert.ok(
      types.some((t) =>
        /^navigation: http:\/\/127\.0\.0\.1:\d+\/uncaught\.html → http:\/\/127\.0\.0\.1:\d+\/checkout$/.test(t),
      ),
      types.join('\n'),
    );
    assert.ok(types.includes('click: button#boom'), types.join('\n'));
    assert.equal(
      crumbs.filter((c) => c.type === 'input' && c.message.startsWith('input#email')).length,
      1,
      'typing is debounced per field',
    );
    for (const c of crumbs) assert.ok(c.type !== 'click' || c.message.length <= 80);

    const device = JSON.parse(row!.device!);
    assert.match(device.browser, /Chrome/);
    assert.match(device.screenResolution, /^\d+x\d+$/);
    assert.ok(device.language && device.timezone && device.userAgent);
    assert.equal(JSON.parse(row!.network!).online, true);
    assert.match(row!.url!, /\/checkout\?step=2$/);
    const app = JSON.parse(row!.app!);
    assert.equal(app.version, '9.9.9');
    assert.equal(app.environment, 'production');
    await close();
  });

  test('an unhandled rejection arrives', async () => {
    const p = await server.createProject();
    const { tab, close } = await open('rejection', p.liveKey);
    await tab.click('#reject');
    await waitFor(async () => (await rows(p.projectId)).length === 1, 10_000, 'rejection report');
    const [row] = await rows(p.projectId);
    assert.equal(row!.title, 'Error: rejected and never handled');
    assert.equal(JSON.parse(row!.metadata!).mechanism, 'onunhandledrejection');
    await close();
  });

  test('offline: the report is kept in localStorage and sent when the browser is back online', async () => {
    const p = await server.createProject();
    const { context, tab } = await openReady(browser, testPage('offline', p.liveKey));
    await context.setOffline(true);
    const result = await tab.evaluate(() =>
      (window as unknown as { captureException(e: unknown): Promise<unknown> }).captureException(
        new Error('captured while offline'),
      ),
    );
    assert.equal(result, undefined);
    assert.match(
      (await tab.evaluate(() => localStorage.getItem('signpost:error-tracker:queue'))) ?? '',
      /captured while offline/,
    );
    assert.equal((await rows(p.projectId)).length, 0);
    await context.setOffline(false);
    await waitFor(async () => (await rows(p.projectId)).length === 1, 10_000, 'replayed report');
    assert.equal((await rows(p.projectId))[0]!.title, 'Error: captured while offline');
    // The server has the report as soon as it committed it; the page empties its queue once the
    // answer is back, a moment later.
    await waitFor(
      async () => (await tab.evaluate(() => localStorage.getItem('signpost:error-tracker:queue'))) === null,
      10_000,
      'emptied queue',
    );
    await context.close();
  });

  test('offline across a reload: kept reports are sent by the next page', async () => {
    const p = await server.createProject();
    const context = await browser.newContext();
    const tab = await context.newPage();
    // Block only the report, not the page, then reload with the API reachable again.
    await tab.route(`${server.baseUrl}/errors`, (route) => route.abort('internetdisconnected'));
    await tab.goto(testPage('reload', p.liveKey));
    await tab.waitForFunction('window.ready === true');
    await tab.evaluate(() =>
      (window as unknown as { captureException(e: unknown): Promise<unknown> }).captureException(
        new Error('kept across a reload'),
      ),
    );
    assert.match(
      (await tab.evaluate(() => localStorage.getItem('signpost:error-tracker:queue'))) ?? '',
      /kept across a reload/,
    );
    await tab.unroute(`${server.baseUrl}/errors`);
    await tab.reload();
    await waitFor(async () => (await rows(p.projectId)).length === 1, 10_000, 'report sent after reload');
    await context.close();
  });

  test('examples/browser.html reports uncaught errors and rejections', async () => {
    const p = await server.createProject();
    const html = withLocalImportMap(
      readFileSync(new URL('../examples/browser.html', import.meta.url), 'utf8'),
      PACKAGES,
    )
      .replace('svc_live_your_key', p.liveKey)
      .replace('http://localhost:3000/api/public/v1', server.baseUrl);
    const context = await browser.newContext();
    const tab = await context.newPage();
    await tab.goto(site.serve('/example.html', html));
    await tab.waitForLoadState('networkidle');
    await tab.click('#crash');
    await tab.click('#reject');
    await waitFor(async () => (await rows(p.projectId)).length === 2, 10_000, 'example reports');
    const stored = await rows(p.projectId);
    assert.deepEqual(stored.map((r) => r.error_type).sort(), ['Error', 'TypeError']);
    assert.equal(JSON.parse(stored[0]!.app!).userId, 'user_42');
    await context.close();
  });

  test('examples/react.tsx: the ErrorBoundary reports, shows the fallback, and resets', async () => {
    const p = await server.createProject();
    const tmp = fileURLToPath(new URL('../.tmp/', import.meta.url));
    mkdirSync(tmp, { recursive: true });
    const source = readFileSync(new URL('../examples/react.tsx', import.meta.url), 'utf8')
      .replace('svc_live_your_key', p.liveKey)
      .replace('http://localhost:3000/api/public/v1', server.baseUrl);
    writeFileSync(`${tmp}react-example.tsx`, source);
    writeFileSync(
      `${tmp}react-main.tsx`,
      `import { createRoot } from 'react-dom/client';\nimport { App } from './react-example.tsx';\ncreateRoot(document.getElementById('root')!).render(<App />);\n`,
    );
    await build({
      entryPoints: [`${tmp}react-main.tsx`],
      outfile: `${tmp}react-app.js`,
      bundle: true,
      format: 'esm',
      jsx: 'automatic',
      define: { 'process.env.NODE_ENV': '"production"' },
      logLevel: 'error',
    });
    const context = await browser.newContext();
    const tab = await context.newPage();
    const logs: string[] = [];
    tab.on('console', (m) => logs.push(m.text()));
    await tab.goto(
      site.serve(
        '/react.html',
        `<!doctype html><div id="root"></div><script type="module" src="/packages/error-tracker/.tmp/react-app.js"></script>`,
      ),
    );
    await tab.waitForSelector('text=Total: 5');
    await tab.click('#break');
    await tab.waitForSelector('[role=alert]');
    await waitFor(async () => (await rows(p.projectId)).length === 1, 10_000, 'boundary report');
    const [row] = await rows(p.projectId);
    assert.equal(row!.error_type, 'TypeError');
    assert.equal(row!.severity, 'high');
    const metadata = JSON.parse(row!.metadata!);
    assert.equal(metadata.mechanism, 'react-error-boundary');
    assert.equal(metadata.area, 'cart');
    assert.match(metadata.componentStack, /Cart/);
    assert.ok(
      logs.some((l) => l.startsWith('cart failed')),
      'onError called',
    );
    await tab.click('#retry');
    await tab.waitForSelector('text=Total: 0');
    await context.close();
  });
});
