/**
 * Release health in Chromium against a real server: sessions for two releases arrive as Sentry
 * envelopes and clients call the version check; the releases screen lists each release's
 * crash-free rates, a release's page shows its figures, adoption charts and the comparison with
 * the previous release, and Home shows the latest release's health. axe on each, dark once. The
 * releases screen's drop settings form (release.health_dropped) reads, refuses and saves them.
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
  it('sets when a release’s health has dropped: the defaults, a refusal at its field, a save the API reads back', async () => {
    const { page, problems } = await watchedPage(env.browser);
    await p.signIn(page.context());
    await page.goto(`${env.origin}/app/projects/${p.projectId}/releases`);
    const section = page.locator('section', {
      has: page.getByRole('heading', { name: 'When a release’s health drops' }),
    });
    const threshold = section.getByRole('spinbutton', { name: 'Crash-free threshold (%)' });
    const points = section.getByRole('spinbutton', { name: 'Points under the previous release' });
    const minimum = section.getByRole('spinbutton', { name: 'Sessions before a release is judged' });
    await threshold.waitFor();
    assert.equal(await threshold.inputValue(), '99');
    assert.equal(await points.inputValue(), '5');
    assert.equal(await minimum.inputValue(), '10');
    await expectAccessible(page, 'releases with the drop settings');

    // Out of range: the server refuses, the form names the field and keeps what was typed.
    await threshold.fill('150');
    await section.getByRole('button', { name: 'Save drop settings' }).click();
    await section.getByRole('alert').first().waitFor();
    assert.equal(await threshold.getAttribute('aria-invalid'), 'true');
    assert.match(
      (await section.getByRole('alert').allTextContents()).join(' '),
      /crashFreeThreshold: must be 100 or less/,
    );
    assert.equal(await threshold.inputValue(), '150');
    await expectAccessible(page, 'the drop settings refused');
    const unchanged = await p.manage('GET', `/projects/${p.projectId}/release-health-settings`);
    assert.equal(unchanged.body.crashFreeThreshold, 99);

    // Empty: named here, nothing sent.
    await minimum.fill('');
    await section.getByRole('button', { name: 'Save drop settings' }).click();
    await section.getByText('Enter a number').waitFor();

    await threshold.fill('97.5');
    await points.fill('2');
    await minimum.fill('50');
    await section.getByRole('button', { name: 'Save drop settings' }).click();
    await section
      .getByText('Saved: below 97.5 % crash-free sessions, or 2 points under the previous release.')
      .waitFor();
    const saved = await p.manage('GET', `/projects/${p.projectId}/release-health-settings`);
    assert.deepEqual(saved.body, { crashFreeThreshold: 97.5, maxDropPoints: 2, minSessions: 50 });
    await page.reload();
    await threshold.waitFor();
    assert.equal(await threshold.inputValue(), '97.5');
    await expectAccessible(page, 'the drop settings saved');
    assert.deepEqual(problems, []);
  });
});
