/**
 * A browser exports too: the official OTLP/HTTP JSON exporter and the logs SDK, bundled for the
 * browser with esbuild, run in Chromium on a page of another origin and post to Signpost across
 * origins (a CORS preflight, since the key travels in a header).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { type BundledApp, serveBundledApp } from '../support/bundled-app.ts';
import { managedProjectSuite } from '../support/manage-fixtures.ts';

const APP = `
import { OTLPLogExporter } from '@opentelemetry/exporter-logs-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchLogRecordProcessor, LoggerProvider } from '@opentelemetry/sdk-logs';
window.sendLogs = async (url, key) => {
  const provider = new LoggerProvider({
    resource: resourceFromAttributes({ 'service.name': 'web-shop' }),
    processors: [new BatchLogRecordProcessor({ exporter: new OTLPLogExporter({ url, headers: { Authorization: 'Bearer ' + key } }) })],
  });
  const logger = provider.getLogger('web-shop.cart');
  logger.emit({ severityNumber: 13, severityText: 'WARN', body: 'Cart total mismatch', attributes: { 'page.path': '/cart' } });
  logger.emit({ severityNumber: 17, severityText: 'ERROR', body: 'Checkout failed', attributes: { 'http.response.status_code': 502 } });
  await provider.forceFlush();
  await provider.shutdown();
  return 'sent';
};
window.ready = true;
`;

describe('OTLP logs from a browser page on another origin', () => {
  const p = managedProjectSuite();
  let browser: Browser;
  let app: BundledApp;

  before(async () => {
    app = await serveBundledApp({
      entry: APP,
      resolveDir: fileURLToPath(new URL('.', import.meta.url)),
      page: '<!doctype html><html lang="en"><title>shop</title><script type="module" src="/app.js"></script></html>',
    });
    browser = await chromium.launch({
      executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
    });
  });
  after(async () => {
    await browser?.close();
    await app?.close();
  });

  it('stores what the browser exporter sends', async () => {
    const context = await browser.newContext();
    const tab = await context.newPage();
    await tab.goto(`${app.origin}/`);
    await tab.waitForFunction('window.ready === true');
    const sent = await tab.evaluate(
      ([url, key]) => (window as any).sendLogs(url, key),
      [`${p.server.origin}/otlp/v1/logs`, p.liveKey],
    );
    assert.equal(sent, 'sent');
    await context.close();
    const list = await p.member.get(`/projects/${p.projectId}/logs`, { query: { source: 'web-shop' } });
    assert.equal(list.status, 200);
    const levels = Object.fromEntries(list.body.logs.map((g: any) => [g.message, g.level]));
    assert.deepEqual(levels, { 'Cart total mismatch': 'warn', 'Checkout failed': 'error' });
    assert.ok(list.body.logs.every((g: any) => g.category === 'web-shop.cart'));
  });
});
