/**
 * What a team member (not an admin) sees on the operations screens, in Chromium against a real
 * server: everything readable (an error group with its chart and breadcrumbs, a bug report, a log
 * group, the translations grid and missing-keys inbox, the releases and the version-check
 * preview) and no control that would change something. The server refuses such changes from a
 * member anyway; this checks that the screens do not offer them. axe-core on each screen.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { type SeededProject, seedProject } from './seed-project.ts';
import { type DashboardEnv, expectAccessible, startDashboardEnv, watchedPage } from './support.ts';

describe('dashboard operations screens for a member', () => {
  let env: DashboardEnv;
  let p: SeededProject;
  let page: Page;
  let problems: string[];
  const ids = { error: '', bug: '', log: '' };

  before(async () => {
    env = await startDashboardEnv();
    p = await seedProject(env, 'Member views');
    const key = await p.manage('POST', `/projects/${p.projectId}/keys`, {
      name: 'Reports key',
      environment: 'live',
      scopes: ['errors:write', 'bugs:write', 'logs:write', 'public:read'],
    });
    assert.equal(key.status, 201, JSON.stringify(key.body));
    const send = async (path: string, body: unknown) => {
      const response = await fetch(`${env.origin}/api/public/v1${path}`, {
        method: 'POST',
        headers: { 'x-api-key': key.body.key as string, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      assert.ok(response.status < 300, `${path}: ${response.status}`);
      return response.json() as Promise<any>;
    };
    ids.error = (
      await send('/errors', {
        title: 'Checkout total is undefined',
        message: "TypeError: Cannot read properties of undefined (reading 'total')",
        errorType: 'TypeError',
        severity: 'high',
        stackTrace: "TypeError: Cannot read properties of undefined (reading 'total')\n    at checkout (app.js:10:5)",
        breadcrumbs: [{ timestamp: new Date().toISOString(), type: 'navigation', message: 'Opened /cart' }],
        app: { version: '2.3.0' },
      })
    ).id;
    ids.bug = (
      await send('/bugs', {
        title: 'Export button does nothing',
        message: 'Clicking Export on the reports page does nothing at all.',
        severity: 'medium',
      })
    ).id;
    await send('/logs', { logs: [{ level: 'error', message: 'Payment provider timeout', category: 'billing' }] });
    await send('/i18n-telemetry', { locale: 'de', missingKeys: ['cart.empty'] });
    const logs = await p.manage('GET', `/projects/${p.projectId}/logs`);
    ids.log = logs.body.logs[0].id;
    const locales = await p.manage('PATCH', `/projects/${p.projectId}/translations/locales`, {
      defaultLocale: 'en',
      supportedLocales: ['en', 'de'],
    });
    assert.equal(locales.status, 200, JSON.stringify(locales.body));
    const created = await p.manage('POST', `/projects/${p.projectId}/translations/keys`, {
      key: 'home.title',
      defaultText: 'Welcome',
      translations: { en: 'Welcome', de: 'Willkommen' },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const release = await p.manage('POST', `/projects/${p.projectId}/releases`, { version: '2.3.0' });
    assert.equal(release.status, 201, JSON.stringify(release.body));

    const member = await p.addMember();
    ({ page, problems } = await watchedPage(env.browser));
    await member.signIn(page.context());
  });
  after(async () => env?.close());

  const open = async (path: string, heading: string | RegExp) => {
    await page.goto(`${env.origin}/app/projects/${p.projectId}${path}`);
    await page.getByRole('heading', { level: 1, name: heading }).waitFor();
  };
  const buttons = (name: string | RegExp) => page.getByRole('button', { name }).count();

  it('an error group: facts, chart and breadcrumbs, no lifecycle buttons', async () => {
    await open(`/errors/${ids.error}`, 'Checkout total is undefined');
    await page.getByText('Opened /cart').waitFor();
    await page
      .getByText(/Occurrences in the last 24 hours, by hour: 1 occurrence/)
      .first()
      .waitFor();
    for (const name of ['Resolve', 'Resolve in next release', 'Ignore', 'Reopen']) {
      assert.equal(await buttons(name), 0, name);
    }
    await expectAccessible(page, 'member: error group');
    await open('/errors', 'Errors');
    await page.getByRole('link', { name: 'Checkout total is undefined' }).waitFor();
    await expectAccessible(page, 'member: errors');
  });

  it('a bug report: readable, neither status nor "create idea" offered', async () => {
    await open(`/bugs/${ids.bug}`, 'Export button does nothing');
    await page.getByText('An admin can create one from this report.').waitFor();
    assert.equal(await buttons(/Create idea/), 0);
    assert.equal(await page.getByRole('heading', { name: 'Status' }).count(), 0);
    await expectAccessible(page, 'member: bug report');
  });

  it('a log group: readable, no resolve or ignore', async () => {
    await open(`/logs/${ids.log}`, /Payment provider timeout/);
    await page.getByText('Occurrences').first().waitFor();
    assert.equal(await buttons(/Resolve|Ignore/), 0);
    await expectAccessible(page, 'member: log group');
  });

  it('translations: the grid and the inbox read-only', async () => {
    await open('/translations', 'Translations');
    await page.getByText('Willkommen').waitFor();
    await page.getByText('cart.empty').first().waitFor();
    assert.equal(await page.getByLabel('home.title in de', { exact: true }).count(), 0);
    for (const name of [/^Add key$/, /as keys/, /Add every new one/, /^Save locales$/, /^Import/, /^Delete/]) {
      assert.equal(await buttons(name), 0, String(name));
    }
    await expectAccessible(page, 'member: translations');
  });

  it('releases: the list and the version-check preview, no create, edit or delete', async () => {
    await open('/releases', 'Releases');
    // The releases list (the health table below it names the release too).
    await page.getByRole('rowheader', { name: '2.3.0' }).first().waitFor();
    assert.equal(await buttons(/Create release|Edit|Delete/), 0);
    await page.getByLabel('Client version').fill('2.2.0');
    await page.getByRole('button', { name: 'Check' }).click();
    const facts = page.locator('.releases-facts');
    await facts.waitFor();
    assert.match((await facts.textContent()) ?? '', /Update availableYes.*Latest version2\.3\.0/);
    await expectAccessible(page, 'member: releases');
    assert.deepEqual(problems, []);
  });
});
