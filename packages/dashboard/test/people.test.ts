/**
 * People and team replies in the dashboard, in Chromium against a real server: an SSO user with a
 * company and revenue votes on the board and shows by name (with company) among the idea's voters,
 * on the People screen (searched by company) and on their person page; the inbox sorts by value.
 * A team reply posted from the idea's page shows with its "Team" badge on the board, an internal
 * note does not; a status change carries an official response; the undo window is set in the
 * project settings. A person's data is exported and erased from their page, and the project's
 * export downloaded from its settings. axe-core on every new screen.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { unzipSync } from 'fflate';
import { createHmac, randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { type DashboardEnv, expectAccessible, startDashboardEnv } from './support.ts';

const PASSWORD = 'quiet harbour lantern 42';

/** With SIGNPOST_SCREENSHOTS=<dir>, the README's screenshots of these screens are saved there. */
async function screenshot(page: Page, name: string): Promise<void> {
  const dir = process.env['SIGNPOST_SCREENSHOTS'];
  if (dir) await page.screenshot({ path: `${dir}/${name}.png` });
}

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
  });
  const text = await response.text();
  assert.ok(response.status < 300, `${init.method ?? 'GET'} ${url}: ${response.status} ${text}`);
  return { status: response.status, body: text ? JSON.parse(text) : null, headers: response.headers };
}

/** An HS256 JWT, as a host app signs its users in to the board. */
function ssoToken(secret: string, claims: Record<string, unknown>): string {
  const now = Math.floor(Date.now() / 1000);
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const body = `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ ...claims, iat: now, exp: now + 300 })}`;
  return `${body}.${createHmac('sha256', secret).update(body).digest('base64url')}`;
}

