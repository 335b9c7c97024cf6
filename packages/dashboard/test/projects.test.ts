/**
 * Projects, settings, the public board, API keys and home in Chromium against a real server:
 * sign up and verify, a team seeded through the API, a project created through the UI, renamed
 * and its board turned on (404 before, 200 after), a publishable test key created, copied once
 * and used against the public API, then revoked (401); home lists the new bug for triage.
 * axe-core on every screen (light, and dark once); no horizontal scrolling at tablet width.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { type DashboardEnv, expectAccessible, startDashboardEnv, watchedPage } from './support.ts';

const PASSWORD = 'quiet harbour lantern 42';

describe('dashboard projects, settings, keys and home', () => {
  let env: DashboardEnv;
  before(async () => {
    env = await startDashboardEnv();
  });
  after(async () => env?.close());

  /** Management API call with the page's session cookie (seeding only; the flows go through the UI). */
  async function manage(page: Page, method: 'GET' | 'POST', path: string, data?: unknown) {
    const response = await page.request.fetch(`${env.origin}/api/v1${path}`, {
      method,
      headers: { 'X-Requested-With': 'test' },
      ...(data === undefined ? {} : { data }),
    });
    return { status: response.status(), body: await response.json().catch(() => null) };
  }

  async function signUpAndVerify(page: Page, name: string): Promise<string> {
    const email = `${name.toLowerCase().replace(/\W+/g, '-')}-${Date.now()}@example.com`;
    await page.goto(`${env.origin}/app/sign-up`);
    await page.getByLabel('Name').fill(name);
    await page.getByLabel('E-mail address').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(/\/app\/account$/);
    const mail = await env.mailbox.nextTo(email, 0);
    await page.goto(mail.links.find((href) => href.includes('/app/verify-email?token='))!);
    await page.getByText(`${email} is verified.`).waitFor();
    return email;
  }

  it('creates a project, turns its board on, makes a publishable test key, uses and revokes it', async () => {
    const { page, problems } = await watchedPage(env.browser);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.origin });
    await signUpAndVerify(page, 'Robin Maker');
    const team = await manage(page, 'POST', '/teams', { name: 'Robin Labs' });
    assert.equal(team.status, 201, JSON.stringify(team.body));
    const teamId = team.body.id as string;

    // Projects: the list, then the form; the slug follows the name until edited.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Projects' }).click();
    await page.getByRole('heading', { level: 1, name: 'Projects' }).waitFor();
    await page.getByRole('button', { name: 'New project' }).waitFor();
    await expectAccessible(page, 'projects');
    await page.getByRole('button', { name: 'New project' }).click();
    await page.getByLabel('Team', { exact: true }).selectOption(teamId);
    await page.getByLabel('Name', { exact: true }).fill('Harbour App');
    assert.equal(await page.getByLabel('Slug').inputValue(), 'harbour-app');
    const slug = `harbour-${Date.now()}`;
    await page.getByLabel('Slug').fill(slug);
    await page.getByLabel('Supported locales').fill('en, de');
    await page.getByLabel('Monthly quota').fill('many');
    await page.getByRole('button', { name: 'Create project' }).click();
    // A bad quota: said in place, nothing typed lost.
    await page.getByText('Enter a whole number of requests').waitFor();
    assert.equal(await page.getByLabel('Slug').inputValue(), slug);
    assert.equal(await page.getByLabel('Name', { exact: true }).inputValue(), 'Harbour App');
    await expectAccessible(page, 'new project with an error');
    await page.getByLabel('Monthly quota').fill('');
    await page.getByLabel('Plan').fill('team');
    await page.getByRole('button', { name: 'Create project' }).click();
    await page.waitForURL(/\/app\/projects\/[^/]+\/inbox$/);
    const projectId = page.url().split('/projects/')[1]!.split('/')[0]!;
    const created = await manage(page, 'GET', `/projects/${projectId}`);
    assert.equal(created.body.slug, slug);
    assert.deepEqual(created.body.supportedLocales, ['en', 'de']);
    assert.equal(created.body.teamId, teamId);
    assert.equal(created.body.plan, 'team');

    await page.goto(`${env.origin}/app/projects`);
    await page.getByRole('heading', { name: /Robin Labs/ }).waitFor();
    await page.getByRole('link', { name: 'Harbour App' }).waitFor();
    assert.match((await page.getByRole('link', { name: 'Harbour App' }).getAttribute('href')) ?? '', /\/inbox$/);

    // The board is off for a new project.
    assert.equal((await fetch(`${env.origin}/b/${slug}`)).status, 404);

    // Settings: rename, then turn the board on.
    await page.goto(`${env.origin}/app/projects/${projectId}/settings`);
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    await page.getByLabel('Board on').waitFor();
    await expectAccessible(page, 'project settings');
    await page.getByLabel('Name', { exact: true }).fill('Harbour');
    await page.getByLabel('Default locale').fill('fr');
    await page.getByRole('button', { name: 'Save project' }).click();
    // fr is not a supported locale: refused in place, the typed name kept.
    await page
      .getByRole('alert')
      .filter({ hasText: /supportedLocales|default/i })
      .first()
      .waitFor();
    assert.equal(await page.getByLabel('Name', { exact: true }).inputValue(), 'Harbour');
    await expectAccessible(page, 'project settings with an error');
    await page.getByLabel('Default locale').fill('en');
    await page.getByRole('button', { name: 'Save project' }).click();
    await page.getByText('Project saved.').waitFor();
    // The frame shows the new name.
    await page.locator('.project-name', { hasText: /^Harbour$/ }).waitFor();

    await page.getByLabel('Board on').check();
    await page.getByLabel('Accent colour').fill('blue');
    await page.getByRole('button', { name: 'Save board settings' }).click();
    await page.getByRole('alert').first().waitFor();
    assert.equal(await page.getByLabel('Accent colour').getAttribute('aria-invalid'), 'true');
    assert.ok(await page.getByLabel('Board on').isChecked(), 'the checkbox keeps its state after a refusal');
    await page.getByLabel('Accent colour').fill('#2450b8');
    await page.getByLabel('Title').fill('Harbour ideas');
    await page.getByRole('button', { name: 'Save board settings' }).click();
    await page.getByText('Board settings saved.').waitFor();
    const boardLink = page.getByRole('link', { name: `${env.origin}/b/${slug}` });
    await boardLink.waitFor();
    const board = await fetch(`${env.origin}/b/${slug}`);
    assert.equal(board.status, 200);
    assert.match(await board.text(), /Harbour ideas/);
    await expectAccessible(page, 'project settings, board on');

    // The single sign-on secret, shown once.
    await page.getByRole('button', { name: 'Make a secret' }).click();
    const ssoSecret = page.getByLabel('Single sign-on secret');
    await ssoSecret.waitFor();
    assert.ok((await ssoSecret.inputValue()).length >= 16);
    await page.getByText(/A secret is set \(ending/).waitFor();
    await page.emulateMedia({ colorScheme: 'dark' });
    await expectAccessible(page, 'project settings, dark');
    await page.emulateMedia({ colorScheme: 'light' });

    // API keys: a publishable test key, shown once, copied.
    await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
    await page.getByText('No keys yet.').waitFor();
    await expectAccessible(page, 'keys, none yet');
    await page.getByLabel('Key name').fill('Website widget');
    await page.getByLabel('Environment').selectOption('test');
    // No scope at all is refused in words before anything is sent.
    const defaults = ['public:read', 'features:read', 'features:write', 'bugs:write'];
    for (const scope of defaults) await page.getByLabel(scope, { exact: true }).uncheck();
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByText('Choose at least one scope').waitFor();
    for (const scope of ['features:read', 'features:write']) await page.getByLabel(scope, { exact: true }).check();
    for (const scope of ['public:read', 'bugs:write'])
      assert.equal(await page.getByLabel(scope, { exact: true }).isChecked(), false);
    await page.getByLabel('Publishable').check();
    await page.getByRole('button', { name: 'Create key' }).click();
    const shown = page.getByLabel('The new API key');
    await shown.waitFor();
    const key = await shown.inputValue();
    assert.match(key, /^svc_test_/);
    await page.getByRole('button', { name: 'Copy' }).click();
    await page.getByText('Copied to the clipboard.').waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), key);
    // A ready Sentry DSN with the whole key, shown with it; the list shows it with <key>.
    assert.match((await page.locator('#new-key-dsn').textContent()) ?? '', new RegExp(`^http://${key}@[^/]+/\\d+$`));
    assert.match((await page.locator('#sentry-dsn').textContent()) ?? '', /^http:\/\/<key>@[^/]+\/\d+$/);
    const row = page.getByRole('row', { name: /Website widget/ });
    await row.waitFor();
    assert.match((await row.textContent()) ?? '', /publishable/);
    assert.match((await row.textContent()) ?? '', /features:read, features:write/);
    assert.doesNotMatch((await row.textContent()) ?? '', new RegExp(key.slice(-12)));
    await expectAccessible(page, 'keys, key shown once');
    await page.getByRole('button', { name: 'Done' }).click();
    assert.equal(await page.getByLabel('The new API key').count(), 0);

    // The key works on the public API: submit a bug (new, waiting for triage) and read features.
    const publicApi = (path: string, init: RequestInit = {}) =>
      fetch(`${env.origin}/api/public/v1${path}`, {
        ...init,
        headers: { 'X-API-Key': key, 'Content-Type': 'application/json', ...init.headers },
      });
    const submitted = await publicApi('/features', {
      method: 'POST',
      body: JSON.stringify({
        title: 'Photos fail to upload',
        description: 'Uploading a photo from the gallery fails every time.',
        type: 'bug',
      }),
    });
    assert.equal(submitted.status, 201, await submitted.clone().text());
    const bug = (await submitted.json()) as { id: string };
    assert.equal((await publicApi('/features')).status, 200);
    // A feature (submitted open) with votes: among the most-voted open ideas.
    const wanted = (await (
      await publicApi('/features', {
        method: 'POST',
        body: JSON.stringify({ title: 'Offline mode', description: 'Let me use the app on a plane.', type: 'feature' }),
      })
    ).json()) as { id: string };
    for (const voter of ['ann', 'bo', 'cy'])
      assert.equal(
        (await publicApi(`/features/${wanted.id}/votes/${voter}`, { method: 'PUT', body: '{}' })).status,
        200,
      );

    // Home: the new bug waits for triage and links to its page in the inbox.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' }).click();
    await page.getByRole('heading', { name: 'Waiting for triage' }).waitFor();
    const triage = page.getByRole('region', { name: 'Waiting for triage' });
    const link = triage.getByRole('link', { name: 'Photos fail to upload' });
    await link.waitFor();
    assert.equal(await link.getAttribute('href'), `/app/projects/${projectId}/inbox/${bug.id}`);
    assert.match((await triage.textContent()) ?? '', /Harbour \(test\)/);
    const voted = page.getByRole('region', { name: 'Most-voted open ideas' });
    const offline = voted.getByRole('listitem').filter({ hasText: 'Offline mode' });
    assert.match((await offline.textContent()) ?? '', /3 votes · Open/);
    assert.equal(await offline.getByRole('link').getAttribute('href'), `/app/projects/${projectId}/inbox/${wanted.id}`);
    await page.getByRole('link', { name: 'Management API reference' }).waitFor();
    await expectAccessible(page, 'home with ideas to triage');

    // Revoke, confirmed in a dialog; the public API refuses the key.
    await page.goto(`${env.origin}/app/projects/${projectId}/keys`);
    await page.getByRole('button', { name: 'Revoke Website widget' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Revoke this key?' });
    await dialog.waitFor();
    await expectAccessible(page, 'keys, revoke dialog');
    await dialog.getByRole('button', { name: 'Revoke key' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page
      .getByRole('row', { name: /Website widget/ })
      .getByText(/Revoked/)
      .waitFor();
    const refused = await publicApi('/features');
    assert.equal(refused.status, 401);

    assert.deepEqual(problems, []);
  });

  it('shows members read-only settings and no keys, and an empty home', async () => {
    const { page, problems } = await watchedPage(env.browser);
    await signUpAndVerify(page, 'Sam Member');
    // Home with nothing to do: a fresh account's team has no projects, and the ideas of the first
    // test's account (another team) never show here.
    await page.goto(`${env.origin}/app/`);
    await page.getByText('Nothing needs your attention right now.').waitFor();
    await expectAccessible(page, 'home, nothing to do');

    // A project of another account's team, where Sam is only a member (seeded through the API).
    const { page: ownerPage } = await watchedPage(env.browser);
    await signUpAndVerify(ownerPage, 'Olive Owner');
    const teams = await manage(ownerPage, 'GET', '/teams');
    const teamId = teams.body.teams[0].id as string;
    const project = await manage(ownerPage, 'POST', '/projects', { teamId, name: 'Shared project' });
    assert.equal(project.status, 201, JSON.stringify(project.body));
    const me = await manage(page, 'GET', '/me');
    const invite = await manage(ownerPage, 'POST', `/teams/${teamId}/invites`, { email: me.body.account.email });
    assert.equal(invite.status, 201, JSON.stringify(invite.body));
    const mail = await env.mailbox.nextTo(me.body.account.email, 1);
    const token = mail.links
      .find((href) => href.includes('/invites/'))!
      .split('/invites/')[1]!
      .split(/[?#]/)[0]!;
    const accepted = await manage(page, 'POST', `/invites/${token}/accept`, {});
    assert.ok(accepted.status < 300, JSON.stringify(accepted.body));

    // As a member: settings read-only, no key management.
    await page.goto(`${env.origin}/app/projects/${project.body.id}/settings`);
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    await page.getByText('Admins and owners change these', { exact: false }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Save project' }).count(), 0);
    assert.equal(await page.getByLabel('Board on').count(), 0);
    await page.getByText('Shared project', { exact: true }).first().waitFor();
    await expectAccessible(page, 'settings, member');

    await page.goto(`${env.origin}/app/projects/${project.body.id}/keys`);
    await page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Create key' }).count(), 0);
    await expectAccessible(page, 'keys, member');

    await page.goto(`${env.origin}/app/projects`);
    await page.getByRole('link', { name: 'Shared project' }).waitFor();
    assert.equal(await page.getByRole('link', { name: 'Harbour' }).count(), 0, "another team's project is not listed");
    assert.deepEqual(problems, []);
  });

  it('keeps the keys table inside the page at tablet width', async () => {
    const context = await env.browser.newContext({ viewport: { width: 768, height: 1024 } });
    const page = await context.newPage();
    await signUpAndVerify(page, 'Tab Let');
    const teams = await manage(page, 'GET', '/teams');
    const project = await manage(page, 'POST', '/projects', { teamId: teams.body.teams[0].id, name: 'Tablet' });
    for (const name of ['A key with a rather long descriptive name for the widget', 'Server']) {
      const made = await manage(page, 'POST', `/projects/${project.body.id}/keys`, {
        name,
        environment: 'live',
        scopes: ['public:read', 'features:read', 'features:write', 'bugs:write', 'errors:write', 'logs:write'],
      });
      assert.equal(made.status, 201);
    }
    await page.goto(`${env.origin}/app/projects/${project.body.id}/keys`);
    await page.getByRole('row', { name: /Server/ }).waitFor();
    const overflow = await page.evaluate(() => ({
      page: document.documentElement.scrollWidth - window.innerWidth,
      table: (() => {
        const wrap = document.querySelector('.table-wrap') as HTMLElement;
        return wrap.scrollWidth - wrap.clientWidth;
      })(),
    }));
    assert.ok(overflow.page <= 0, `no horizontal scrolling of the page (${overflow.page}px)`);
    assert.ok(overflow.table <= 0, `no horizontal scrolling of the keys table (${overflow.table}px)`);
    await expectAccessible(page, 'keys, tablet');
    await context.close();
  });
});
