/**
 * The site-configuration screen in Chromium against a real server: maintenance turned on with
 * custom HTML (its preview frame shows the HTML and runs none of its script), the public-answer
 * panel and GET /api/public/v1/site-config changing with it (lastUpdated, ETag, no more 304 for
 * the old ETag); messages with a schedule shown as Live, Upcoming or Expired, edited and deleted;
 * a flag created and toggled with the keyboard, its targeting (rollout, rule) evaluated over OFREP; an environment created and edited; debug mode.
 * Every change is checked through the public API. axe on every state, once in dark mode.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { type SeededProject, seedProject } from './seed-project.ts';
import { type DashboardEnv, expectAccessible, startDashboardEnv, watchedPage } from './support.ts';

describe('dashboard site configuration', () => {
  let env: DashboardEnv;
  let p: SeededProject;
  before(async () => {
    env = await startDashboardEnv();
    p = await seedProject(env, 'Site config project');
  });
  after(async () => env?.close());

  /** GET /api/public/v1/site-config with the live key, as an app calls it. */
  async function publicConfig(ifNoneMatch?: string) {
    const response = await fetch(`${env.origin}/api/public/v1/site-config?projectId=${p.projectId}`, {
      headers: { 'x-api-key': p.liveKey, ...(ifNoneMatch ? { 'if-none-match': ifNoneMatch } : {}) },
    });
    const text = await response.text();
    return {
      status: response.status,
      etag: response.headers.get('etag') ?? '',
      text,
      body: text ? JSON.parse(text) : null,
    };
  }

  const panelEtag = (page: Page) => page.getByTestId('etag').textContent();
  const panelLastUpdated = (page: Page) => page.getByTestId('last-updated').textContent();

  /** Waits until the panel shows an ETag other than `old`; returns the new one. */
  async function etagMovedFrom(page: Page, old: string): Promise<string> {
    await page.waitForFunction(
      (previous) => {
        const shown = document.querySelector('[data-testid="etag"]')?.textContent;
        return shown && shown !== previous;
      },
      old,
      { timeout: 10_000 },
    );
    return (await panelEtag(page)) ?? '';
  }

  const pad = (n: number) => String(n).padStart(2, '0');
  /** A datetime-local value, in this machine's (and the browser's) time zone. */
  const local = (time: number) => {
    const d = new Date(time);
    return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
  };

  async function open(page: Page) {
    await p.signIn(page.context());
    await page.goto(`${env.origin}/app/projects/${p.projectId}/site-config`);
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Site configuration');
    await page.getByTestId('etag').waitFor();
  }

  it('turns on maintenance with custom HTML; the panel and the public endpoint change with it', async (t) => {
    const { page, problems } = await watchedPage(env.browser);
    t.after(async () => {
      if (process.env['SHOTS'])
        await page.screenshot({ path: `${process.env['SHOTS']}/site-config-maintenance.png`, fullPage: true });
    });
    await open(page);
    const before = await publicConfig();
    assert.equal(before.status, 200);
    assert.equal(before.body.maintenance.enabled, false);
    // The panel shows exactly the public answer.
    assert.equal(await panelEtag(page), before.etag);
    assert.equal(await panelLastUpdated(page), before.body.lastUpdated);
    assert.deepEqual(JSON.parse((await page.getByLabel('Response body').textContent()) ?? ''), before.body);
    assert.equal((await publicConfig(before.etag)).status, 304);
    await expectAccessible(page, 'site config: maintenance off');

    await page.getByLabel('Maintenance on').check();
    await page.getByLabel('Type').selectOption('custom');
    await page
      .getByLabel('Custom HTML')
      .fill('<h1>Back soon</h1><p>We are upgrading.</p><script>document.body.dataset.ran = "yes";</script>');
    const frame = page.frameLocator('iframe[title="Preview of the custom maintenance page"]');
    await frame.getByRole('heading', { name: 'Back soon' }).waitFor();
    assert.equal(await page.locator('iframe.html-preview').getAttribute('sandbox'), '');
    const ran = await frame.locator('body').evaluate((body) => (body as HTMLElement).dataset['ran'] ?? 'no');
    assert.equal(ran, 'no', 'the script in the preview did not run');
    await page.getByLabel('Expected restoration').fill('2030-01-02T03:04');
    await page.getByLabel('Status page URL').fill('https://status.example.com');
    await page.getByLabel('Show the status link').check();
    // A bad IP: refused in place, nothing typed is lost, nothing changed.
    await page.getByLabel('IP addresses').fill('10.0.0.0/8\n999.1.1.1');
    await page.getByLabel('E-mail addresses').fill('ops@example.com');
    await page.getByRole('button', { name: 'Save maintenance' }).click();
    await page.getByRole('alert').filter({ hasText: /ips/ }).first().waitFor();
    assert.match(await page.getByLabel('Custom HTML').inputValue(), /Back soon/);
    assert.equal((await publicConfig()).etag, before.etag, 'a refused save changes nothing');
    await expectAccessible(page, 'site config: maintenance refused');

    await page.getByLabel('IP addresses').fill('10.0.0.0/8\n2001:db8::1');
    await page.getByRole('button', { name: 'Save maintenance' }).click();
    await page.getByText('Maintenance saved.').waitFor();
    const etag = await etagMovedFrom(page, before.etag);
    await page.getByText('Maintenance is on (custom)').waitFor();
    const after = await publicConfig();
    assert.equal(after.etag, etag, 'the panel shows the public ETag');
    assert.equal(await panelLastUpdated(page), after.body.lastUpdated);
    assert.ok(after.body.lastUpdated > before.body.lastUpdated, 'lastUpdated moved');
    assert.deepEqual(after.body.maintenance, {
      enabled: true,
      type: 'custom',
      customHtml: '<h1>Back soon</h1><p>We are upgrading.</p><script>document.body.dataset.ran = "yes";</script>',
      expectedRestoration: new Date(2030, 0, 2, 3, 4).toISOString(),
      showStatusLink: true,
      statusPageUrl: 'https://status.example.com',
      whitelist: { localStorageKeys: [], emails: ['ops@example.com'], ips: ['10.0.0.0/8', '2001:db8::1'] },
    });
    assert.deepEqual(JSON.parse((await page.getByLabel('Response body').textContent()) ?? ''), after.body);
    assert.equal((await publicConfig(before.etag)).status, 200, 'the old ETag gives no 304 any more');
    assert.equal((await publicConfig(after.etag)).status, 304);
    await page.getByText('Previous ETag', { exact: true }).waitFor();
    await expectAccessible(page, 'site config: maintenance on');
    assert.deepEqual(problems, []);
  });

  it('adds messages with a schedule and shows them as Live, Upcoming or Expired; edits and deletes', async (t) => {
    const { page, problems } = await watchedPage(env.browser);
    t.after(async () => {
      if (process.env['SHOTS'])
        await page.screenshot({ path: `${process.env['SHOTS']}/site-config-messages.png`, fullPage: true });
      if (process.env['SHOTS']) {
        await page.setViewportSize({ width: 800, height: 1000 });
        await page.screenshot({ path: `${process.env['SHOTS']}/site-config-messages-tablet.png`, fullPage: true });
      }
    });
    await open(page);
    await page.getByRole('tab', { name: 'Messages' }).click();
    await page.getByText('No messages yet.').waitFor();
    await expectAccessible(page, 'site config: no messages');

    const hour = 3_600_000;
    const add = async (text: string, type: string, starts: number | null, ends: number | null) => {
      const etag = (await panelEtag(page)) ?? '';
      await page.getByLabel('Type').selectOption(type);
      await page.getByLabel('Text').fill(text);
      await page.getByLabel('Starts').fill(starts === null ? '' : local(starts));
      await page.getByLabel('Ends').fill(ends === null ? '' : local(ends));
      await page.getByRole('button', { name: 'Add message' }).click();
      await page.getByRole('row', { name: new RegExp(text) }).waitFor();
      await etagMovedFrom(page, etag);
    };
    const now = Date.now();
    await add('Scheduled downtime tonight', 'warning', now - hour, now + hour);
    await add('New release next week', 'info', now + 24 * hour, null);
    await add('Old outage', 'error', now - 3 * hour, now - 2 * hour);
    const state = (text: string) =>
      page
        .getByRole('row', { name: new RegExp(text) })
        .getByRole('cell')
        .first();
    assert.equal(await state('Scheduled downtime tonight').textContent(), 'Live');
    assert.equal(await state('New release next week').textContent(), 'Upcoming');
    assert.equal(await state('Old outage').textContent(), 'Expired');
    const served = await publicConfig();
    assert.deepEqual(
      served.body.messages.map((m: any) => m.text),
      ['Scheduled downtime tonight'],
    );
    assert.deepEqual(JSON.parse((await page.getByLabel('Response body').textContent()) ?? ''), served.body);
    await expectAccessible(page, 'site config: messages');

    // Edit: the upcoming one starts now and gets a higher priority.
    await page.getByRole('button', { name: 'Edit “New release next week”' }).click();
    const form = page.getByRole('form', { name: 'Edit message' });
    await form.getByLabel('Starts').fill(local(now - 60_000));
    await form.getByLabel('Priority').fill('5');
    await form.getByLabel('Text').fill('New release is out');
    await expectAccessible(page, 'site config: editing a message');
    await form.getByRole('button', { name: 'Save message' }).click();
    await page.getByRole('row', { name: /New release is out/ }).waitFor();
    assert.equal(await state('New release is out').textContent(), 'Live');
    await page.waitForFunction(() =>
      document.querySelector('.public-json')?.textContent?.includes('New release is out'),
    );
    assert.deepEqual(
      (await publicConfig()).body.messages.map((m: any) => m.text),
      ['New release is out', 'Scheduled downtime tonight'],
    );

    // Delete, after a confirmation.
    await page
      .getByRole('row', { name: /Old outage/ })
      .getByRole('button', { name: 'Delete' })
      .click();
    const dialog = page.getByRole('alertdialog');
    await dialog.waitFor();
    await expectAccessible(page, 'site config: delete message dialog');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('row', { name: /Old outage/ }).waitFor({ state: 'detached' });
    assert.deepEqual(problems, []);
  });

  it('creates a flag and toggles it with the keyboard; the public answer follows', async () => {
    const { page, problems } = await watchedPage(env.browser);
    await open(page);
    await page.getByRole('tab', { name: 'Maintenance' }).focus();
    // Arrow keys move between tabs (React Aria's tabs).
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    assert.equal(await page.getByRole('tab', { name: 'Feature flags' }).getAttribute('aria-selected'), 'true');
    await page.getByText('No feature flags yet.').waitFor();
    await expectAccessible(page, 'site config: no flags');

    let etag = (await panelEtag(page)) ?? '';
    await page.getByLabel('Key').fill('new checkout');
    await page.getByRole('button', { name: 'Add flag' }).click();
    await page.getByText('Letters, digits and . _ : - only, up to 100').waitFor();
    await page.getByLabel('Key').fill('new-checkout');
    await page.getByRole('button', { name: 'Add flag' }).click();
    const toggle = page.getByRole('checkbox', { name: 'new-checkout' });
    await toggle.waitFor();
    etag = await etagMovedFrom(page, etag);
    assert.deepEqual(
      (await publicConfig()).body.featureFlags.map((f: any) => [f.key, f.enabled]),
      [['new-checkout', false]],
    );

    await toggle.focus();
    await page.keyboard.press('Space');
    assert.equal(await toggle.isChecked(), true);
    etag = await etagMovedFrom(page, etag);
    const served = await publicConfig();
    assert.equal(served.etag, etag);
    assert.deepEqual(
      served.body.featureFlags.map((f: any) => [f.key, f.enabled]),
      [['new-checkout', true]],
    );
    await expectAccessible(page, 'site config: flags');

    // Targeting (OpenFeature): a value for test keys, a rollout and a rule, evaluated over OFREP.
    await page.getByText('Targeting: Boolean (on/off) · everyone · 0 rules').click();
    await page.getByLabel('Value for test keys').fill('false');
    await page.getByLabel('Rollout percentage').fill('101');
    await page.getByRole('button', { name: 'Save targeting of new-checkout' }).click();
    await page.getByText('Rollout: a whole percentage from 0 to 100, or empty for everyone').waitFor();
    await page.getByLabel('Rollout percentage').fill('30');
    const rule = page.getByRole('group', { name: /Rule 1/ });
    await rule.getByLabel('Context attribute').fill('email');
    await rule.getByLabel('Compared with').fill('@example.com');
    await page.getByRole('button', { name: 'Save targeting of new-checkout' }).click();
    await page.getByText('Targeting: Boolean (on/off) · 30 % rollout · 1 rule').waitFor();
    etag = await etagMovedFrom(page, etag);
    await expectAccessible(page, 'site config: flag targeting');
    const evaluate = async (key: string, context: Record<string, unknown>) =>
      (
        await fetch(`${env.origin}/ofrep/v1/evaluate/flags/new-checkout`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
          body: JSON.stringify({ context }),
        })
      ).json();
    const flagsKey = await p.manage('POST', `/projects/${p.projectId}/keys`, {
      name: 'OpenFeature',
      environment: 'live',
      scopes: ['public:read'],
    });
    const ofrepKey = (flagsKey.body.key ?? flagsKey.body.secret) as string;
    const matched = await evaluate(ofrepKey, { targetingKey: 'u1', email: 'ana@example.com' });
    assert.deepEqual([matched.value, matched.reason], [true, 'TARGETING_MATCH']);
    const split = await evaluate(ofrepKey, { targetingKey: 'u1' });
    assert.equal(split.reason, 'SPLIT');
    assert.deepEqual((await evaluate(ofrepKey, {})).value, false);
    // The public site-config keeps its shape.
    assert.deepEqual(Object.keys((await publicConfig()).body.featureFlags[0]).sort(), [
      'enabled',
      'id',
      'key',
      'projectId',
    ]);

    // The flag's history (issue 33): every change, newest first, by this signed-in member.
    await page.getByText('History of new-checkout').click();
    const history = page.getByRole('table', { name: 'Changes of new-checkout, newest first' });
    await history.waitFor();
    const rows = history.getByRole('row');
    await page.waitForFunction(() => document.querySelectorAll('.flag-history-table tbody tr').length === 3);
    const cells = await rows.evaluateAll((all) =>
      all.slice(1).map((row) =>
        Array.from(row.querySelectorAll('td'))
          .slice(1, 4)
          .map((cell) => cell.textContent),
      ),
    );
    const [targeting, turnedOn, created] = cells;
    assert.match(targeting![0]!, /\(dashboard\)/);
    assert.match(targeting![2]!, /environmentValues changed; rolloutPercentage changed; rules changed/);
    assert.equal(turnedOn![2], 'Turned off → on');
    assert.equal(created![2], 'Created, off');
    await expectAccessible(page, 'site config: flag history');
    await page.emulateMedia({ colorScheme: 'dark' });
    await expectAccessible(page, 'site config: flag history (dark)');
    await page.emulateMedia({ colorScheme: 'light' });

    await page.getByRole('button', { name: 'Delete new-checkout' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete new-checkout' }).click();
    await page.getByText('No feature flags yet.').waitFor();
    await etagMovedFrom(page, etag);
    assert.deepEqual((await publicConfig()).body.featureFlags, []);
    assert.deepEqual(problems, []);
  });

  it('creates and edits an environment, and turns debug mode on (dark mode)', async (t) => {
    const { page, problems } = await watchedPage(env.browser);
    t.after(async () => {
      if (process.env['SHOTS'])
        await page.screenshot({ path: `${process.env['SHOTS']}/site-config-dark.png`, fullPage: true });
    });
    await page.emulateMedia({ colorScheme: 'dark' });
    await open(page);
    await page.getByRole('tab', { name: 'Environments' }).click();
    await page.getByText('No environments yet.').waitFor();
    let etag = (await panelEtag(page)) ?? '';
    await page.getByLabel('Name').fill('Staging');
    await page.getByLabel('Slug').fill('Staging!');
    await page.getByLabel('URL').fill('https://staging.example.com');
    await page.getByLabel('Colour').fill('#d97706');
    await page.getByRole('button', { name: 'Add environment' }).click();
    await page.getByRole('alert').first().waitFor();
    assert.equal(await page.getByLabel('URL').inputValue(), 'https://staging.example.com');
    await expectAccessible(page, 'site config: environment refused (dark)');
    await page.getByLabel('Slug').fill('staging');
    await page.getByLabel('Debug on in this environment').check();
    await page.getByRole('button', { name: 'Add environment' }).click();
    await page.getByRole('row', { name: /Staging/ }).waitFor();
    etag = await etagMovedFrom(page, etag);
    assert.deepEqual(
      (await publicConfig()).body.environments.map((e: any) => [e.name, e.slug, e.url, e.color, e.debugEnabled]),
      [['Staging', 'staging', 'https://staging.example.com', '#d97706', true]],
    );
    await expectAccessible(page, 'site config: environments (dark)');

    await page.getByRole('button', { name: 'Edit Staging' }).click();
    const form = page.getByRole('form', { name: 'Edit Staging' });
    await form.getByLabel('Colour').fill('#16a34a');
    await form.getByRole('button', { name: 'Save environment' }).click();
    await page.getByRole('row', { name: /#16a34a/ }).waitFor();
    etag = await etagMovedFrom(page, etag);
    assert.equal((await publicConfig()).body.environments[0].color, '#16a34a');

    await page.getByRole('tab', { name: 'Debug mode' }).click();
    const debug = page.getByRole('checkbox', { name: 'Debug mode on' });
    await debug.check();
    etag = await etagMovedFrom(page, etag);
    const served = await publicConfig();
    assert.equal(served.body.debugMode, true);
    assert.equal(served.etag, etag);
    await expectAccessible(page, 'site config: debug mode (dark)');
    assert.deepEqual(problems, []);
  });
  it('shows members the configuration read-only', async () => {
    const member = await p.addMember();
    const { page, problems } = await watchedPage(env.browser);
    await member.signIn(page.context());
    await page.goto(`${env.origin}/app/projects/${p.projectId}/site-config`);
    await page.getByTestId('etag').waitFor();
    await page.getByText('admins and owners change these', { exact: false }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Save maintenance' }).count(), 0);
    await page.getByText('Allowed IPs').waitFor();
    await page.frameLocator('iframe.html-preview').getByRole('heading', { name: 'Back soon' }).waitFor();
    await expectAccessible(page, 'site config: member, maintenance');
    await page.getByRole('tab', { name: 'Messages' }).click();
    await page.getByRole('row', { name: /Scheduled downtime tonight/ }).waitFor();
    assert.equal(await page.getByRole('button', { name: /Edit|Delete/ }).count(), 0);
    assert.equal(await page.getByRole('button', { name: 'Add message' }).count(), 0);
    await page.getByRole('tab', { name: 'Debug mode' }).click();
    await page.getByText('Debug mode is').waitFor();
    assert.equal(await page.getByRole('checkbox').count(), 0);
    await expectAccessible(page, 'site config: member, debug mode');
    assert.deepEqual(problems, []);
  });
});
