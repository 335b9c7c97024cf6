/**
 * Release health in Chromium against a real server: sessions for two releases arrive as Sentry
 * envelopes and clients call the version check; the releases screen lists each release's
 * crash-free rates, a release's page shows its figures, adoption charts and the comparison with
 * the previous release, and Home shows the latest release's health. axe on each, dark once.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { type SeededProject, seedProject } from './seed-project.ts';
import { type DashboardEnv, expectAccessible, startDashboardEnv, watchedPage } from './support.ts';

describe('dashboard release health', () => {
  let env: DashboardEnv;
  let p: SeededProject;
  before(async () => {
    env = await startDashboardEnv();
    p = await seedProject(env, 'Health project');
    for (const version of ['1.0.0', '1.1.0']) {
      assert.equal((await p.manage('POST', `/projects/${p.projectId}/releases`, { version })).status, 201);
    }
    const key = await p.manage('POST', `/projects/${p.projectId}/keys`, {
      environment: 'live',
      scopes: ['errors:write'],
    });
    assert.equal(key.status, 201);
    const dsn = new URL(key.body.sentryDsn);
    const url = `${env.origin}/api${dsn.pathname}/envelope/?sentry_key=${dsn.username}`;
    const send = async (release: string, user: string, status: string) => {
      const session = { sid: randomUUID(), did: user, status, started: new Date().toISOString(), attrs: { release } };
      const body = ['{}', '{"type":"session"}', JSON.stringify(session)].join('\n');
      assert.equal((await fetch(url, { method: 'POST', body })).status, 200);
    };
    await send('app@1.0.0', 'ada', 'exited');
    await send('app@1.0.0', 'bob', 'exited');
    await send('app@1.1.0', 'ada', 'exited');
    await send('app@1.1.0', 'bob', 'crashed');
    for (const currentVersion of ['1.1.0', '1.1.0', '1.0.0']) {
      const query = new URLSearchParams({ projectId: p.projectId, currentVersion });
      assert.equal((await fetch(`${env.origin}/api/public/v1/version-check?${query}`)).status, 200);
    }
  });
  after(async () => env?.close());

  it('shows each release’s health, a release’s page with its adoption and comparison, and Home’s latest release', async () => {
    const { page, problems } = await watchedPage(env.browser);
    const shot = async (name: string) => {
      if (process.env['SHOTS']) await page.screenshot({ path: `${process.env['SHOTS']}/${name}.png`, fullPage: true });
    };
    await p.signIn(page.context());
    await page.goto(`${env.origin}/app/projects/${p.projectId}/releases`);
    const table = page.locator('section', { has: page.getByRole('heading', { name: /Health and adoption/ }) });
    const newer = table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: '1.1.0' }) });
    await newer.getByRole('cell', { name: '50.0 %' }).first().waitFor();
    await newer.getByText('−50.0 pp users').waitFor();
    await expectAccessible(page, 'releases with health');

    await newer.getByRole('link', { name: '1.1.0' }).click();
    await page.getByRole('heading', { level: 1, name: 'Release 1.1.0' }).waitFor();
    const figures = page.locator('.health-figures');
    await figures.getByText('Crash-free sessions').waitFor();
    assert.match((await figures.textContent()) ?? '', /Crash-free sessions\s*50\.0 %/);
    assert.match((await figures.textContent()) ?? '', /Version checks\s*2/);
    await page.getByText('Sessions on 1.1.0, by day: 2 sessions').waitFor();
    await page.getByText('Version checks from clients on 1.1.0, by day: 2 version checks').waitFor();
    const compare = page.locator('section', { has: page.getByRole('heading', { name: /previous release/ }) });
    await compare.getByRole('rowheader', { name: '1.0.0' }).waitFor();
    await expectAccessible(page, 'a release page');
    await shot('release-page');
    await page.getByRole('button', { name: 'Last 24 hours' }).click();
    await page.getByText('Sessions on 1.1.0, by hour: 2 sessions').waitFor();
    assert.match(page.url(), /days=1/);
    await page.emulateMedia({ colorScheme: 'dark' });
    await expectAccessible(page, 'a release page, dark');
    await page.emulateMedia({ colorScheme: 'light' });

    await page.goto(`${env.origin}/app/`);
    const latest = page.getByRole('region', { name: 'Health project: release 1.1.0' });
    await latest.getByText('Crash-free users').waitFor();
    assert.match((await latest.textContent()) ?? '', /Since 1\.0\.0/);
    await expectAccessible(page, 'home with the latest release');
    await shot('home-latest-release');
    assert.deepEqual(problems, []);
  });
});
