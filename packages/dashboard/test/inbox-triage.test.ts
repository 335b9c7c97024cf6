/**
 * The inbox as a two-pane triage screen (issue 30) in Chromium against a real server: at 1440 px
 * the list and the open idea side by side, driven by the keyboard only (j/k, Enter/o, s, r, n, t,
 * e, x, ?; nothing while typing in a field; moves announced); a merge by keyboard (m chooses the
 * similar idea, Enter asks, the dialog confirms); at 390 px one pane with a way back;
 * the selection in the URL (a deep link); an idea filed for a person (picked, or a new address)
 * with their vote; the company filter sending `company`. axe-core light and dark, wide and narrow;
 * screenshots into docs/screenshots.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { SignJWT } from 'jose';
import type { Browser, Page } from 'playwright-core';
import { type DashboardEnv, expectAccessible, startDashboardEnv } from './support.ts';

const PASSWORD = 'quiet harbour lantern 42';
const SHOTS = fileURLToPath(new URL('../../../docs/screenshots/', import.meta.url));

async function call(
  url: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: any; headers: Headers }> {
  const response = await fetch(url, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: {
      accept: 'application/json',
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...init.headers,
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    redirect: 'manual',
  });
  const text = await response.text();
  const body = text && response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text;
  assert.ok(response.status < 400, `${init.method ?? 'GET'} ${url}: ${response.status} ${text}`);
  return { status: response.status, body, headers: response.headers };
}

interface Seeded {
  cookie: string;
  projectId: string;
  ids: Record<string, string>;
  globexId: string;
  key: string;
}

async function seed(env: DashboardEnv): Promise<Seeded> {
  const origin = env.origin;
  const email = `two-pane-${randomBytes(4).toString('hex')}@example.com`;
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
  const slug = `two-pane-${randomBytes(3).toString('hex')}`;
  const project = (await manage('/projects', { body: { name: 'Two Pane Co', slug } })).body;
  const board = (await manage(`/projects/${project.id}/board`, { method: 'PATCH', body: { enabled: true } })).body;
  const key = (
    await manage(`/projects/${project.id}/keys`, {
      body: { name: 'tests', environment: 'live', scopes: ['public:read', 'features:read', 'features:write'] },
    })
  ).body.key as string;
  await manage(`/projects/${project.id}/tags`, { body: { name: 'Mobile' } });
  const publicApi = (path: string, init: { method?: string; body?: unknown } = {}) =>
    call(`${origin}/api/public/v1${path}`, { ...init, headers: { 'x-api-key': key } });
  const ideas: [string, string][] = [
    ['calendar', 'Calendar sync with Outlook'],
    ['sso', 'Single sign-on with Okta'],
    ['export', 'Export reports to PDF'],
    ['dark', 'Dark mode for the editor'],
  ];
  const ids: Record<string, string> = {};
  for (const [name, title] of ideas) {
    ids[name] = (
      await publicApi('/features', { body: { title, description: `${title}: asked by several customers.` } })
    ).body.id;
  }
  await publicApi(`/features/${ids['export']}/votes/app-user-1`, { method: 'PUT' });
  // A person with a company, signed in to the board by SSO.
  const { secret } = (await manage(`/projects/${project.id}/board/sso-secret`, { body: {} })).body;
  const now = Math.floor(Date.now() / 1000);
  const token = await new SignJWT({
    sub: 'globex-1',
    email: 'hank@globex.test',
    name: 'Hank Scorpio',
    company: { id: 'globex', name: 'Globex', plan: 'enterprise', monthlyRevenue: 9000 },
  })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuedAt(now)
    .setExpirationTime(now + 300)
    .sign(new TextEncoder().encode(secret));
  await call(`${board.url.replace(/\/$/, '')}/sso?token=${token}`);
  const companies = (await manage(`/projects/${project.id}/companies`)).body.companies;
  const globexId = companies.find((c: { externalId: string }) => c.externalId === 'globex').id as string;
  return { cookie, projectId: project.id, ids, globexId, key };
}

describe('the inbox as a two-pane triage screen', () => {
  let env: DashboardEnv;
  let seeded: Seeded;
  before(async () => {
    env = await startDashboardEnv();
    seeded = await seed(env);
  });
  after(async () => env?.close());

  const inboxUrl = () => `${env.origin}/app/projects/${seeded.projectId}/inbox`;
  const manageGet = async (path: string) =>
    (await call(`${env.origin}/api/v1${path}`, { headers: { cookie: seeded.cookie } })).body;

  async function signedIn(browser: Browser, viewport: { width: number; height: number }) {
    const context = await browser.newContext({ viewport });
    const [name, value] = seeded.cookie.split('=') as [string, string];
    await context.addCookies([{ name, value, url: env.origin }]);
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    return { context, page, problems };
  }

  /** Tab until the focused control is named `name` (keyboard only). */
  async function tabTo(page: Page, name: string) {
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press('Tab');
      const focused = await page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');
      if (focused === name) return;
    }
    throw new Error(`No control named ${name} within 40 tabs`);
  }

  const focusedName = (page: Page) =>
    page.evaluate(() => {
      const el = document.activeElement as HTMLInputElement | null;
      return `${el?.tagName.toLowerCase()}:${el?.getAttribute('name') ?? el?.textContent?.trim() ?? ''}`;
    });

  it('wide: list and idea side by side, triaged by keyboard only', async () => {
    const { context, page, problems } = await signedIn(env.browser, { width: 1440, height: 900 });
    await page.goto(`${inboxUrl()}?sort=oldest`);
    await page.getByRole('heading', { level: 1, name: 'Inbox' }).waitFor();
    await page.getByRole('table', { name: 'Ideas' }).waitFor();
    await expectAccessible(page, 'inbox, one pane');

    // j lands on the first row (focus and announcement); Enter opens it beside the list.
    await page.keyboard.press('j');
    const live = page.locator('p.visually-hidden[role="status"]');
    await live.filter({ hasText: 'Calendar sync with Outlook: Open, 0 votes. 1 of 4.' }).waitFor();
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Calendar sync with Outlook');
    await page.keyboard.press('Enter');
    await page.waitForURL(new RegExp(`/inbox/${seeded.ids['calendar']}\\?sort=oldest$`));
    const idea = page.getByRole('region', { name: 'The open idea' });
    await idea.getByRole('heading', { level: 1, name: 'Calendar sync with Outlook' }).waitFor();
    assert.ok(await page.getByRole('table', { name: 'Ideas' }).isVisible(), 'the list stays beside the idea');
    const [listBox, ideaBox] = await Promise.all([
      page.locator('.inbox-list').boundingBox(),
      page.locator('#inbox-detail').boundingBox(),
    ]);
    assert.ok(listBox && ideaBox && listBox.x + listBox.width <= ideaBox.x, 'two panes side by side');

    // j again: the next idea opens, the list keeps the focus and the view.
    await page.keyboard.press('j');
    await page.waitForURL(new RegExp(`/inbox/${seeded.ids['sso']}\\?sort=oldest$`));
    await idea.getByRole('heading', { level: 1, name: 'Single sign-on with Okta' }).waitFor();
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Single sign-on with Okta');
    assert.equal(await page.title(), 'Single sign-on with Okta · Signpost');

    // s: the status menu; typed, then saved from the keyboard with an official response.
    await page.keyboard.press('s');
    assert.equal(await focusedName(page), 'select:status');
    await page.keyboard.type('Planned');
    await idea.getByLabel('Official response').waitFor();
    await page.keyboard.press('Tab');
    await page.keyboard.type('Planned for the spring release.');
    await tabTo(page, 'Save changes');
    await page.keyboard.press('Enter');
    await idea.getByRole('status').filter({ hasText: 'Saved: status Planned.' }).waitFor();
    const planned = await manageGet(`/projects/${seeded.projectId}/features/${seeded.ids['sso']}`);
    assert.equal(planned.status, 'planned');
    assert.equal(planned.statusResponse, 'Planned for the spring release.');

    // r: a reply as the team; n: an internal note.
    await page.keyboard.press('r');
    assert.equal(await focusedName(page), 'textarea:reply');
    await page.keyboard.type('Thanks, this is on the way.');
    await tabTo(page, 'Post reply');
    await page.keyboard.press('Enter');
    await idea.getByRole('status').filter({ hasText: 'Reply posted on the board as the team.' }).waitFor();
    await page.keyboard.press('n');
    assert.equal(await focusedName(page), 'textarea:reply');
    assert.ok(await idea.getByRole('checkbox', { name: 'Note for the team only' }).isChecked());
    await page.keyboard.type('Okta asked twice in sales calls.');
    await tabTo(page, 'Add note');
    await page.keyboard.press('Enter');
    await idea.getByRole('status').filter({ hasText: 'Internal note added: only the team sees it.' }).waitFor();
    const comments = (
      await manageGet(`/projects/${seeded.projectId}/features/${seeded.ids['sso']}/comments`)
    ).comments.map((c: any) => [c.body, c.team, c.internal]);
    assert.deepEqual(comments, [
      ['Thanks, this is on the way.', true, false],
      ['Okta asked twice in sales calls.', true, true],
    ]);

    // t: tags; Space ticks the first one.
    await page.keyboard.press('t');
    assert.equal(await page.evaluate(() => (document.activeElement as HTMLInputElement).type), 'checkbox');
    await page.keyboard.press('Space');
    await idea.getByRole('status').filter({ hasText: 'Tag Mobile added.' }).waitFor();

    // e: edit the title and description.
    await page.keyboard.press('e');
    const title = idea.getByRole('textbox', { name: 'Title' });
    await title.waitFor();
    assert.equal(await focusedName(page), 'input:title');
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('Single sign-on with Okta and Azure AD');
    await tabTo(page, 'Save title and description');
    await page.keyboard.press('Enter');
    await idea.getByRole('heading', { level: 1, name: 'Single sign-on with Okta and Azure AD' }).waitFor();
    await page.getByRole('link', { name: 'Single sign-on with Okta and Azure AD' }).waitFor();
    assert.equal(
      (await manageGet(`/projects/${seeded.projectId}/features/${seeded.ids['sso']}`)).title,
      'Single sign-on with Okta and Azure AD',
    );

    // Both panes from the top, light and dark.
    await page.evaluate(() => {
      window.scrollTo(0, 0);
      document.getElementById('inbox-detail')?.scrollTo(0, 0);
    });
    await expectAccessible(page, 'inbox, two panes');
    await page.screenshot({ path: `${SHOTS}dashboard-inbox-two-pane.png` });
    await page.emulateMedia({ colorScheme: 'dark' });
    await expectAccessible(page, 'inbox, two panes, dark');
    await page.screenshot({ path: `${SHOTS}dashboard-inbox-two-pane-dark.png` });
    await page.emulateMedia({ colorScheme: 'light' });

    // Keys typed into a field are text, not shortcuts.
    const searchBox = page.getByRole('searchbox', { name: 'Search' });
    await searchBox.focus();
    const before = page.url();
    await page.keyboard.type('jk');
    assert.equal(await searchBox.inputValue(), 'jk');
    assert.equal(page.url(), before);
    await searchBox.fill('');

    // x selects the keyboard's row for a bulk change; k goes back up.
    await page.getByRole('link', { name: 'Single sign-on with Okta and Azure AD' }).focus();
    await page.keyboard.press('k');
    await page.waitForURL(new RegExp(`/inbox/${seeded.ids['calendar']}`));
    await page.keyboard.press('x');
    await page.getByRole('heading', { name: '1 idea selected' }).waitFor();
    await live.filter({ hasText: 'Selected Calendar sync with Outlook. 1 selected.' }).waitFor();

    await expectAccessible(page, 'inbox, two panes, a row selected');

    // ? lists the shortcuts; Escape closes.
    await page.getByRole('link', { name: 'Calendar sync with Outlook' }).focus();
    await page.keyboard.press('?');
    const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await dialog.waitFor();
    assert.match((await dialog.textContent()) ?? '', /Reply as the team/);
    await expectAccessible(page, 'keyboard shortcuts');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('narrow: one pane, the deep link opens the idea, back returns to the list', async () => {
    const { context, page, problems } = await signedIn(env.browser, { width: 390, height: 844 });
    await page.goto(`${inboxUrl()}/${seeded.ids['export']}?sort=votes`);
    const idea = page.getByRole('region', { name: 'The open idea' });
    await idea.getByRole('heading', { level: 1, name: 'Export reports to PDF' }).waitFor();
    assert.equal(await page.getByRole('table', { name: 'Ideas' }).isVisible(), false);
    await expectAccessible(page, 'inbox, narrow, an idea open');
    await page.screenshot({ path: `${SHOTS}dashboard-inbox-narrow.png` });
    await page.emulateMedia({ colorScheme: 'dark' });
    await expectAccessible(page, 'inbox, narrow, dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.getByRole('link', { name: '← Back to the inbox' }).click();
    await page.waitForURL(/\/inbox\?sort=votes$/);
    await page.getByRole('table', { name: 'Ideas' }).waitFor();
    assert.equal(await page.getByLabel('Sort by').inputValue(), 'votes');
    await expectAccessible(page, 'inbox, narrow, the list');
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('files an idea for a person (picked, or a new address) and filters by company', async () => {
    const { context, page, problems } = await signedIn(env.browser, { width: 1440, height: 900 });
    await page.goto(inboxUrl());
    await page.getByRole('table', { name: 'Ideas' }).waitFor();

    // One of the project's people, found by name.
    await page.getByRole('button', { name: 'New idea for a person' }).click();
    const dialog = page.getByRole('dialog', { name: 'New idea for a person' });
    await dialog.getByRole('searchbox', { name: 'Person' }).fill('Hank');
    await dialog.getByRole('radio', { name: /Hank Scorpio/ }).check();
    await dialog.getByRole('textbox', { name: 'Title' }).fill('Volcano lair integrations');
    await dialog.getByRole('textbox', { name: 'Description' }).fill('Asked in the quarterly review call.');
    await expectAccessible(page, 'new idea for a person');
    await page.screenshot({ path: `${SHOTS}dashboard-new-idea-for-person.png` });
    await dialog.getByRole('button', { name: 'File the idea' }).click();
    const idea = page.getByRole('region', { name: 'The open idea' });
    await idea.getByRole('heading', { level: 1, name: 'Volcano lair integrations' }).waitFor();
    await idea.getByRole('status').filter({ hasText: 'Filed for Hank Scorpio, with their vote.' }).waitFor();
    await idea.getByRole('link', { name: 'Hank Scorpio' }).waitFor();
    const filed = new URL(page.url()).pathname.split('/').pop()!;
    const votes = await manageGet(`/projects/${seeded.projectId}/features/${filed}/votes`);
    assert.deepEqual(
      votes.votes.map((v: any) => v.person.name),
      ['Hank Scorpio'],
    );

    // A new address: a new person, named.
    await page.getByRole('button', { name: 'New idea for a person' }).click();
    await dialog.getByRole('searchbox', { name: 'Person' }).fill('ines@newco.test');
    await dialog.getByRole('radio', { name: 'A new person: ines@newco.test' }).check();
    await dialog.getByRole('textbox', { name: 'Their name (optional)' }).fill('Ines Okafor');
    await dialog.getByRole('textbox', { name: 'Title' }).fill('Invoices in euros');
    await dialog.getByRole('textbox', { name: 'Description' }).fill('Heard on a support call.');
    await dialog.getByRole('button', { name: 'File the idea' }).click();
    await idea.getByRole('heading', { level: 1, name: 'Invoices in euros' }).waitFor();
    const people = await manageGet(`/projects/${seeded.projectId}/people?q=ines%40newco.test`);
    assert.equal(people.people[0].name, 'Ines Okafor');

    // The company filter lists the project's companies and sends `company` with the list query.
    await page.getByRole('link', { name: '← Back to the inbox' }).click();
    const sent = page.waitForRequest((request) => request.url().includes(`company=${seeded.globexId}`));
    await page.getByLabel('Company').selectOption({ label: 'Globex' });
    await page.waitForURL(new RegExp(`company=${seeded.globexId}`));
    await sent;
    await expectAccessible(page, 'inbox, company filter');
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('merges by keyboard: m chooses the similar idea, Enter asks, the dialog confirms', async () => {
    const publicApi = (path: string, body?: unknown) =>
      call(`${env.origin}/api/public/v1${path}`, { body, headers: { 'x-api-key': seeded.key } });
    const duplicate = (
      await publicApi('/features', {
        title: 'Offline mode for the mobile app',
        description: 'Work on the train without a connection.',
      })
    ).body.id as string;
    const kept = (
      await publicApi('/features', {
        title: 'Offline mode in the mobile app',
        description: 'Keep working when the network drops.',
      })
    ).body.id as string;
    await call(`${env.origin}/api/public/v1/features/${duplicate}/votes/app-user-9`, {
      method: 'PUT',
      headers: { 'x-api-key': seeded.key },
    });

    const { context, page, problems } = await signedIn(env.browser, { width: 1440, height: 900 });
    // A request that fails names its address (the console only says "404").
    page.on('response', (response) => {
      if (response.status() >= 400) problems.push(`${response.status()} ${new URL(response.url()).pathname}`);
    });
    await page.goto(`${inboxUrl()}/${duplicate}`);
    const idea = page.getByRole('region', { name: 'The open idea' });
    await idea.getByRole('heading', { level: 1, name: 'Offline mode for the mobile app' }).waitFor();
    const candidate = idea.getByRole('radio', { name: /Offline mode in the mobile app/ });
    await candidate.waitFor();

    // m: the first similar idea is chosen and focused, and the way on is announced.
    await page.getByRole('link', { name: 'Offline mode for the mobile app' }).focus();
    await page.keyboard.press('m');
    assert.equal(await focusedName(page), 'input:merge-target');
    assert.ok(await candidate.isChecked(), 'm chooses the first candidate');
    const live = page.locator('p.visually-hidden[role="status"]');
    await live.filter({ hasText: 'Merge: the arrow keys choose the idea to keep' }).waitFor();

    // Enter asks to confirm; the dialog's Merge merges: the kept idea opens with the note.
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('alertdialog', { name: 'Merge into “Offline mode in the mobile app”?' });
    await dialog.waitFor();
    await expectAccessible(page, 'inbox, merge confirmation');
    await tabTo(page, 'Merge');
    await page.keyboard.press('Enter');
    await page.waitForURL(new RegExp(`/inbox/${kept}$`));
    await idea.getByRole('heading', { level: 1, name: 'Offline mode in the mobile app' }).waitFor();
    await idea
      .getByText('“Offline mode for the mobile app” was merged into this idea: 1 vote and 0 comments moved.')
      .waitFor();
    assert.equal((await manageGet(`/projects/${seeded.projectId}/features/${kept}`)).voteCount, 1);
    const listed = await manageGet(`/projects/${seeded.projectId}/features?limit=100`);
    assert.ok(!listed.features.some((row: { id: string }) => row.id === duplicate), 'the duplicate is gone');
    assert.deepEqual(problems, []);
    await context.close();
  });
});
