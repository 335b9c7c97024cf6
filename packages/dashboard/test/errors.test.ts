/**
 * Errors and bug reports in Chromium against a real server: errors sent through the public API
 * (with breadcrumbs, context and a release) show as a group with its count, its chart (the
 * chart's text summary and total) and its breadcrumbs; resolved, then sent again, it shows as
 * regressed; the list's filters live in the URL; a bug report becomes an idea linked both ways.
 * axe-core on every screen and state, and once in dark mode.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { type SeededProject, seedProject } from './seed-project.ts';
import {
  type DashboardEnv,
  expectAccessible,
  explained,
  startDashboardEnv,
  untilButtonsIdle,
  watchedPage,
} from './support.ts';

const now = Date.now();
const crash = {
  title: 'Cannot read properties of undefined',
  message: "TypeError: Cannot read properties of undefined (reading 'total') in CartSummary",
  errorType: 'TypeError',
  severity: 'high',
  stackTrace: Array.from({ length: 14 }, (_, i) =>
    i === 0
      ? "TypeError: Cannot read properties of undefined (reading 'total')"
      : `    at frame${i} (app.js:${i * 10}:5)`,
  ).join('\n'),
  breadcrumbs: [
    { timestamp: new Date(now - 30_000).toISOString(), type: 'navigation', message: 'Opened /cart' },
    {
      timestamp: new Date(now - 20_000).toISOString(),
      type: 'click',
      message: 'Clicked Checkout button',
      category: 'ui',
    },
    {
      timestamp: new Date(now - 10_000).toISOString(),
      type: 'http',
      message: 'GET /api/cart failed with 500',
      level: 'error',
      data: { status: 500 },
    },
  ],
  device: { browser: 'Firefox', browserVersion: '132', os: 'Linux' },
  network: { effectiveType: '4g', online: true },
  app: { version: '2.3.0', environment: 'production' },
  url: 'https://shop.example.com/cart',
};
const other = {
  title: 'Payment widget failed to load',
  message: 'ChunkLoadError: Loading chunk 42 failed for the payment widget.',
  errorType: 'ChunkLoadError',
  severity: 'low',
  app: { version: '2.2.9' },
};

describe('dashboard errors and bug reports', () => {
  let env: DashboardEnv;
  let p: SeededProject;
  let send: (path: string, body: unknown) => Promise<{ status: number; body: any }>;
  before(async () => {
    env = await startDashboardEnv();
    p = await seedProject(env, 'Errors project');
    const key = await p.manage('POST', `/projects/${p.projectId}/keys`, {
      name: 'Reports key',
      environment: 'live',
      scopes: ['errors:write', 'bugs:write'],
    });
    assert.equal(key.status, 201, JSON.stringify(key.body));
    const reportKey = (key.body.key ?? key.body.secret) as string;
    send = async (path, body) => {
      const response = await fetch(`${env.origin}/api/public/v1${path}`, {
        method: 'POST',
        headers: { 'x-api-key': reportKey, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: response.status, body: await response.json() };
    };
  });
  after(async () => env?.close());

  const heading = (page: Page) => page.getByRole('heading', { level: 1 });
  const rowOf = (page: Page, title: string) => page.getByRole('row').filter({ hasText: title });

  it('shows a group with its count, chart and breadcrumbs; resolve, repeat, regressed; filters', async (t) => {
    const { page, problems } = await watchedPage(env.browser);
    t.after(async () => {
      if (process.env['SHOTS'])
        await page.screenshot({ path: `${process.env['SHOTS']}/errors-end.png`, fullPage: true });
    });
    await p.signIn(page.context());

    await page.goto(`${env.origin}/app/projects/${p.projectId}/errors/records`);
    await page.getByText('No errors yet.').waitFor();
    assert.equal(await heading(page).textContent(), 'Error records');
    await expectAccessible(page, 'errors, empty');

    for (let i = 0; i < 3; i++) assert.ok([200, 201].includes((await send('/errors', crash)).status));
    const first = await send('/errors', other);
    assert.equal(first.status, 201);

    await page.reload();
    const row = rowOf(page, crash.title);
    await row.waitFor();
    assert.match((await row.textContent()) ?? '', /3/);
    assert.match((await row.textContent()) ?? '', /2\.3\.0/);
    assert.match((await row.textContent()) ?? '', /High/);
    await page.getByText('2 error groups').waitFor();
    await expectAccessible(page, 'errors list');

    // Filters, in the URL.
    await page.getByLabel('Severity').selectOption('low');
    await page.waitForURL(/severity=low/);
    await page.getByText('1 error group').waitFor();
    assert.equal(await rowOf(page, crash.title).count(), 0);
    await page.getByLabel('Severity').selectOption('');
    await page.getByLabel('Release').fill('2.3.0');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/release=2\.3\.0/);
    await page.getByText('1 error group').waitFor();
    await rowOf(page, crash.title).waitFor();
    await page.getByLabel('Release').fill('');
    await page.getByLabel('Search', { exact: true }).fill('ChunkLoadError');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/q=ChunkLoadError/);
    await rowOf(page, other.title).waitFor();
    await page.getByText('1 error group').waitFor();
    await page.getByLabel('Search', { exact: true }).fill('nothing like this anywhere');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByText('No errors match these filters.').waitFor();
    await expectAccessible(page, 'errors list, nothing matches');
    await page.getByRole('link', { name: 'Clear the filters' }).click();
    await page.getByText('2 error groups').waitFor();
    await page.getByLabel('Last seen').selectOption('1h');
    await page.waitForURL(/time=1h/);
    await page.getByText('2 error groups').waitFor();
    await page.getByRole('combobox', { name: 'Status' }).selectOption('resolved');
    await page.getByText('No errors match these filters.').waitFor();
    await page.goto(`${env.origin}/app/projects/${p.projectId}/errors/records`);

    // The group's page.
    await rowOf(page, crash.title).getByRole('link', { name: crash.title }).click();
    await heading(page).filter({ hasText: crash.title }).waitFor();
    const summary = page.locator('figcaption');
    await summary.filter({ hasText: 'Occurrences in the last 24 hours, by hour: 3 occurrences' }).waitFor();
    // The numbers behind the chart, for screen readers: 24 hours, their total 3.
    const cells = await page.locator('.time-chart table tbody tr td:nth-child(2)').allTextContents();
    assert.equal(cells.length, 24);
    assert.equal(
      cells.reduce((sum, cell) => sum + Number(cell), 0),
      3,
    );
    const crumbs = page.getByRole('list', { name: 'Breadcrumbs, oldest first' });
    const crumbTexts = await crumbs.getByRole('listitem').allTextContents();
    assert.equal(crumbTexts.length, 3);
    for (const [i, crumb] of crash.breadcrumbs.entries()) {
      assert.ok(crumbTexts[i]!.includes(crumb.message), `${crumbTexts[i]} has ${crumb.message}`);
      assert.ok(crumbTexts[i]!.includes(crumb.type), `${crumbTexts[i]} has ${crumb.type}`);
    }
    await page.getByText('Firefox').waitFor();
    await page.getByText('4g', { exact: true }).waitFor();
    assert.equal(await page.getByRole('list', { name: 'Frames' }).getByRole('listitem').count(), 8);
    await page.getByText('Show 6 more frames').click();
    await page.getByText('at frame13 (app.js:130:5)').waitFor();
    await expectAccessible(page, 'error group');

    // The range toggle by keyboard.
    await page.getByRole('button', { name: 'Last 14 days' }).focus();
    await page.keyboard.press('Enter');
    assert.equal(await page.getByRole('button', { name: 'Last 14 days' }).getAttribute('aria-pressed'), 'true');
    await summary.filter({ hasText: 'Occurrences in the last 14 days, by day: 3 occurrences' }).waitFor();
    assert.equal(await page.locator('.time-chart table tbody tr').count(), 14);
    await expectAccessible(page, 'error group, 14 days');
    await page.emulateMedia({ colorScheme: 'dark' });
    await expectAccessible(page, 'error group, dark');
    await page.emulateMedia({ colorScheme: 'light' });

    // Resolve; the same error again: regressed.
    await page.getByRole('button', { name: 'Resolve', exact: true }).click();
    await page.getByText('Resolved. If it occurs again it shows as regressed.').waitFor();
    await page.locator('.report-header .report-status').filter({ hasText: 'Resolved' }).waitFor();
    await expectAccessible(page, 'error group, resolved');
    assert.equal((await send('/errors', crash)).status, 200);
    await page.reload();
    await page.locator('.report-header .report-status').filter({ hasText: 'Regressed' }).waitFor();
    await summary.filter({ hasText: ': 4 occurrences' }).waitFor();
    await expectAccessible(page, 'error group, regressed');
    await page.getByRole('link', { name: '← All error records' }).click();
    await page.getByRole('combobox', { name: 'Status' }).selectOption('regressed');
    await page.waitForURL(/status=regressed/);
    await page.getByText('1 error group').waitFor();
    assert.match((await rowOf(page, crash.title).textContent()) ?? '', /Regressed/);
    assert.match((await page.locator('main p.muted').first().textContent()) ?? '', /1 regressed/);

    // Resolve in the next release: 2.3.0 again keeps it resolved, 2.4.0 regresses it.
    await rowOf(page, crash.title).getByRole('link', { name: crash.title }).click();
    await page.getByRole('button', { name: 'Resolve in next release' }).click();
    await page.getByText('Resolved in the release after 2.3.0.', { exact: false }).waitFor();
    await send('/errors', crash);
    const group = await p.manage('GET', `/projects/${p.projectId}/errors?q=CartSummary`);
    assert.equal(group.body.errors[0].status, 'resolved');
    await send('/errors', { ...crash, app: { version: '2.4.0' } });
    await page.reload();
    await page.locator('.report-header .report-status').filter({ hasText: 'Regressed' }).waitFor();
    await page.getByRole('button', { name: 'Ignore' }).click();
    await page.locator('.report-header .report-status').filter({ hasText: 'Ignored' }).waitFor();
    await untilButtonsIdle(page);
    await explained(
      page,
      'main',
      () => page.getByRole('button', { name: 'Reopen' }).click(),
      () => page.locator('.report-header .report-status').filter({ hasText: 'Open' }).waitFor(),
    );
    assert.deepEqual(problems, []);
  });

  it('turns a bug report into an idea, linked both ways', async (t) => {
    const { page, problems } = await watchedPage(env.browser);
    t.after(async () => {
      if (process.env['SHOTS']) await page.screenshot({ path: `${process.env['SHOTS']}/bugs-end.png`, fullPage: true });
    });
    await p.signIn(page.context());
    await page.goto(`${env.origin}/app/projects/${p.projectId}/bugs`);
    await page.getByText('No bug reports yet.').waitFor();
    assert.equal(await heading(page).textContent(), 'Bug reports');
    await expectAccessible(page, 'bug reports, empty');

    const bug = {
      title: 'Export button does nothing',
      message: 'Clicking Export on the reports page does nothing.',
      severity: 'medium',
    };
    assert.equal((await send('/bugs', bug)).status, 201);
    await send('/bugs', bug);
    await send('/bugs', {
      title: 'Typo on pricing page',
      message: 'It says "pirce" instead of price.',
      severity: 'low',
    });
    await page.reload();
    await rowOf(page, bug.title).waitFor();
    assert.match((await rowOf(page, bug.title).textContent()) ?? '', /2/);
    await expectAccessible(page, 'bug reports list');
    await page.getByLabel('Severity').selectOption('low');
    await page.waitForURL(/severity=low/);
    await page.getByText('1 bug report').waitFor();
    await page.getByLabel('Severity').selectOption('');

    await rowOf(page, bug.title).getByRole('link', { name: bug.title }).click();
    await heading(page).filter({ hasText: bug.title }).waitFor();
    await expectAccessible(page, 'bug report');
    await page.getByRole('button', { name: 'Create idea from this bug' }).click();
    await page.getByText('Idea created and linked to this bug report.').waitFor();
    const link = page.getByRole('link', { name: 'Open the linked idea' });
    await link.waitFor();
    await expectAccessible(page, 'bug report, linked');
    const report = await p.manage('GET', `/projects/${p.projectId}/bugs?q=Export`);
    const featureId = report.body.bugs[0].featureId as string;
    assert.ok(featureId);
    await link.click();
    await page.waitForURL(new RegExp(`/inbox/${featureId}$`));
    await heading(page).filter({ hasText: bug.title }).waitFor();
    // The idea's page lists the bug report linked to it.
    await page.getByRole('heading', { name: 'Linked bug reports' }).waitFor();
    await page
      .getByRole('table', { name: 'Linked bug reports' })
      .getByRole('cell', { name: new RegExp(`^${bug.title}`) })
      .waitFor();
    await page.goto(`${env.origin}/app/projects/${p.projectId}/bugs`);
    await rowOf(page, bug.title)
      .getByRole('link', { name: `Open idea for ${bug.title}` })
      .waitFor();
    await page.emulateMedia({ colorScheme: 'dark' });
    await expectAccessible(page, 'bug reports list, dark');
    await page.emulateMedia({ colorScheme: 'light' });
    assert.deepEqual(problems, []);
  });
});
