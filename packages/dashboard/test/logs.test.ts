/**
 * The log explorer and a log group's page in Chromium against a real server: logs of several
 * levels, categories and sources sent through the public API (POST /logs with a key), then through
 * the UI: the histogram's text summary and the list follow the level checkboxes, the category and
 * text filters and the time range (all in the URL); "Load more" pages through the cursor; a
 * group's page shows its count, first and last seen and the last entry's data. axe-core on every
 * screen and state, and once in dark mode.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { type SeededProject, seedProject } from './seed-project.ts';
import { type DashboardEnv, expectAccessible, explained, startDashboardEnv, untilButtonsIdle } from './support.ts';

const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

describe('dashboard log explorer', () => {
  let env: DashboardEnv;
  let seeded: SeededProject;
  let logKey = '';

  const sendLogs = async (logs: unknown[]) => {
    const response = await fetch(`${env.origin}/api/public/v1/logs`, {
      method: 'POST',
      headers: { 'x-api-key': logKey, 'content-type': 'application/json' },
      body: JSON.stringify({ logs }),
    });
    assert.equal(response.status, 200, await response.text());
  };

  before(async () => {
    env = await startDashboardEnv();
    seeded = await seedProject(env, 'Logs Co');
    const key = await seeded.manage('POST', `/projects/${seeded.projectId}/keys`, {
      name: 'Logs key',
      environment: 'live',
      scopes: ['logs:write'],
    });
    assert.equal(key.status, 201, JSON.stringify(key.body));
    logKey = (key.body.key ?? key.body.secret) as string;
    await sendLogs([
      {
        level: 'error',
        message: 'Payment provider timeout',
        category: 'billing',
        source: 'api',
        data: { orderId: 'o-1' },
        timestamp: ago(50),
      },
      {
        level: 'error',
        message: 'Payment provider timeout',
        category: 'billing',
        source: 'api',
        data: { orderId: 'o-2' },
        timestamp: ago(40),
      },
      {
        level: 'error',
        message: 'Payment provider timeout',
        category: 'billing',
        source: 'api',
        data: { orderId: 'o-3', retry: true },
        timestamp: ago(30),
      },
      { level: 'warn', message: 'Slow query on invoices', category: 'db', source: 'worker', timestamp: ago(20) },
      { level: 'info', message: 'User signed in', category: 'auth', source: 'web', timestamp: ago(10) },
      { level: 'debug', message: 'Cache warmed', category: 'cache', source: 'worker', timestamp: ago(5) },
      { level: 'warn', message: 'Old disk warning', category: 'ops', source: 'worker', timestamp: ago(3 * 24 * 60) },
    ]);
    // Enough groups for a second page (50 a page).
    await sendLogs(
      Array.from({ length: 60 }, (_, i) => ({
        level: 'trace',
        message: `Step ${i} of the nightly import`,
        category: 'import',
        source: 'batch',
        timestamp: ago(100 + i),
      })),
    );
  });
  after(async () => env?.close());

  const logsUrl = (search = '') => `${env.origin}/app/projects/${seeded.projectId}/logs${search}`;

  async function signedInPage(): Promise<{ page: Page; problems: string[] }> {
    const context = await env.browser.newContext();
    await seeded.signIn(context);
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy|Refused to/i.test(message.text()))
        problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    return { page, problems };
  }

  const messages = async (page: Page) =>
    page.getByRole('table', { name: 'Log groups' }).locator('tbody tr td.logs-message a').allTextContents();
  const summary = (page: Page) => page.getByTestId('histogram-summary');
  const waitForRows = async (page: Page, count: number) => {
    try {
      await page.waitForFunction(
        (n) => document.querySelectorAll('table[aria-label="Log groups"] tbody tr').length === n,
        count,
      );
    } catch (error) {
      // Say what the page showed instead.
      const shown = await messages(page).catch(() => []);
      throw new Error(
        `expected ${count} rows at ${page.url()}, saw ${shown.length}: ${shown.slice(0, 5).join(' | ')}`,
        {
          cause: error,
        },
      );
    }
  };

  it('filters by level, category, text and time range; the histogram summary follows; pages with Load more', async () => {
    const { page, problems } = await signedInPage();
    await page.goto(logsUrl());
    await page.getByRole('heading', { level: 1, name: 'Logs' }).waitFor();
    await page.getByRole('table', { name: 'Log groups' }).waitFor();
    await page.getByRole('figure', { name: 'Log lines by level over time' }).waitFor();
    // The histogram counts lines: the payment timeout's three entries are three.
    assert.match(
      (await summary(page).textContent()) ?? '',
      /^67 log lines: 3 error, 2 warning, 1 info, 1 debug, 60 trace\. Busiest hour: /,
    );
    await waitForRows(page, 50);
    assert.match(
      (await page.getByRole('status').filter({ hasText: 'log groups' }).textContent()) ?? '',
      /65 log groups, 50 shown/,
    );
    await expectAccessible(page, 'logs list');

    // The next page through the cursor.
    await page.getByRole('button', { name: 'Load more' }).click();
    await waitForRows(page, 65);
    assert.equal(await page.getByRole('button', { name: 'Load more' }).count(), 0);
    assert.deepEqual((await messages(page)).slice(0, 3), ['Cache warmed', 'User signed in', 'Slow query on invoices']);
    await expectAccessible(page, 'logs list, all pages');

    // Levels: errors and warnings only (by keyboard: Space toggles a checkbox).
    for (const level of ['Info', 'Debug', 'Trace']) {
      await page.getByRole('checkbox', { name: level }).focus();
      await page.keyboard.press('Space');
    }
    await page.waitForURL(/level=error(%2C|,)warn(&|$)/);
    await waitForRows(page, 3);
    assert.deepEqual(await messages(page), ['Slow query on invoices', 'Payment provider timeout', 'Old disk warning']);
    await page.waitForFunction(() =>
      document
        .querySelector('[data-testid="histogram-summary"]')
        ?.textContent?.startsWith('5 log lines: 3 error, 2 warning.'),
    );
    await expectAccessible(page, 'logs filtered by level');

    // A category on top of the levels.
    await page.getByLabel('Category').fill('billing');
    await page.getByRole('button', { name: 'Apply', exact: true }).click();
    await page.waitForURL(/category=billing/);
    await waitForRows(page, 1);
    assert.deepEqual(await messages(page), ['Payment provider timeout']);
    assert.match((await summary(page).textContent()) ?? '', /^3 log lines: 3 error\./);

    // Text alone, from a clean view.
    await page.goto(logsUrl('?q=slow'));
    await waitForRows(page, 1);
    assert.deepEqual(await messages(page), ['Slow query on invoices']);
    assert.equal(await page.getByLabel('Search').inputValue(), 'slow');

    // The time range: the last 24 hours leave out the 3-day-old warning; nothing matches → the empty state.
    await page.goto(logsUrl('?level=warn'));
    await waitForRows(page, 2);
    await page.getByLabel('Time range').selectOption('24h');
    await page.waitForURL(/range=24h/);
    await waitForRows(page, 1);
    assert.deepEqual(await messages(page), ['Slow query on invoices']);
    await page.getByLabel('Search').fill('nothing like this');
    await page.getByRole('button', { name: 'Apply', exact: true }).click();
    await page.getByText('No log groups match these filters in this time range.').waitFor();
    assert.match((await summary(page).textContent()) ?? '', /^No log lines in this range\./);
    await expectAccessible(page, 'logs, nothing matches');

    // A custom range.
    await page.goto(
      logsUrl(`?range=custom&from=${encodeURIComponent(ago(4 * 24 * 60))}&to=${encodeURIComponent(ago(2 * 24 * 60))}`),
    );
    await waitForRows(page, 1);
    assert.deepEqual(await messages(page), ['Old disk warning']);
    await page.getByRole('form', { name: 'Custom range' }).waitFor();
    assert.match((await summary(page).textContent()) ?? '', /^1 log line: 1 warning\. Busiest hour: /);
    await expectAccessible(page, 'logs, custom range');

    // The same view through the API.
    const api = await seeded.manage('GET', `/projects/${seeded.projectId}/logs?level=error&category=billing`);
    assert.equal(api.body.total, 1);
    assert.deepEqual(problems, []);
  });

  it('resolves, ignores and reopens a group; the status filter follows', async () => {
    const { page, problems } = await signedInPage();
    await page.goto(logsUrl('?q=Slow+query'));
    await page.getByRole('link', { name: 'Slow query on invoices' }).click();
    await page.getByRole('heading', { level: 1, name: /Slow query on invoices/ }).waitFor();
    await page.getByRole('button', { name: 'Resolve' }).click();
    await page.getByRole('status').filter({ hasText: 'Resolved. New entries are still counted.' }).waitFor();
    assert.match((await page.locator('.log-facts').textContent()) ?? '', /StatusResolved/);
    await expectAccessible(page, 'log group, resolved');

    await page.goto(logsUrl('?q=Slow+query&status=open'));
    await page.getByText('No log groups match', { exact: false }).waitFor();
    await page.getByRole('combobox', { name: 'Status' }).selectOption('resolved');
    await page.waitForURL(/status=resolved/);
    await page.getByRole('link', { name: 'Slow query on invoices' }).waitFor();
    const resolved = await seeded.manage('GET', `/projects/${seeded.projectId}/logs?status=resolved`);
    assert.deepEqual(
      resolved.body.logs.map((log: { message: string }) => log.message),
      ['Slow query on invoices'],
    );

    await page.getByRole('link', { name: 'Slow query on invoices' }).click();
    await page.getByRole('button', { name: 'Ignore' }).click();
    await page.getByRole('status').filter({ hasText: 'Ignored.' }).waitFor();
    await untilButtonsIdle(page);
    await explained(
      page,
      'section[aria-labelledby="triage-status-title"]',
      () => page.getByRole('button', { name: 'Reopen' }).click(),
      () => page.getByRole('status').filter({ hasText: 'Reopened.' }).waitFor(),
    );
    assert.match((await page.locator('.log-facts').textContent()) ?? '', /StatusOpen/);
    assert.deepEqual(problems, []);
  });

  it("opens a group: count, first and last seen, the last entry's data; dark mode", async () => {
    const { page, problems } = await signedInPage();
    await page.goto(logsUrl('?level=error'));
    await page.getByRole('link', { name: 'Payment provider timeout' }).click();
    await page.getByRole('heading', { level: 1, name: /Payment provider timeout/ }).waitFor();
    const facts = (await page.locator('.log-facts').textContent()) ?? '';
    assert.match(facts, /Occurrences3/);
    assert.match(facts, /First seen/);
    assert.match(facts, /CategorybillingSourceapi/);
    const data = JSON.parse((await page.getByLabel("Last entry's data as JSON").textContent()) ?? 'null');
    assert.deepEqual(data, { orderId: 'o-3', retry: true });
    await expectAccessible(page, 'log group');
    // Back keeps the filters.
    await page.getByRole('link', { name: '← Back to the logs' }).click();
    await page.waitForURL(/\/logs\?level=error$/);

    await page.emulateMedia({ colorScheme: 'dark' });
    await page.getByRole('table', { name: 'Log groups' }).waitFor();
    await expectAccessible(page, 'logs list, dark');
    await page.getByRole('link', { name: 'Payment provider timeout' }).click();
    await page.getByRole('heading', { level: 1, name: /Payment provider timeout/ }).waitFor();
    await expectAccessible(page, 'log group, dark');

    await page.goto(logsUrl('/log_missing'));
    await page.getByRole('heading', { level: 1, name: 'Log group not found' }).waitFor();
    await expectAccessible(page, 'log group not found');
    assert.deepEqual(problems, []);
  });
  it('shows lines with their fields, filters by a field, tails live, and a group page with its chart and lines', async () => {
    const { page, problems } = await signedInPage();
    await page.goto(logsUrl('?show=lines&q=data.orderId+%3D+o-2'));
    const lines = page.getByRole('table', { name: 'Log lines' });
    await lines.waitFor();
    await page.waitForFunction(() => document.querySelectorAll('table[aria-label="Log lines"] tbody tr').length === 1);
    assert.equal(await lines.locator('tbody tr td.logs-message a').textContent(), 'Payment provider timeout');
    await lines.locator('summary').first().click();
    assert.match((await lines.locator('details pre').first().textContent()) ?? '', /"orderId": "o-2"/);
    await expectAccessible(page, 'log lines, a field filter, fields open');

    // The live tail: a line posted now shows up on top.
    await page.goto(logsUrl('?show=lines&category=tailed'));
    await page.getByText('No log lines match these filters in this time range.').waitFor();
    await page.getByRole('checkbox', { name: 'Live tail' }).check();
    // Said once the server has opened the stream (its `ready` event): lines from then on arrive.
    await page.getByRole('status').filter({ hasText: 'Live: new lines appear on top' }).waitFor();
    await sendLogs([{ level: 'warn', message: 'Tailed in the browser', category: 'tailed', data: { step: 1 } }]);
    await page.getByRole('link', { name: 'Tailed in the browser' }).waitFor({ timeout: 3000 });
    await expectAccessible(page, 'log lines, live tail');
    await page.getByRole('checkbox', { name: 'Live tail' }).uncheck();

    // A group's page: who sent it, its chart and its lines with their fields.
    await page.goto(logsUrl('?level=error'));
    await page.getByRole('link', { name: 'Payment provider timeout' }).click();
    await page.getByRole('heading', { level: 2, name: 'Lines' }).waitFor();
    await page.waitForFunction(() => document.querySelectorAll('table[aria-label="Log lines"] tbody tr').length === 3);
    await page.getByRole('figure', { name: "This group's lines by level over time" }).waitFor();
    assert.match((await page.getByRole('region', { name: 'Sent by' }).textContent()) ?? '', /api \(3\)/);
    await expectAccessible(page, 'log group with lines');
    assert.deepEqual(problems, []);
  });

  it("opens every group's lines around one line from its time, and widens the window", async () => {
    // Six hours back: no other line of this file is within ten minutes of these.
    const at = (seconds: number) => new Date(Date.now() - 6 * 3_600_000 + seconds * 1000).toISOString();
    await sendLogs([
      { level: 'info', message: 'Around: cart opened', category: 'around', timestamp: at(-20) },
      { level: 'error', message: 'Around: payment failed', category: 'around', timestamp: at(0) },
      { level: 'warn', message: 'Around: retry scheduled', category: 'around-retry', timestamp: at(5) },
      { level: 'info', message: 'Around: nightly report', category: 'around-late', timestamp: at(300) },
    ]);
    const { page, problems } = await signedInPage();
    await page.goto(logsUrl('?show=lines&category=around&range=30d'));
    const failed = page.getByRole('row').filter({ hasText: 'Around: payment failed' });
    await failed.getByRole('link', { name: /\d{2}:\d{2}:\d{2}/ }).click();
    await page.getByRole('heading', { level: 1, name: 'Lines around Around: payment failed' }).waitFor();
    const rows = page.getByRole('table', { name: 'Log lines' }).locator('tbody tr');
    const messages = async () => (await rows.locator('td.logs-message').allTextContents()).map((m) => m.trim());
    // Oldest first, every group within a minute either side, the line itself marked.
    assert.deepEqual(await messages(), ['Around: cart opened', 'Around: payment failed', 'Around: retry scheduled']);
    assert.equal(
      await page.locator('tbody tr[aria-current="true"] td.logs-message').textContent(),
      'Around: payment failed',
    );
    await expectAccessible(page, 'lines around a line');
    await page.getByRole('link', { name: '± 10 minutes' }).click();
    await page.waitForFunction(() => document.querySelectorAll('table[aria-label="Log lines"] tbody tr').length === 4);
    assert.equal((await messages()).at(-1), 'Around: nightly report');
    assert.deepEqual(problems, []);
  });

  it('searches older lines by itself for a field value the newest window does not hold', async () => {
    // One line with the value, then more lines than the server searches in two pages (10,000
    // each on SQLite), in 100 groups (each under the per-group cap): two pages find nothing.
    await sendLogs([{ level: 'info', message: 'Needle order', category: 'needle', data: { needle: 'n-1' } }]);
    for (let batch = 0; batch < 201; batch++)
      await sendLogs(
        Array.from({ length: 100 }, (_, i) => ({
          level: 'debug',
          message: `Haystack ${i}`,
          category: 'haystack',
          data: { needle: 'n-2', batch },
        })),
      );
    const { page, problems } = await signedInPage();
    await page.goto(logsUrl('?show=lines&q=data.needle+%3D+n-1'));
    await page.getByRole('link', { name: 'Needle order' }).waitFor({ timeout: 30_000 });
    assert.equal(await page.getByRole('button', { name: 'Search older lines' }).count(), 0);
    assert.deepEqual(problems, []);
  });
});
