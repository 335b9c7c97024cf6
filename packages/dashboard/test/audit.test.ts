/**
 * The audit log screen in Chromium against a real server: actions made through the API show in
 * the table with who and via what, the chosen entry's before and after beside it (j/k move),
 * filters narrow the list through the URL, the export links download what the API exports; a
 * member is told the log is for admins. axe in light and dark.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type SeededProject, seedProject } from './seed-project.ts';
import { type DashboardEnv, expectAccessible, startDashboardEnv, watchedPage } from './support.ts';

describe('dashboard audit log', () => {
  let env: DashboardEnv;
  let p: SeededProject;

  before(async () => {
    env = await startDashboardEnv();
    p = await seedProject(env, 'Audit project');
  });
  after(async () => {
    await env?.close();
  });

  it('lists who did what, shows before and after, filters and exports', async () => {
    const base = `/projects/${p.projectId}`;
    assert.equal((await p.manage('PUT', `${base}/site-config/flags/beta-search`, { enabled: true })).status, 201);
    assert.equal((await p.manage('PUT', `${base}/site-config/flags/beta-search`, { enabled: false })).status, 200);
    const idea = await p.addIdea({ title: 'Audited idea' });
    assert.equal((await p.manage('PATCH', `${base}/features/${idea}`, { status: 'planned' })).status, 200);

    const { page, problems } = await watchedPage(env.browser);
    await p.signIn(page.context());
    await page.goto(`${env.origin}/app/projects/${p.projectId}/settings`);
    await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Audit log' }).click();
    await page.getByRole('heading', { level: 1, name: 'Audit log' }).waitFor();
    const table = page.getByRole('table', { name: 'Audit entries, newest first' });
    await table.waitFor();
    const rows = table.locator('tbody tr');
    assert.deepEqual(await rows.locator('td:nth-child(4)').allInnerTexts(), [
      'feature.status_changed',
      'flag.updated',
      'flag.created',
      // The seed's key, and the board the seed turns on.
      'api_key.created',
      'board.settings_updated',
    ]);
    assert.match(await rows.first().innerText(), /dashboard/);
    // The newest is shown; j moves to the next.
    const detail = page.getByRole('region', { name: 'Chosen entry' });
    await detail.getByRole('heading', { name: 'feature.status_changed' }).waitFor();
    assert.match(await detail.innerText(), /"status": "open"[\s\S]*"status": "planned"/);
    await expectAccessible(page, 'audit log');
    await page.emulateMedia({ colorScheme: 'dark' });
    await expectAccessible(page, 'audit log, dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await rows.first().getByRole('button').focus();
    await page.keyboard.press('j');
    await detail.getByRole('heading', { name: 'flag.updated' }).waitFor();
    assert.match(await detail.innerText(), /"enabled": true[\s\S]*"enabled": false/);
    await page.keyboard.press('k');
    await detail.getByRole('heading', { name: 'feature.status_changed' }).waitFor();

    // A filter narrows the list and goes into the URL and the export links.
    await page.getByLabel('Target type').fill('flag');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/targetType=flag/);
    await page.waitForFunction(() => document.querySelectorAll('.audit-table tbody tr').length === 2);
    const csvLink = page.getByRole('link', { name: 'Export CSV' });
    const href = (await csvLink.getAttribute('href'))!;
    assert.match(href, /format=csv/);
    assert.match(href, /targetType=flag/);
    const download = await page.evaluate(async (url) => {
      const response = await fetch(url);
      return { type: response.headers.get('content-type'), text: await response.text() };
    }, href);
    assert.match(download.type!, /^text\/csv/);
    const lines = download.text.trim().split('\r\n');
    assert.equal(lines.length, 3);
    assert.match(lines[1]!, /,flag\.updated,flag,beta-search,/);
    assert.deepEqual(problems, []);
    await page.close();
  });

  it('sets how long the log is kept: a bad value is refused in place, a saved one is read back and logged', async () => {
    const { page, problems } = await watchedPage(env.browser);
    await p.signIn(page.context());
    await page.goto(`${env.origin}/app/projects/${p.projectId}/audit`);
    const form = page.getByRole('form', { name: 'Retention' });
    const days = form.getByLabel('Keep entries for (days)');
    await page.waitForFunction(
      () => (document.querySelector('input[type="number"]') as HTMLInputElement | null)?.value === '365',
    );
    assert.equal(await days.inputValue(), '365', 'the default, read from the API');

    await days.fill('0');
    await form.getByRole('button', { name: 'Save retention' }).click();
    await form.getByText('A whole number of days from 1 to 3650').waitFor();
    const stored = async () => (await p.manage('GET', `/projects/${p.projectId}/audit/settings`)).body.retentionDays;
    assert.equal(await stored(), 365, 'nothing saved');

    await days.fill('90');
    await form.getByRole('button', { name: 'Save retention' }).click();
    await form.getByRole('status').filter({ hasText: 'Entries are kept for 90 days.' }).waitFor();
    assert.equal(await stored(), 90);
    // The change is itself in the log, at the top of the table.
    const table = page.getByRole('table', { name: 'Audit entries, newest first' });
    await table.locator('tbody tr').first().getByText('audit.retention_changed').waitFor();
    await expectAccessible(page, 'audit log retention');

    // A reload reads the saved value back.
    await page.reload();
    await page.waitForFunction(
      () => (document.querySelector('input[type="number"]') as HTMLInputElement | null)?.value === '90',
    );
    assert.deepEqual(problems, []);
    await page.close();
  });

  it('tells a member the log is for admins', async () => {
    const member = await p.addMember();
    const { page } = await watchedPage(env.browser);
    await member.signIn(page.context());
    await page.goto(`${env.origin}/app/projects/${p.projectId}/audit`);
    await page.getByText('The audit log is for the team’s admins and owners.').waitFor();
    assert.equal(await page.getByRole('table').count(), 0);
    await expectAccessible(page, 'audit log, member');
    await page.close();
  });
});
