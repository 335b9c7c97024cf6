/**
 * The error alerts screen in Chromium against a real server and mailbox: an admin adds a
 * new-group rule e-mailing themself, a new error group arrives through the public API, the alert
 * e-mail comes, Home lists the group under "Needs attention", a user's feedback on its event
 * shows on the group's page, the rule is edited, muted for 24 hours and until unmuted, unmuted, and
 * deleted. axe on every state.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type SeededProject, seedProject } from './seed-project.ts';
import { type DashboardEnv, expectAccessible, startDashboardEnv, watchedPage } from './support.ts';

describe('dashboard error alerts', () => {
  let env: DashboardEnv;
  let p: SeededProject;

  before(async () => {
    env = await startDashboardEnv({ ERROR_ALERT_POLL_MS: '50' });
    p = await seedProject(env, 'Alerts project');
  });
  after(async () => {
    await env?.close();
  });

  it('adds a rule, sends its e-mail for a new group, lists the group on Home, deletes the rule', async () => {
    const { page, problems } = await watchedPage(env.browser);
    await p.signIn(page.context());
    await page.goto(`${env.origin}/app/projects/${p.projectId}/settings`);
    await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Error alerts' }).click();
    await page.getByRole('heading', { level: 1, name: 'Error alerts' }).waitFor();
    await page.getByText('No alert rules yet.').waitFor();
    await expectAccessible(page, 'error alerts, none yet');

    const form = page.locator('form', { has: page.getByRole('heading', { name: 'Add an alert rule' }) });
    await form.getByLabel('Name').fill('Every new error');
    const me = form.getByRole('group', { name: 'E-mail these members' }).getByRole('checkbox').first();
    await me.check();
    await form.getByRole('button', { name: 'Add rule' }).click();
    const row = page.getByRole('row', { name: /Every new error/ });
    await row.waitFor();
    await expectAccessible(page, 'error alerts, one rule');

    const key = await p.manage('POST', `/projects/${p.projectId}/keys`, {
      name: 'Errors key',
      environment: 'live',
      scopes: ['errors:write'],
    });
    assert.equal(key.status, 201, JSON.stringify(key.body));
    const error = await fetch(`${env.origin}/api/public/v1/errors`, {
      method: 'POST',
      headers: { 'x-api-key': (key.body.key ?? key.body.secret) as string, 'content-type': 'application/json' },
      body: JSON.stringify({
        title: 'AlertScreenError: the basket vanished',
        message: 'the basket vanished during checkout',
        errorType: 'AlertScreenError',
        severity: 'high',
      }),
    });
    assert.equal(error.status, 201, await error.text());
    const mail = await env.mailbox.waitFor(
      (m) => m.subject.startsWith('New error') && m.subject.includes('AlertScreenError'),
    );
    assert.match(mail.text, /Every new error/);

    await page.goto(`${env.origin}/app`);
    const attention = page.locator('section', { has: page.getByRole('heading', { name: 'New and regressed errors' }) });
    await attention.getByRole('link', { name: /AlertScreenError/ }).waitFor();
    await expectAccessible(page, 'home with a new error group');

    // User feedback on the group's event (a legacy user_report item through the Sentry DSN) shows
    // on the group's page.
    const groups = await p.manage('GET', `/projects/${p.projectId}/error-groups?q=AlertScreenError`);
    const groupId = groups.body.groups[0].id as string;
    const events = await p.manage('GET', `/projects/${p.projectId}/error-groups/${groupId}/events`);
    const dsn = new URL(key.body.sentryDsn as string);
    const report = {
      event_id: events.body.events[0].eventId,
      name: 'Grace',
      email: 'grace@example.com',
      comments: 'My basket is empty again',
    };
    const sent = await fetch(`${dsn.protocol}//${dsn.host}/api${dsn.pathname}/envelope/?sentry_key=${dsn.username}`, {
      method: 'POST',
      body: `{}\n{"type":"user_report"}\n${JSON.stringify(report)}\n`,
    });
    assert.equal(sent.status, 200, await sent.text());
    await page.goto(`${env.origin}/app/projects/${p.projectId}/errors/groups/${groupId}`);
    const feedback = page.locator('section', { has: page.getByRole('heading', { name: 'User feedback' }) });
    await feedback.getByText('My basket is empty again').waitFor();
    await feedback.getByText(/Grace <grace@example\.com>/).waitFor();
    await expectAccessible(page, 'error group with user feedback');

    // Edit the rule (the same form, filled in), then mute and unmute it.
    await page.goto(`${env.origin}/app/projects/${p.projectId}/alerts`);
    await row.getByRole('button', { name: /^Edit/ }).click();
    const edit = page.locator('form', { has: page.getByRole('heading', { name: 'Edit the rule Every new error' }) });
    assert.equal(await edit.getByLabel('Name').inputValue(), 'Every new error');
    assert.equal(
      await edit.getByRole('group', { name: 'E-mail these members' }).getByRole('checkbox').first().isChecked(),
      true,
    );
    await expectAccessible(page, 'error alerts, editing a rule');
    await edit.getByLabel('Name').fill('Every new error in production');
    await edit.getByLabel('SDK environment').fill('production');
    await edit.getByLabel('Quiet period (minutes)').fill('30');
    await edit.getByRole('button', { name: 'Save rule' }).click();
    await row.getByRole('cell', { name: 'Every new error in production', exact: true }).waitFor();
    await row.getByText(/production · /).waitFor();
    await page.getByRole('heading', { name: 'Add an alert rule' }).waitFor();
    const rules = async () => (await p.manage('GET', `/projects/${p.projectId}/error-alerts`)).body.rules;
    let [saved] = await rules();
    assert.deepEqual(
      [saved.name, saved.sdkEnvironment, saved.quietMinutes, saved.recipients.length, saved.enabled],
      ['Every new error in production', 'production', 30, 1, true],
    );
    const muteFor = row.getByRole('combobox', { name: 'Mute Every new error in production' });
    const mutedCell = row.getByRole('cell').nth(5);
    assert.equal(await mutedCell.textContent(), 'No', 'not muted');
    // Muted for 24 hours: the rule stays on, with its mutedUntil a day ahead, shown in the list.
    const from = Date.now();
    await muteFor.selectOption({ label: 'For 24 hours' });
    await row.getByRole('cell', { name: 'Every new error in production (muted)', exact: true }).waitFor();
    await row.getByRole('cell', { name: /^Until .*\d/ }).waitFor();
    await expectAccessible(page, 'error alerts, a rule muted for 24 hours');
    [saved] = await rules();
    assert.equal(saved.enabled, true);
    const until = Date.parse(saved.mutedUntil);
    assert.ok(until >= from + 86_400_000 && until <= Date.now() + 86_400_000, saved.mutedUntil);
    assert.equal(saved.name, 'Every new error in production', 'muting keeps the rule');
    await row.getByRole('button', { name: /^Unmute/ }).click();
    await muteFor.waitFor();
    [saved] = await rules();
    assert.deepEqual([saved.enabled, saved.mutedUntil], [true, null]);
    // Until unmuted.
    await muteFor.selectOption({ label: 'Until unmuted' });
    await row.getByRole('cell', { name: 'Until unmuted', exact: true }).waitFor();
    await expectAccessible(page, 'error alerts, a muted rule');
    [saved] = await rules();
    assert.deepEqual([saved.enabled, saved.mutedUntil], [false, null]);
    await row.getByRole('button', { name: /^Unmute/ }).click();
    await muteFor.waitFor();
    [saved] = await rules();
    assert.equal(saved.enabled, true);

    await row.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByText('No alert rules yet.').waitFor();
    assert.deepEqual(problems, []);
  });
});
