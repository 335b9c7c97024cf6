/**
 * The feedback inbox and an idea's page in Chromium against a real server: an account, project,
 * board, API key and ideas seeded through the HTTP APIs; then, through the UI, triage an idea
 * (status, internal, notes, a tag, merging its duplicate into it, hiding a comment) and check the
 * board and the public API follow; filters, sort and paging state in the URL; a bulk status change
 * by keyboard. axe-core on every screen and state, and once in dark mode.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { type DashboardEnv, expectAccessible, startDashboardEnv } from './support.ts';

const PASSWORD = 'quiet harbour lantern 42';

interface Seeded {
  cookie: string;
  projectId: string;
  boardUrl: string;
  key: string;
  ids: Record<string, string>;
  tagId: string;
}

/** JSON over HTTP; throws with the answer when the status is not the expected one. */
async function call(
  url: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
  expected = [200, 201, 202, 204],
): Promise<{ status: number; body: any; headers: Headers }> {
  const response = await fetch(url, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: {
      accept: 'application/json',
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...init.headers,
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await response.text();
  const body = text ? JSON.parse(text) : null;
  assert.ok(expected.includes(response.status), `${init.method ?? 'GET'} ${url}: ${response.status} ${text}`);
  return { status: response.status, body, headers: response.headers };
}

async function seed(env: DashboardEnv): Promise<Seeded> {
  const origin = env.origin;
  const email = `triage-${randomBytes(4).toString('hex')}@example.com`;
  await call(`${origin}/api/v1/auth/sign-up`, { body: { email, password: PASSWORD, name: 'Tess Triage' } });
  const mail = await env.mailbox.nextTo(email, 0);
  const link = new URL(mail.links.find((href) => href.includes('/app/verify-email?token='))!);
  await call(`${origin}/api/v1/auth/verify-email${link.search}`);
  const signIn = await call(`${origin}/api/v1/auth/sign-in`, { body: { email, password: PASSWORD } });
  const cookie = signIn.headers
    .getSetCookie()
    .find((line) => line.startsWith('signpost_session='))!
    .split(';')[0]!;
  const manage = (path: string, init: { method?: string; body?: unknown } = {}) =>
    call(`${origin}/api/v1${path}`, { ...init, headers: { cookie, 'x-requested-with': 'signpost-tests' } });

  const slug = `triage-${randomBytes(3).toString('hex')}`;
  const project = (await manage('/projects', { body: { name: 'Triage Co', slug } })).body;
  const board = (await manage(`/projects/${project.id}/board`, { method: 'PATCH', body: { enabled: true } })).body;
  const key = (
    await manage(`/projects/${project.id}/keys`, {
      body: { name: 'tests', environment: 'live', scopes: ['public:read', 'features:read', 'features:write'] },
    })
  ).body.key as string;
  const tagId = (await manage(`/projects/${project.id}/tags`, { body: { name: 'Mobile' } })).body.id as string;

  const publicApi = (path: string, init: { method?: string; body?: unknown } = {}) =>
    call(`${origin}/api/public/v1${path}`, { ...init, headers: { 'x-api-key': key } });
  const ideas: [string, string, Record<string, unknown>][] = [
    ['keyboard', 'Keyboard shortcuts', {}],
    ['crash', 'Crash when saving a file', { type: 'bug' }],
    ['csv', 'Export to CSV', {}],
    ['dup', 'Dark theme please', {}],
    ['target', 'Dark theme for the editor', {}],
  ];
  const ids: Record<string, string> = {};
  for (const [name, title, extra] of ideas) {
    ids[name] = (
      await publicApi('/features', {
        body: { title, description: `${title}: described well enough for the team.`, ...extra },
      })
    ).body.id;
  }
  for (const voter of ['ann', 'bob', 'cat', 'dan'])
    await publicApi(`/features/${ids['csv']}/votes/${voter}`, { method: 'PUT' });
  for (const voter of ['ann', 'bob']) await publicApi(`/features/${ids['dup']}/votes/${voter}`, { method: 'PUT' });
  for (const voter of ['bob', 'cat']) await publicApi(`/features/${ids['target']}/votes/${voter}`, { method: 'PUT' });
  await publicApi(`/features/${ids['target']}/comments`, { body: { body: 'Buy cheap watches at spam.example' } });
  await publicApi(`/features/${ids['target']}/comments`, { body: { body: 'This would help at night' } });
  return { cookie, projectId: project.id, boardUrl: board.url.replace(/\/$/, ''), key, ids, tagId };
}

describe('dashboard inbox and idea page', () => {
  let env: DashboardEnv;
  let seeded: Seeded;
  let context: BrowserContext;
  before(async () => {
    env = await startDashboardEnv();
    seeded = await seed(env);
  });
  after(async () => env?.close());

  const inboxUrl = () => `${env.origin}/app/projects/${seeded.projectId}/inbox`;
  const publicGet = (path: string) =>
    call(`${env.origin}/api/public/v1${path}`, { headers: { 'x-api-key': seeded.key } }, [200, 404]);
  const manageGet = (path: string) => call(`${env.origin}/api/v1${path}`, { headers: { cookie: seeded.cookie } });

  async function signedInPage(): Promise<{ page: Page; problems: string[] }> {
    context = await env.browser.newContext();
    const [name, value] = seeded.cookie.split('=') as [string, string];
    await context.addCookies([{ name, value, url: env.origin }]);
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy|Refused to/i.test(message.text()))
        problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    return { page, problems };
  }

  const rowTitles = async (page: Page) =>
    page.getByRole('table', { name: 'Ideas' }).locator('tbody tr td.inbox-title a').allTextContents();

  it('triages an idea: status, notes, a tag, merging its duplicate, hiding a comment, making it internal', async () => {
    const { page, problems } = await signedInPage();
    const boardPage = await context.newPage();
    const target = seeded.ids['target']!;
    const dup = seeded.ids['dup']!;

    // The inbox: every idea, the bug and the `new` one included.
    await page.goto(inboxUrl());
    await page.getByRole('heading', { level: 1, name: 'Inbox' }).waitFor();
    await page.getByRole('table', { name: 'Ideas' }).waitFor();
    assert.equal((await rowTitles(page)).length, 5);
    await expectAccessible(page, 'inbox');

    // The duplicate first: merge it into the idea suggested as similar.
    await page.getByRole('link', { name: 'Dark theme please' }).click();
    await page.getByRole('heading', { level: 1, name: 'Dark theme please' }).waitFor();
    const suggested = page
      .getByRole('group', { name: 'Similar ideas' })
      .getByRole('radio', { name: /Dark theme for the editor/ });
    await suggested.waitFor();
    await expectAccessible(page, 'idea page');
    await suggested.check();
    await page.getByRole('button', { name: 'Merge into “Dark theme for the editor”' }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.waitFor();
    assert.match((await dialog.textContent()) ?? '', /votes \(2\) and followers move/);
    await expectAccessible(page, 'merge confirmation');
    await dialog.getByRole('button', { name: 'Merge' }).click();
    await page.waitForURL(new RegExp(`/inbox/${target}$`));
    await page.getByRole('heading', { level: 1, name: 'Dark theme for the editor' }).waitFor();
    await page
      .getByRole('status')
      .filter({ hasText: '“Dark theme please” was merged into this idea: 1 vote and 0 comments moved.' })
      .waitFor();
    assert.equal((await publicGet(`/features/${dup}`)).status, 404);
    assert.equal((await publicGet(`/features/${target}`)).body.voteCount, 3);

    // Status by keyboard, then notes; saved together (in the open idea's pane, beside the list's filters).
    const idea = page.getByRole('region', { name: 'The open idea' });
    const status = idea.getByLabel('Status', { exact: true });
    await status.focus();
    await page.keyboard.type('Planned');
    assert.equal(await status.inputValue(), 'planned');
    await page.getByLabel('Developer notes').fill('Ship with the theme tokens work.');
    await page.getByText('Unsaved changes').waitFor();
    await page.getByRole('button', { name: 'Save changes' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('status').filter({ hasText: 'Saved: status Planned, developer notes.' }).waitFor();
    await expectAccessible(page, 'idea page, saved');
    const managed = (await manageGet(`/projects/${seeded.projectId}/features/${target}`)).body;
    assert.equal(managed.status, 'planned');
    assert.equal(managed.developerNotes, 'Ship with the theme tokens work.');

    // A tag from the project's list, and a new one made in place.
    await page.getByRole('checkbox', { name: 'Mobile' }).check();
    await page.getByRole('status').filter({ hasText: 'Tag Mobile added.' }).waitFor();
    await page.getByLabel('New tag').fill('Themes');
    await page.getByRole('button', { name: 'Create and add' }).click();
    await page.getByRole('status').filter({ hasText: 'Tag Themes created and added.' }).waitFor();
    assert.deepEqual(
      (await manageGet(`/projects/${seeded.projectId}/features/${target}`)).body.tags.map((t: any) => t.name),
      ['Mobile', 'Themes'],
    );

    // The board shows the idea with its new status and the votes moved; the duplicate is gone.
    await page.getByRole('link', { name: 'View on the public board' }).waitFor();
    assert.equal(
      await page.getByRole('link', { name: 'View on the public board' }).getAttribute('href'),
      `${seeded.boardUrl}/ideas/${target}`,
    );
    await boardPage.goto(seeded.boardUrl);
    const boardText = (await boardPage.locator('body').textContent()) ?? '';
    assert.match(boardText, /Dark theme for the editor/);
    assert.doesNotMatch(boardText, /Dark theme please/);
    // The duplicate's board URL leads to the idea it was merged into (308).
    assert.equal((await boardPage.goto(`${seeded.boardUrl}/ideas/${dup}`))?.status(), 200);
    assert.equal(boardPage.url(), `${seeded.boardUrl}/ideas/${target}`);
    await boardPage.goto(`${seeded.boardUrl}/ideas/${target}`);
    assert.match((await boardPage.locator('body').textContent()) ?? '', /Planned/);
    assert.match((await boardPage.locator('body').textContent()) ?? '', /Buy cheap watches/);

    // Hide the spam comment: gone from the board and the public API, kept for the team.
    await page.getByRole('button', { name: /^Hide the comment by Anonymous: Buy cheap/ }).click();
    await page.getByRole('status').filter({ hasText: 'Comment hidden from the board and the public API.' }).waitFor();
    await page.getByText('Hidden', { exact: true }).waitFor();
    await expectAccessible(page, 'idea page, a comment hidden');
    await boardPage.goto(`${seeded.boardUrl}/ideas/${target}`);
    assert.doesNotMatch((await boardPage.locator('body').textContent()) ?? '', /Buy cheap watches/);
    const comments = (await publicGet(`/features/${target}/comments`)).body;
    assert.deepEqual(
      comments.comments.map((c: any) => c.body),
      ['This would help at night'],
    );

    // Internal: hidden from the board and the public API; the board link goes.
    await page.getByRole('checkbox', { name: 'Internal' }).focus();
    await page.keyboard.press('Space');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved: internal.' }).waitFor();
    await page.getByRole('link', { name: 'View on the public board' }).waitFor({ state: 'detached' });
    assert.equal((await publicGet(`/features/${target}`)).status, 404);
    assert.equal((await boardPage.goto(`${seeded.boardUrl}/ideas/${target}`))?.status(), 404);
    const list = (await publicGet('/features')).body.features.map((f: any) => f.id);
    assert.ok(!list.includes(target) && !list.includes(dup));

    await page.emulateMedia({ colorScheme: 'dark' });
    await expectAccessible(page, 'idea page, dark');
    await page.emulateMedia({ colorScheme: 'light' });

    // The inbox shows what changed.
    await page.getByRole('link', { name: '← Back to the inbox' }).click();
    await page.getByRole('table', { name: 'Ideas' }).waitFor();
    const row = page.getByRole('row').filter({ hasText: 'Dark theme for the editor' });
    await row.filter({ hasText: 'Themes' }).waitFor();
    assert.match((await row.textContent()) ?? '', /Internal.*Planned.*3.*1.*Mobile.*Themes/s);
    assert.deepEqual(problems, []);
  });

  it('filters, sorts and pages through the URL, and changes the status of two rows at once by keyboard', async () => {
    const { page, problems } = await signedInPage();
    await page.goto(inboxUrl());
    await page.getByRole('table', { name: 'Ideas' }).waitFor();

    // Type: bugs only; the URL says so, and the back button returns to every idea.
    await page.getByLabel('Type', { exact: true }).selectOption('bug');
    await page.waitForURL(/type=bug/);
    await page.waitForFunction(() => document.querySelectorAll('table tbody tr').length === 1);
    assert.deepEqual(await rowTitles(page), ['Crash when saving a file']);
    await expectAccessible(page, 'inbox, filtered');
    await page.goBack();
    await page.waitForURL((url) => !url.search.includes('type='));
    await page.waitForFunction(() => document.querySelectorAll('table tbody tr').length > 1);

    // Sort by votes: the most voted first; the view is shareable by its address.
    await page.getByLabel('Sort by').selectOption('votes');
    await page.waitForURL(/sort=votes/);
    await page.waitForFunction(() => document.querySelector('table tbody tr a')?.textContent === 'Export to CSV');
    const shared = await context.newPage();
    await shared.goto(page.url());
    await shared.getByRole('table', { name: 'Ideas' }).waitFor();
    assert.equal(await shared.getByLabel('Sort by').inputValue(), 'votes');
    assert.equal((await rowTitles(shared))[0], 'Export to CSV');
    await shared.close();

    // Tag and search filters; nothing matching says so.
    await page.getByLabel('Tag', { exact: true }).selectOption({ label: 'Mobile' });
    await page.waitForURL(new RegExp(`tag=${seeded.tagId}`));
    await page.waitForFunction(() => document.querySelectorAll('table tbody tr').length === 1);
    assert.deepEqual(await rowTitles(page), ['Dark theme for the editor']);
    await page.getByLabel('Tag', { exact: true }).selectOption('');
    await page.getByRole('searchbox', { name: 'Search' }).fill('nothing like this');
    await page.keyboard.press('Enter');
    await page.getByText('No ideas match these filters.').waitFor();
    await expectAccessible(page, 'inbox, nothing matches');
    await page.getByRole('link', { name: 'Clear the filters' }).click();
    await page.getByRole('table', { name: 'Ideas' }).waitFor();
    assert.equal(await page.getByRole('searchbox', { name: 'Search' }).inputValue(), '');

    // Select all on the page, then none.
    const all = page.getByRole('checkbox', { name: 'Select all on this page' });
    await all.check();
    await page.getByRole('heading', { name: /ideas selected/ }).waitFor();
    assert.match((await page.getByRole('heading', { level: 2 }).first().textContent()) ?? '', /^4 ideas selected$/);
    await all.uncheck();
    await page.getByRole('heading', { name: /selected/ }).waitFor({ state: 'detached' });

    // Two rows by keyboard, a status for both.
    await page.getByRole('checkbox', { name: 'Select Export to CSV' }).focus();
    await page.keyboard.press('Space');
    await page.getByRole('checkbox', { name: 'Select Keyboard shortcuts' }).focus();
    await page.keyboard.press('Space');
    await page.getByRole('heading', { name: '2 ideas selected' }).waitFor();
    await expectAccessible(page, 'inbox, two rows selected');
    await page.getByLabel('New status').focus();
    await page.keyboard.type('Done');
    assert.equal(await page.getByLabel('New status').inputValue(), 'done');
    await page.getByRole('button', { name: 'Set status' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('status').filter({ hasText: 'Status set to Done on 2 ideas.' }).waitFor();
    for (const name of ['csv', 'keyboard']) {
      const feature = (await manageGet(`/projects/${seeded.projectId}/features/${seeded.ids[name]}`)).body;
      assert.equal(feature.status, 'done', name);
    }
    assert.equal((await publicGet(`/features/${seeded.ids['csv']}`)).body.status, 'done');
    await page.getByLabel('Status', { exact: true }).selectOption('done');
    await page.waitForFunction(() => document.querySelectorAll('table tbody tr').length === 2);
    assert.deepEqual((await rowTitles(page)).sort(), ['Export to CSV', 'Keyboard shortcuts']);
    assert.deepEqual(problems, []);
  });

  it('shows loading, an unknown idea, and the inbox in dark mode', async () => {
    const { page, problems } = await signedInPage();
    await page.route('**/api/v1/projects/*/features?*', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 800));
      await route.continue();
    });
    await page.goto(inboxUrl());
    await page.getByRole('status').filter({ hasText: 'Loading ideas…' }).waitFor();
    await expectAccessible(page, 'inbox, loading');
    await page.getByRole('table', { name: 'Ideas' }).waitFor();
    await page.emulateMedia({ colorScheme: 'dark' });
    await expectAccessible(page, 'inbox, dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto(`${inboxUrl()}/feat_does_not_exist`);
    await page.getByRole('heading', { level: 1, name: 'Idea not found' }).waitFor();
    await expectAccessible(page, 'idea not found');

    // A refused save: the server's words in place, what was typed kept.
    await page.goto(`${inboxUrl()}/${seeded.ids['crash']}`);
    await page.getByRole('heading', { level: 1, name: 'Crash when saving a file' }).waitFor();
    const tooLong = 'x'.repeat(10_001);
    await page.getByLabel('Developer notes').fill(tooLong);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('alert').first().waitFor();
    assert.equal(await page.getByLabel('Developer notes').getAttribute('aria-invalid'), 'true');
    assert.equal(await page.getByLabel('Developer notes').inputValue(), tooLong);
    await page.getByText('Unsaved changes').waitFor();
    await expectAccessible(page, 'idea page, refused save');
    assert.deepEqual(problems, []);
  });
});
