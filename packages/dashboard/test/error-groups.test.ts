/**
 * Error groups in Chromium against a real server (issue 31): Sentry events sent to the envelope
 * endpoint group by their in-app frames though their messages differ by ids; the list shows
 * Environment, Release, Status, Users, Count and Last seen inside its column at 1280 px and filters
 * by environment; the group page browses its events (older, newer, "event 2 of 3") and shows the
 * stack with in-app frames highlighted and context lines, the "Unhandled" badge, a custom context,
 * tag facets and breadcrumbs. axe-core on each screen.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { type SeededProject, seedProject } from './seed-project.ts';
import { type DashboardEnv, expectAccessible, startDashboardEnv, watchedPage } from './support.ts';

const frame = (fn: string, lineno: number, inApp: boolean) => ({
  filename: inApp ? '/srv/shop/src/orders.ts' : '/srv/shop/node_modules/express/lib/router.js',
  function: fn,
  lineno,
  colno: 11,
  in_app: inApp,
  ...(inApp
    ? {
        pre_context: ['export function loadOrder(id: string) {', '  const order = orders.get(id);'],
        context_line: "  if (!order) throw new NotFoundError('order ' + id + ' not found');",
        post_context: ['  return order;', '}'],
      }
    : {}),
});

const event = (id: string, environment: string, browser: string) => ({
  event_id: randomUUID().replaceAll('-', ''),
  timestamp: Date.now() / 1000,
  platform: 'node',
  level: 'error',
  environment,
  release: 'shop@3.1.0',
  user: { id: `user-${id}` },
  tags: { 'browser.name': browser },
  contexts: {
    order: { id, total: 42.5 },
    runtime: { name: 'node', version: 'v24.1.0' },
    flags: { values: [{ flag: 'pay-v2', result: true }] },
  },
  breadcrumbs: { values: [{ timestamp: Date.now() / 1000 - 5, category: 'ui.click', message: 'Clicked Pay' }] },
  exception: {
    values: [
      {
        type: 'NotFoundError',
        value: `order ${id} not found`,
        mechanism: { type: 'onunhandledrejection', handled: false },
        stacktrace: {
          frames: [frame('handle', 200, false), frame('checkout', 40, true), frame('loadOrder', 12, true)],
        },
      },
    ],
  },
});

describe('dashboard error groups', () => {
  let env: DashboardEnv;
  let p: SeededProject;
  let sendEvent: (body: unknown) => Promise<number>;
  before(async () => {
    env = await startDashboardEnv();
    p = await seedProject(env, 'Error groups project');
    const key = await p.manage('POST', `/projects/${p.projectId}/keys`, {
      name: 'Sentry key',
      environment: 'live',
      scopes: ['errors:write'],
    });
    assert.equal(key.status, 201, JSON.stringify(key.body));
    const dsn = new URL(key.body.sentryDsn as string);
    const number = dsn.pathname.slice(1);
    sendEvent = async (body) => {
      const item = JSON.stringify(body);
      const envelope = `${JSON.stringify({})}\n${JSON.stringify({ type: 'event', length: Buffer.byteLength(item) })}\n${item}\n`;
      const response = await fetch(`${env.origin}/api/${number}/envelope/?sentry_key=${dsn.username}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-sentry-envelope' },
        body: envelope,
      });
      await response.arrayBuffer();
      return response.status;
    };
    // Turned on just before the errors begin: the groups' suspect flag (issue 33).
    const flag = await p.manage('PUT', `/projects/${p.projectId}/site-config/flags/pay-v2`, { enabled: true });
    assert.equal(flag.status, 201, JSON.stringify(flag.body));
    for (const [id, browser] of [
      ['o_101', 'Chrome'],
      ['o_102', 'Chrome'],
      ['o_103', 'Firefox'],
    ] as const) {
      assert.equal(await sendEvent(event(id, 'production', browser)), 200);
    }
    assert.equal(await sendEvent(event('o_900', 'staging', 'Safari')), 200);
  });
  after(async () => env?.close());

  it('lists groups with every column at 1280 px, filters by environment, browses events', async (t) => {
    const { page, problems } = await watchedPage(env.browser);
    t.after(async () => {
      if (process.env['SHOTS'])
        await page.screenshot({ path: `${process.env['SHOTS']}/error-groups-end.png`, fullPage: true });
    });
    await page.setViewportSize({ width: 1280, height: 900 });
    await p.signIn(page.context());
    await page.goto(`${env.origin}/app/projects/${p.projectId}/errors`);
    const table = page.getByRole('table', { name: 'Error groups' });
    await table.waitFor();
    assert.equal(await table.getByRole('row').count(), 3, 'a header and one group per environment');
    for (const name of ['Environment', 'Release', 'Status', 'Users', 'Count', 'Last seen']) {
      const box = await table.getByRole('columnheader', { name, exact: true }).boundingBox();
      assert.ok(box && box.x + box.width <= 1280, `${name} is inside the window at 1280 px`);
    }
    const fits = await page.locator('.reports-table-wrap').evaluate((wrap) => wrap.scrollWidth <= wrap.clientWidth + 1);
    assert.ok(fits, 'the table fits its column');
    const production = page.getByRole('row').filter({ hasText: 'production' });
    // Sent as shop@3.1.0; releases are stored without the package prefix (kernel/release.ts).
    assert.match((await production.textContent()) ?? '', /3\.1\.0/);
    assert.doesNotMatch((await production.textContent()) ?? '', /shop@/);
    assert.match((await production.textContent()) ?? '', /Unhandled/);
    await expectAccessible(page, 'error groups');

    await page.getByLabel('Environment').selectOption('staging');
    await page.waitForURL(/sdkEnvironment=staging/);
    await page.getByText('1 error group').waitFor();
    assert.match((await page.getByRole('row').nth(1).textContent()) ?? '', /staging/);
    await page.getByLabel('Environment').selectOption('production');
    await page.waitForURL(/sdkEnvironment=production/);
    const link = page.getByRole('row').nth(1).getByRole('link');
    await link.click();
    await page.getByRole('heading', { level: 1, name: 'NotFoundError: order o_101 not found' }).waitFor();

    await page.getByText('Event 3 of 3').waitFor();
    await page.getByText('order o_103 not found').waitFor();
    // The group's chart counts its events, over the records of each message.
    await page.locator('figcaption').filter({ hasText: 'by hour: 3 occurrences' }).waitFor();
    await page.getByRole('button', { name: 'Older' }).click();
    await page.getByText('Event 2 of 3').waitFor();
    await page.getByText('order o_102 not found').waitFor();
    await page.getByRole('button', { name: 'Newer' }).click();
    await page.getByText('Event 3 of 3').waitFor();
    assert.equal(await page.getByRole('button', { name: 'Newer' }).isDisabled(), true);
    // The same on the keyboard: j older, k newer (the buttons' description says so).
    const described = await page.getByRole('button', { name: 'Older' }).getAttribute('aria-describedby');
    assert.equal(await page.locator(`[id="${described}"]`).textContent(), 'Keyboard: j for older, k for newer');
    await page.keyboard.press('j');
    await page.getByText('Event 2 of 3').waitFor();
    await page.getByText('order o_102 not found').waitFor();
    await page.keyboard.press('k');
    await page.getByText('Event 3 of 3').waitFor();

    const frames = page.getByRole('list', { name: 'Frames of NotFoundError, newest first' });
    assert.equal(await frames.locator('li.in-app').count(), 2);
    await frames.getByText('throw new NotFoundError').first().waitFor();
    await page.getByText('Show 1 more frame (not in the app)').waitFor();
    assert.ok((await page.locator('.badge-unhandled').count()) >= 1);
    await page.getByRole('heading', { name: 'order', exact: true }).waitFor();
    const chrome = page.getByRole('list', { name: 'Values of browser.name' });
    assert.match((await chrome.textContent()) ?? '', /Chrome: 67% \(2\)/);
    await page.getByRole('list', { name: 'Breadcrumbs, oldest first' }).getByText('Clicked Pay').waitFor();
    // Flags next to errors: the flag turned on before the group began, and the flags the event carried.
    const suspects = page.getByRole('region', { name: 'Suspect flags' });
    assert.match((await suspects.textContent()) ?? '', /pay-v2 created, on/);
    const evaluated = page.getByRole('table', { name: 'Feature flags evaluated before the error, newest last' });
    assert.deepEqual(await evaluated.getByRole('cell').allTextContents(), ['pay-v2', 'true']);
    await expectAccessible(page, 'error group with events');

    await page.getByRole('button', { name: 'Resolve', exact: true }).click();
    await page.getByText('Resolved. If it occurs again it shows as regressed.').waitFor();
    await page.emulateMedia({ colorScheme: 'dark' });
    await expectAccessible(page, 'error group, dark');
    await page.emulateMedia({ colorScheme: 'light' });

    // Merge the staging group into the production one from the list, then unmerge it.
    await page.getByRole('link', { name: '← All errors' }).click();
    await table.waitFor();
    for (const box of await page.getByRole('checkbox', { name: /^Select NotFoundError/ }).all()) await box.check();
    await page.getByRole('button', { name: 'Merge 2 groups' }).click();
    const merged = page.getByRole('region', { name: 'Merged into this group' });
    // Into the first selected, as listed: the group seen last (staging's).
    await merged.getByText(/NotFoundError: order o_1\d\d not found — 3 events/).waitFor();
    await page.getByText('Event 4 of 4').waitFor();
    await expectAccessible(page, 'error group with a merged group');
    await merged.getByRole('button', { name: 'Unmerge' }).click();
    await merged.waitFor({ state: 'detached' });
    await page.getByText('Event 1 of 1').waitFor();
    assert.deepEqual(problems, []);
  });
});