describe('dashboard: people and team replies', () => {
  let env: DashboardEnv;
  let cookie: string;
  let projectId: string;
  let boardUrl: string;
  let ideaId: string;
  let quietId: string;
  let secret: string;
  let key: string;

  before(async () => {
    env = await startDashboardEnv();
    const origin = env.origin;
    const email = `people-${randomBytes(4).toString('hex')}@example.com`;
    await call(`${origin}/api/v1/auth/sign-up`, { body: { email, password: PASSWORD, name: 'Pat Product' } });
    const mail = await env.mailbox.nextTo(email, 0);
    const link = new URL(mail.links.find((href) => href.includes('/app/verify-email?token='))!);
    await call(`${origin}/api/v1/auth/verify-email${link.search}`);
    const signIn = await call(`${origin}/api/v1/auth/sign-in`, { body: { email, password: PASSWORD } });
    cookie = signIn.headers
      .getSetCookie()
      .find((line) => line.startsWith('signpost_session='))!
      .split(';')[0]!;
    const manage = (path: string, init: { method?: string; body?: unknown } = {}) =>
      call(`${origin}/api/v1${path}`, { ...init, headers: { cookie, 'x-requested-with': 'signpost-tests' } });
    const project = (
      await manage('/projects', { body: { name: 'People Co', slug: `people-${randomBytes(3).toString('hex')}` } })
    ).body;
    projectId = project.id;
    boardUrl = (
      await manage(`/projects/${projectId}/board`, { method: 'PATCH', body: { enabled: true } })
    ).body.url.replace(/\/$/, '');
    key = (
      await manage(`/projects/${projectId}/keys`, {
        body: { name: 'tests', environment: 'live', scopes: ['public:read', 'features:read', 'features:write'] },
      })
    ).body.key as string;
    const publicApi = (path: string, body: unknown) =>
      call(`${origin}/api/public/v1${path}`, { body, headers: { 'x-api-key': key } });
    ideaId = (
      await publicApi('/features', { title: 'Single sign-on with Okta', description: 'Our IT team requires Okta SSO.' })
    ).body.id;
    quietId = (await publicApi('/features', { title: 'Emoji reactions', description: 'React to comments with emoji.' }))
      .body.id;
    secret = (await manage(`/projects/${projectId}/board/sso-secret`, { method: 'POST' })).body.secret as string;
    const token = ssoToken(secret, {
      sub: 'u-1',
      email: 'ines@globex.test',
      name: 'Ines Okafor',
      company: { id: 'globex', name: 'Globex', plan: 'scale', monthlyRevenue: 12000 },
    });
    const voter = await env.browser.newPage();
    await voter.goto(`${boardUrl}/sso?token=${token}&return=${encodeURIComponent(`/ideas/${ideaId}`)}`);
    await voter.getByText('Signed in as Ines Okafor').waitFor();
    await voter.getByRole('button', { name: 'Vote' }).click();
    await voter.getByRole('button', { name: 'Remove vote' }).waitFor();
    await voter.close();
  });
  after(async () => env?.close());

  async function dashboardPage(): Promise<Page> {
    const context = await env.browser.newContext();
    const [name, value] = cookie.split('=') as [string, string];
    await context.addCookies([{ name, value, url: env.origin }]);
    return context.newPage();
  }

  it('shows the SSO voter by name and company, on the People screen and their page; sorts the inbox by value', async () => {
    const page = await dashboardPage();
    await page.goto(`${env.origin}/app/projects/${projectId}/inbox/${ideaId}`);
    const voters = page.getByRole('table', { name: 'Voters' });
    await voters.getByRole('link', { name: 'Ines Okafor' }).waitFor();
    assert.match((await voters.locator('tbody tr').first().textContent()) ?? '', /Globex · scale · 12,000\/month/);
    assert.equal(await page.getByText(/board:bu_/).count(), 0, 'no raw board user ids');

    await page.getByRole('link', { name: 'People', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'People' }).waitFor();
    await page.getByRole('searchbox', { name: 'Search' }).fill('globex');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/people\?q=globex/);
    const table = page.getByRole('table', { name: 'People' });
    await table.getByRole('link', { name: 'Ines Okafor' }).waitFor();
    assert.equal(await table.locator('tbody tr').count(), 1);
    await expectAccessible(page, 'people, searched');
    await screenshot(page, 'dashboard-people');

    await table.getByRole('link', { name: 'Ines Okafor' }).click();
    await page.getByRole('heading', { level: 1, name: 'Ines Okafor' }).waitFor();
    await page.getByRole('link', { name: 'Single sign-on with Okta' }).waitFor();
    assert.match((await page.locator('dl.facts').textContent()) ?? '', /ines@globex\.test.*Globex/s);
    await expectAccessible(page, 'person page');
    await screenshot(page, 'dashboard-person');

    await page.goto(`${env.origin}/app/projects/${projectId}/inbox?sort=value`);
    const first = page.getByRole('table', { name: 'Ideas' }).locator('tbody tr').first();
    await first.getByRole('link', { name: 'Single sign-on with Okta' }).waitFor();
    assert.match((await first.textContent()) ?? '', /12,000/);
    await expectAccessible(page, 'inbox sorted by value');
    await page.context().close();
  });

  it('replies as the team (badge on the board), adds an internal note (not on the board), answers with a status change', async () => {
    const page = await dashboardPage();
    await page.goto(`${env.origin}/app/projects/${projectId}/inbox/${quietId}`);
    await page.getByRole('heading', { name: 'Reply as the team' }).waitFor();
    await page.getByLabel('Your reply').fill('Thanks! We are looking into reactions.');
    await page.getByRole('button', { name: 'Post reply' }).click();
    await page.getByText('Reply posted on the board as the team.').waitFor();
    await page.getByLabel('Your reply').fill('Needs design time first.');
    await page.getByLabel('Note for the team only').check();
    await page.getByRole('button', { name: 'Add note' }).click();
    await page.getByText('Internal note added: only the team sees it.').waitFor();
    await page
      .locator('.feature-comment', { hasText: 'Needs design time first.' })
      .getByText('Internal note')
      .waitFor();
    await expectAccessible(page, 'idea with a team reply and a note');

    await page
      .getByRole('region', { name: 'The open idea' })
      .getByLabel('Status', { exact: true })
      .selectOption('planned');
    await page.getByLabel('Official response').fill('Planned for the summer release.');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('heading', { name: 'Official response' }).waitFor();
    await expectAccessible(page, 'idea with an official response');

    const board = await page.context().newPage();
    await board.goto(`${boardUrl}/ideas/${quietId}`);
    const reply = board.locator('.comment', { hasText: 'Thanks! We are looking into reactions.' });
    await reply.waitFor();
    assert.equal(await reply.locator('.badge.team').textContent(), 'Team');
    assert.equal(await board.getByText('Needs design time first.').count(), 0);
    await board.locator('.response', { hasText: 'Planned for the summer release.' }).waitFor();
    await screenshot(board, 'board-team-reply');
    await page.context().close();
  });

  it('sets the undo window of follower e-mails in the project settings', async () => {
    const page = await dashboardPage();
    await page.goto(`${env.origin}/app/projects/${projectId}/settings`);
    const field = page.getByLabel('Undo window (seconds)');
    await field.waitFor();
    assert.equal(await field.inputValue(), '0', "the test server's default (NOTIFY_UNDO_SECONDS=0)");
    await field.fill('soon');
    await page.getByRole('button', { name: 'Save e-mail settings' }).click();
    await page.getByText('A whole number of seconds from 0 to 3600').waitFor();
    await field.fill('15');
    await page.getByRole('button', { name: 'Save e-mail settings' }).click();
    await page.getByText('E-mail settings saved.').waitFor();
    await expectAccessible(page, 'settings with the undo window');
    const saved = await call(`${env.origin}/api/v1/projects/${projectId}/notification-settings`, {
      headers: { cookie },
    });
    assert.deepEqual(saved.body, { undoWindowSeconds: 15, projectValue: 15 });
    await page.context().close();
  });

  it("exports a person's data as a JSON download and erases them behind a confirmation", async () => {
    const token = ssoToken(secret, { sub: 'u-erase', email: 'oskar.erasmus@globex.test', name: 'Oskar Erasmus' });
    const voter = await env.browser.newPage();
    await voter.goto(`${boardUrl}/sso?token=${token}&return=${encodeURIComponent(`/ideas/${quietId}`)}`);
    await voter.getByText('Signed in as Oskar Erasmus').waitFor();
    await voter.getByRole('button', { name: 'Vote' }).click();
    await voter.getByRole('button', { name: 'Remove vote' }).waitFor();
    await voter.close();
    const votesBefore = (
      await call(`${env.origin}/api/public/v1/features/${quietId}`, { headers: { 'x-api-key': key } })
    ).body.voteCount;

    const page = await dashboardPage();
    await page.goto(`${env.origin}/app/projects/${projectId}/people?q=erasmus`);
    await page.getByRole('table', { name: 'People' }).getByRole('link', { name: 'Oskar Erasmus' }).click();
    await page.getByRole('heading', { level: 1, name: 'Oskar Erasmus' }).waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export their data (JSON)' }).click(),
    ]);
    const exported = JSON.parse(readFileSync((await download.path())!, 'utf8'));
    assert.equal(exported.person.email, 'oskar.erasmus@globex.test');
    assert.deepEqual(
      exported.votes.map((v: { featureId: string }) => v.featureId),
      [quietId],
    );

    await page.getByRole('button', { name: 'Erase person' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Erase Oskar Erasmus?' });
    await dialog.getByText('Their ideas and comments stay, without their name.').waitFor();
    await expectAccessible(page, 'erase person dialog');
    await dialog.getByRole('button', { name: 'Erase', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'People' }).waitFor();
    const left = await call(`${env.origin}/api/v1/projects/${projectId}/people?q=erasmus`, { headers: { cookie } });
    assert.deepEqual(left.body.people, []);
    const after = await call(`${env.origin}/api/public/v1/features/${quietId}`, { headers: { 'x-api-key': key } });
    assert.equal(after.body.voteCount, votesBefore, 'their vote still counts');
    await page.context().close();
  });

  it('merges a duplicate person into the one kept from the person page', async () => {
    const publicApi = (path: string, init: { method?: string; body?: unknown } = {}) =>
      call(`${env.origin}/api/public/v1${path}`, { ...init, headers: { 'x-api-key': key } });
    await publicApi('/features', {
      body: { title: 'Shared drafts', description: 'Draft together.', contactEmail: 'mira.merge@globex.test' },
    });
    await publicApi(`/features/${quietId}/votes/app-mira`, { method: 'PUT' });
    const votes = await call(`${env.origin}/api/v1/projects/${projectId}/features/${quietId}/votes`, {
      headers: { cookie },
    });
    const duplicate = votes.body.votes.find((v: { voterId: string }) => v.voterId === 'app-mira').person.id;

    const page = await dashboardPage();
    await page.goto(`${env.origin}/app/projects/${projectId}/people/${duplicate}`);
    await page.getByRole('heading', { level: 1, name: 'Unnamed person' }).waitFor();
    await page.getByRole('button', { name: 'Merge into…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Merge Unnamed person into…' });
    await dialog.getByRole('searchbox', { name: 'Find the person to keep' }).fill('mira.merge');
    await dialog.getByRole('button', { name: 'Keep mira.merge@globex.test' }).click();
    await expectAccessible(page, 'merge person dialog');
    await dialog.getByRole('button', { name: 'Merge into mira.merge@globex.test' }).click();
    await page.getByRole('heading', { level: 1, name: 'mira.merge@globex.test' }).waitFor();
    await page.getByRole('heading', { name: 'Votes (1)' }).waitFor();
    await page.getByRole('heading', { name: 'Ideas (1)' }).waitFor();
    const gone = await fetch(`${env.origin}/api/v1/projects/${projectId}/people/${duplicate}`, {
      headers: { cookie, accept: 'application/json' },
    });
    assert.equal(gone.status, 404);
    await page.context().close();
  });

  it("downloads the project's export from its settings", async () => {
    const page = await dashboardPage();
    await page.goto(`${env.origin}/app/projects/${projectId}/settings`);
    await page.getByRole('heading', { name: 'Export' }).waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download export (zip)' }).click(),
    ]);
    assert.match(download.suggestedFilename(), /\.zip$/);
    const entries = unzipSync(readFileSync((await download.path())!));
    const manifest = JSON.parse(new TextDecoder().decode(entries['manifest.json']));
    assert.equal(manifest.projectId, projectId);
    assert.ok(new TextDecoder().decode(entries['tables/features.jsonl']).includes(ideaId));
    await page
      .getByRole('status')
      .filter({ hasText: /Downloaded .+\.zip/ })
      .waitFor();
    await expectAccessible(page, 'settings with the export');
    await page.context().close();
  });
});
