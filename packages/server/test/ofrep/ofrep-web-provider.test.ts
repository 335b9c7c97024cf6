/**
 * The published OFREP web provider (`@openfeature/ofrep-web-provider`) with `@openfeature/web-sdk`,
 * unchanged and bundled with esbuild, in Chromium on another origin than the server (so CORS and
 * the exposed ETag are real): it reads the flags for its context, polls with If-None-Match (304s),
 * and hears a change (a 200) as a configuration change.
 */
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { chromium, type Browser } from 'playwright-core';
import { type BundledApp, serveBundledApp } from '../support/bundled-app.ts';
import { type ManagedProject, managedProject } from '../support/manage-fixtures.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const ENTRY = `
import { OpenFeature, ProviderEvents } from '@openfeature/web-sdk';
import { OFREPWebProvider } from '@openfeature/ofrep-web-provider';
const params = new URLSearchParams(location.search);
window.changes = [];
const render = () => {
  const client = OpenFeature.getClient();
  document.querySelector('#checkout').textContent = String(client.getBooleanValue('new-checkout', false));
  document.querySelector('#chat').textContent = client.getStringValue('support-chat', 'none');
};
OpenFeature.addHandler(ProviderEvents.ConfigurationChanged, (event) => {
  window.changes.push(event.flagsChanged ?? []);
  render();
});
await OpenFeature.setContext({ targetingKey: 'user-42', email: 'ana@acme.com' });
await OpenFeature.setProviderAndWait(
  new OFREPWebProvider({
    baseUrl: params.get('server'),
    headers: [['Authorization', 'Bearer ' + params.get('key')]],
    pollInterval: 150,
    cacheMode: 'disabled',
  }),
);
render();
window.ready = true;
`;

let server: TestServer;
let project: ManagedProject;
let browser: Browser;
let app: BundledApp;

before(async () => {
  app = await serveBundledApp({
    entry: ENTRY,
    resolveDir: fileURLToPath(new URL('.', import.meta.url)),
    page:
      '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>App</title></head><body>' +
      '<p>checkout: <span id="checkout"></span></p><p>chat: <span id="chat"></span></p>' +
      '<script type="module" src="/app.js"></script></body></html>',
  });
  [server, browser] = await Promise.all([
    startTestServer(),
    chromium.launch({ executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium' }),
  ]);
  project = await managedProject(server);
});
after(async () => {
  await browser?.close();
  await server?.close();
  await app?.close();
});

test('the OFREP web provider in Chromium reads flags, polls with 304s and hears a change', async () => {
  const flags = `/projects/${project.projectId}/site-config/flags`;
  await project.admin.put(`${flags}/new-checkout`, { enabled: false });
  await project.admin.put(`${flags}/support-chat`, {
    enabled: true,
    type: 'string',
    value: 'bot',
    rules: [{ attribute: 'email', operator: 'ends_with', value: '@acme.com', serve: 'human' }],
  });
  const page = await browser.newPage();
  const statuses: number[] = [];
  page.on('response', (response) => {
    if (response.url().endsWith('/ofrep/v1/evaluate/flags') && response.request().method() === 'POST')
      statuses.push(response.status());
  });
  await page.goto(
    `${app.origin}/?server=${encodeURIComponent(server.origin)}&key=${encodeURIComponent(project.liveKey)}`,
  );
  await page.waitForFunction(() => (window as unknown as { ready?: boolean }).ready === true);
  assert.equal(await page.textContent('#checkout'), 'false');
  assert.equal(await page.textContent('#chat'), 'human');

  // Polls that change nothing are 304s: the browser could read the ETag (exposed by CORS).
  const deadline = Date.now() + 10_000;
  while (statuses.filter((s) => s === 304).length < 2 && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 50));
  assert.ok(statuses.filter((s) => s === 304).length >= 2, `statuses ${statuses.join(',')}`);

  const beforeChange = statuses.length;
  await project.admin.put(`${flags}/new-checkout`, { enabled: true });
  await page.waitForFunction(() => document.querySelector('#checkout')?.textContent === 'true', undefined, {
    timeout: 10_000,
  });
  const changes = await page.evaluate(() => (window as unknown as { changes: string[][] }).changes);
  assert.ok(
    changes.some((changed) => changed.includes('new-checkout')),
    JSON.stringify(changes),
  );
  assert.ok(statuses.slice(beforeChange).includes(200), `a 200 after the change: ${statuses.join(',')}`);
  await page.close();
});
