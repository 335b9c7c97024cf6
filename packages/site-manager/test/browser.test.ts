import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { bundle } from '@signpost/test-support/bundle';
import { sdkTestEnv } from '@signpost/test-support/env';

const pkgDir = fileURLToPath(new URL('..', import.meta.url));
const { server, browser, site } = await sdkTestEnv({ browser: true, site: true });
site.serve(
  '/gate.js',
  await bundle(
    `import { createSiteManager } from '@signpost/site-manager';
     import { mountMaintenanceGate } from '@signpost/site-manager/gate';
     const params = new URLSearchParams(location.search);
     const site = createSiteManager({ baseUrl: params.get('api'), projectId: params.get('project'), refreshIntervalMs: 100 });
     window.site = site;
     mountMaintenanceGate(site);
     const render = () => { document.querySelector('#flag').textContent = String(site.isEnabled('shiny', false)); };
     render();
     site.on('change', render);`,
    pkgDir,
  ),
);
site.serve(
  '/gate.html',
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>App</title></head>
    <body><h1>App</h1><button id="app-button">Buy</button><p>shiny: <span id="flag"></span></p><script type="module" src="/gate.js"></script></body></html>`,
);

const bump = (projectId: string) =>
  server.db.run('UPDATE projects SET config_version = config_version + 1 WHERE id = ?', [projectId]);
const gateState = (page: Page) =>
  page.evaluate(() => {
    const root = document.querySelector('[data-signpost-gate]')?.shadowRoot;
    return {
      dialog: !!root?.querySelector('dialog')?.open,
      banner: root?.querySelector('.banner')?.textContent ?? null,
      text: root?.querySelector('dialog')?.textContent ?? null,
    };
  });

test('maintenance gate and flags in Chromium: blocks the page, refuses Escape, whitelisted localStorage key passes, banner and flag changes arrive by polling', async () => {
  const p = await server.createProject();
  await server.db.run(
    "INSERT INTO feature_flags (id, project_id, key, enabled, created_at) VALUES ('g1', ?, 'shiny', 0, '2026-01-01T00:00:00Z')",
    [p.projectId],
  );
  // A project has no maintenance row until its settings first change: the test writes one.
  await server.db.run('INSERT INTO maintenance_settings (project_id) VALUES (?)', [p.projectId]);
  await server.db.run(
    `UPDATE maintenance_settings SET enabled = 1, type = 'full', show_status_link = 1, status_page_url = 'https://status.example.com',
     whitelist = '{"localStorageKeys":["signpost-team"],"emails":[],"ips":[]}' WHERE project_id = ?`,
    [p.projectId],
  );
  await bump(p.projectId);
  const page = await browser.newPage();
  const url = `${site.origin}/gate.html?api=${encodeURIComponent(server.baseUrl)}&project=${p.projectId}`;
  await page.goto(url);
  await page.waitForFunction(
    () => !!document.querySelector('[data-signpost-gate]')?.shadowRoot?.querySelector('dialog[open]'),
  );
  const state = await gateState(page);
  assert.match(state.text!, /We’ll be right back/);
  assert.match(state.text!, /Current status/);
  assert.equal(
    await page.evaluate(() => {
      const b = document.querySelector<HTMLButtonElement>('#app-button')!;
      b.focus();
      return document.activeElement === b;
    }),
    false,
    'the app behind the gate is inert',
  );
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');
  // A forced close (if the browser allows one) re-opens the gate in the `close` event's task.
  await page.waitForFunction(
    () => !!document.querySelector('[data-signpost-gate]')?.shadowRoot?.querySelector('dialog[open]'),
    undefined,
    { timeout: 2000 },
  );
  assert.equal((await gateState(page)).dialog, true, 'Escape does not dismiss the gate');

  await page.evaluate(() => localStorage.setItem('signpost-team', '1'));
  await page.reload();
  await page.waitForFunction(() => (window as unknown as { site: { status: string } }).site.status === 'ready');
  assert.equal((await gateState(page)).dialog, false, 'the whitelisted key bypasses the gate');
  await page.evaluate(() => localStorage.removeItem('signpost-team'));

  await server.db.run("UPDATE maintenance_settings SET type = 'banner' WHERE project_id = ?", [p.projectId]);
  await server.db.run('UPDATE feature_flags SET enabled = 1 WHERE project_id = ?', [p.projectId]);
  await bump(p.projectId);
  await page.waitForFunction(() => document.querySelector('#flag')!.textContent === 'true');
  const banner = await gateState(page);
  assert.equal(banner.dialog, false);
  assert.match(banner.banner!, /Maintenance is in progress/);
  await page.locator('#app-button').click({ timeout: 2000 });

  await server.db.run(
    "UPDATE maintenance_settings SET type = 'custom', custom_html = '<h1>Back at ten</h1><img src=x onerror=\"parent.pwned=1\">' WHERE project_id = ?",
    [p.projectId],
  );
  await bump(p.projectId);
  await page.waitForFunction(
    () => !!document.querySelector('[data-signpost-gate]')?.shadowRoot?.querySelector('iframe'),
  );
  const frame = page.frameLocator('[data-signpost-gate] iframe');
  assert.equal(await frame.locator('h1').textContent(), 'Back at ten');
  assert.equal(
    await page.locator('[data-signpost-gate] iframe').getAttribute('sandbox'),
    'allow-popups allow-popups-to-escape-sandbox allow-top-navigation-by-user-activation',
  );
  assert.equal(
    await page.evaluate(() => (window as unknown as { pwned?: number }).pwned),
    undefined,
    'custom HTML cannot run scripts',
  );

  await server.db.run('UPDATE maintenance_settings SET enabled = 0 WHERE project_id = ?', [p.projectId]);
  await bump(p.projectId);
  await page.waitForFunction(
    () => !document.querySelector('[data-signpost-gate]')!.shadowRoot!.querySelector('dialog'),
  );
  await page.close();
});
