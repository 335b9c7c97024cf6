/**
 * Widget v2 (issue 35) as a user ships it: `@signpost/feature-reporter/widget` and
 * `@signpost/error-tracker` packed, installed with npm into a new app and built with Vite (so the
 * screenshot library becomes its own chunk), in Chromium, against a real server, under a
 * Content-Security-Policy.
 * The host app's "server" signs the identity token with the project's board SSO secret.
 */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { build } from 'vite';
import { assertAccessible } from '@signpost/server/testing/axe';
import { managedProject } from '@signpost/server/testing/manage-fixtures';
import { sdkTestEnv } from '@signpost/test-support/env';
// The server exports only its app and test harness; the secret helper comes from its source.
import { rotateSsoSecret } from '../../server/src/resources/board/sso-secret.ts';
import { packedApp } from './support/packed-app.ts';

const SCREENSHOTS = join(tmpdir(), 'signpost-widget-screenshots');
mkdirSync(SCREENSHOTS, { recursive: true });
const NONCE = 'v2N0nce';
const { server, browser, site } = await sdkTestEnv({ browser: true, site: true });
const project = await managedProject(server);
const { secret } = await rotateSsoSecret(server.db, { secretKey: undefined }, project.projectId);

/** What the host app's server does: an HS256 JWT of the signed-in user, with the board SSO secret. */
function signIdentity(key: string, user: { sub: string; email: string; name: string }) {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  const data = `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ ...user, iat: now, exp: now + 3600 })}`;
  return `${data}.${createHmac('sha256', key).update(data).digest('base64url')}`;
}
const adaToken = signIdentity(secret, { sub: 'u-1', email: 'ada@example.com', name: 'Ada' });

// The app: the packed packages installed with npm, its own code importing them; Vite bundles it.
const appDir = packedApp(['sdk-core', 'error-tracker', 'feature-reporter']);
writeFileSync(
  join(appDir, 'index.html'),
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>App</title></head><body><script type="module" src="./main.js"></script></body></html>',
);
writeFileSync(
  join(appDir, 'main.js'),
  `import { defineFeedbackWidget } from '@signpost/feature-reporter/widget';
   import { init, captureException } from '@signpost/error-tracker';
   const config = document.getElementById('config').dataset;
   init({ apiKey: config.key, baseUrl: config.base, release: 'web@1.2.3', captureUnhandled: false, breadcrumbs: false, sessions: false });
   window.lastError = captureException(new Error('Chart failed to render')).then((r) => r && r.id);
   window.votes = [];
   document.addEventListener('signpost-feedback-vote', (e) => window.votes.push(e.detail));
   defineFeedbackWidget();
   if (config.token) document.querySelector('signpost-feedback').identify({ id: 'u-1', email: 'ada@example.com', name: 'Ada', token: config.token });`,
);
await build({
  root: appDir,
  configFile: false,
  logLevel: 'silent',
  build: { outDir: join(appDir, 'dist'), emptyOutDir: true },
});
const assets = readdirSync(join(appDir, 'dist', 'assets'));
for (const file of assets) site.serve(`/assets/${file}`, readFileSync(join(appDir, 'dist', 'assets', file), 'utf8'));
const builtHtml = readFileSync(join(appDir, 'dist', 'index.html'), 'utf8');

const CSP = `default-src 'self'; style-src 'nonce-${NONCE}'; img-src 'self' data: blob:; connect-src ${server.origin}`;
function servePage(path: string, options: { token?: string; lang?: string } = {}) {
  const body = builtHtml.replace('<html lang="en">', `<html lang="${options.lang ?? 'en'}">`).replace(
    '<body>',
    `<body><style nonce="${NONCE}">body { font-family: system-ui; margin: 40px; } .chart { width: 300px; height: 120px; background: #e8eefc; }</style>
      <main><h1>Reports</h1><div class="chart">Chart</div></main>
      <div id="config" data-key="${project.liveKey}" data-base="${server.baseUrl}" data-token="${options.token ?? ''}" hidden></div>
      <signpost-feedback nonce="${NONCE}" api-key="${project.liveKey}" base-url="${server.baseUrl}"></signpost-feedback>`,
  );
  site.serve(path, { body, headers: { 'content-security-policy': CSP } });
}
servePage('/', { token: adaToken });
servePage('/anonymous');
servePage('/forged', {
  token: signIdentity('not-the-projects-secret-0123456789', { sub: 'u-1', email: 'ada@example.com', name: 'Ada' }),
});
servePage('/de', { token: adaToken, lang: 'de' });

const dark = (
  await project.live.post('/features', {
    title: 'Dark mode for reports',
    description: 'A dark theme for the reports page, please.',
  })
).body.id as string;
await project.live.patch(`/features/${dark}`, { status: 'planned' });

async function openPage(path: string, colorScheme: 'light' | 'dark' = 'light') {
  const context = await browser.newContext({ colorScheme, viewport: { width: 900, height: 760 } });
  const page = await context.newPage();
  const problems: string[] = [];
  const requests: string[] = [];
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  page.on('pageerror', (e) => problems.push(String(e)));
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(`${site.origin}${path}`);
  await page.waitForFunction(() => customElements.get('signpost-feedback') !== undefined);
  return { page, problems, requests };
}

const inWidget = (page: Page, selector: string) => page.locator(`signpost-feedback ${selector}`);

async function typeTitle(page: Page, text: string) {
  await inWidget(page, '.trigger').click();
  await inWidget(page, 'input[name="title"]').pressSequentially(text);
  await inWidget(page, '.suggest li').first().waitFor();
}

describe('feedback widget v2 in a Vite app', () => {
  test('typing a title shows the similar idea with votes and status; a vote counts for the identified person', async () => {
    const { page, problems } = await openPage('/');
    await typeTitle(page, 'Drak mode please');
    const item = inWidget(page, '.suggest li').first();
    assert.match((await item.textContent())!, /Dark mode for reports/);
    assert.match((await item.textContent())!, /Planned/);
    assert.match((await item.textContent())!, /0 votes/);
    await page.waitForFunction(() =>
      document
        .querySelector('signpost-feedback')!
        .shadowRoot!.querySelector('[role="status"]')!
        .textContent!.includes('1 similar ideas found.'),
    );
    const vote = item.locator('button.vote');
    await vote.focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(
      () =>
        document
          .querySelector('signpost-feedback')!
          .shadowRoot!.querySelector('button.vote')!
          .getAttribute('aria-pressed') === 'true',
    );
    assert.match((await item.textContent())!, /1 vote\b/);
    const user = await server.db.get<{ id: string }>('SELECT id FROM board_users WHERE project_id = ? AND email = ?', [
      project.projectId,
      'ada@example.com',
    ]);
    const votes = await server.db.all<{ voter_id: string }>('SELECT voter_id FROM votes WHERE feature_id = ?', [dark]);
    assert.deepEqual(
      votes.map((v) => v.voter_id),
      [`board:${user!.id}`],
      'the vote is the person’s board vote',
    );
    assert.equal((await project.live.get(`/features/${dark}`)).body.voteCount, 1);
    await page.screenshot({ path: join(SCREENSHOTS, 'widget-v2-suggestions.png') });

    // Filing anyway, as Ada: the idea is hers and shows in "My ideas" with its status.
    await inWidget(page, 'textarea').fill('Also for the exported PDF files, please.');
    await inWidget(page, '.submit').click();
    await inWidget(page, '.done').waitFor({ state: 'visible' });
    await inWidget(page, '.mine-toggle').click();
    await inWidget(page, '.mine li').first().waitFor();
    assert.deepEqual(await inWidget(page, '.mine li .s-title').allTextContents(), ['Drak mode please']);
    assert.deepEqual(await inWidget(page, '.mine li .badge').allTextContents(), ['Open']);
    assert.deepEqual(problems, [], 'no CSP violations or errors');
    await page.context().close();
  });

  test('a bug with a screenshot and the last error’s event id arrives; the team sees both', async () => {
    const { page, problems, requests } = await openPage('/');
    const lastError = await page.evaluate(() => (window as unknown as { lastError: Promise<string> }).lastError);
    assert.match(lastError, /\S+/);
    const chunks = () => requests.filter((url) => url.includes('/assets/'));
    const upFront = chunks();
    assert.equal(upFront.length, 1, 'the app loads one chunk: the screenshot library is not in it');
    await inWidget(page, '.trigger').click();
    await inWidget(page, 'input[value="bug"]').check();
    await inWidget(page, 'input[name="title"]').fill('Chart is blank');
    await inWidget(page, 'textarea').fill('The chart shows nothing after I log in.');
    await inWidget(page, '.shot-add').click();
    await inWidget(page, '.shot figure').waitFor({ state: 'visible', timeout: 30_000 });
    const lazy = chunks().filter((url) => !upFront.includes(url));
    assert.equal(lazy.length, 1, 'the screenshot library is a chunk of its own, loaded on the first click');
    assert.match(await (await fetch(lazy[0]!)).text(), /foreignObject/);
    // Removing and taking it again: the user decides what is sent.
    await inWidget(page, '.shot-remove').click();
    assert.equal(await inWidget(page, '.shot figure').isVisible(), false);
    await inWidget(page, '.shot-add').click();
    await inWidget(page, '.shot figure').waitFor({ state: 'visible', timeout: 30_000 });
    await page.screenshot({ path: join(SCREENSHOTS, 'widget-v2-bug-screenshot.png') });
    await inWidget(page, '.submit').click();
    await inWidget(page, '.done').waitFor({ state: 'visible', timeout: 30_000 });

    const bug = await server.db.get<{ id: string; type: string; metadata: string }>(
      "SELECT id, type, metadata FROM features WHERE project_id = ? AND title = 'Chart is blank'",
      [project.projectId],
    );
    assert.equal(bug?.type, 'bug');
    const base = `/projects/${project.projectId}/features/${bug!.id}`;
    const managed = await project.member.get(base);
    assert.deepEqual(
      { ...managed.body.metadata },
      { url: `${site.origin}/`, release: 'web@1.2.3', errorEventId: lastError },
    );
    const list = await project.member.get(`${base}/attachments`);
    assert.equal(list.body.attachments.length, 1);
    assert.equal(list.body.attachments[0].contentType, 'image/jpeg');
    const image = await fetch(`${server.origin}/api/v1${base}/attachments/${list.body.attachments[0].id}`, {
      headers: project.member.headers,
    });
    assert.equal(image.status, 200);
    const bytes = Buffer.from(await image.arrayBuffer());
    assert.deepEqual([...bytes.subarray(0, 3)], [0xff, 0xd8, 0xff], 'a JPEG');
    writeFileSync(join(SCREENSHOTS, 'widget-v2-attachment.jpg'), bytes);
    assert.deepEqual(problems, []);
    await page.context().close();
  });

  test('a forged identity token is refused: the vote is not counted and the user is told', async () => {
    const { page } = await openPage('/forged');
    await typeTitle(page, 'Dark mode');
    const before = (await project.live.get(`/features/${dark}`)).body.voteCount;
    await inWidget(page, '.suggest li').filter({ hasText: 'Dark mode for reports' }).locator('button.vote').click();
    const alert = inWidget(page, '[role="alert"]');
    await page.waitForFunction(
      () => !!document.querySelector('signpost-feedback')!.shadowRoot!.querySelector('[role="alert"]')!.textContent,
    );
    assert.equal(await alert.textContent(), 'Please sign in to vote.');
    assert.equal((await project.live.get(`/features/${dark}`)).body.voteCount, before);
    assert.equal(await inWidget(page, '.suggest button.vote').first().getAttribute('aria-pressed'), 'false');
    // Anonymous (no identify) on a board without anonymous votes: the same answer.
    const anonymous = await openPage('/anonymous');
    await typeTitle(anonymous.page, 'Dark mode');
    assert.equal(await inWidget(anonymous.page, '.mine-toggle').count(), 0, 'no "my ideas" without identity');
    await page.context().close();
    await anonymous.page.context().close();
  });

  test('axe clean in light and dark with suggestions, screenshot and my ideas showing; German texts', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const { page } = await openPage('/', colorScheme);
      await typeTitle(page, 'Dark mode');
      await assertAccessible(page, `widget v2 suggestions (${colorScheme})`);
      await inWidget(page, 'input[value="bug"]').check();
      await inWidget(page, '.shot-add').click();
      await inWidget(page, '.shot figure').waitFor({ state: 'visible', timeout: 30_000 });
      await assertAccessible(page, `widget v2 bug with screenshot (${colorScheme})`);
      await inWidget(page, '.mine-toggle').click();
      await inWidget(page, '.mine li').first().waitFor();
      await assertAccessible(page, `widget v2 my ideas (${colorScheme})`);
      await page.screenshot({ path: join(SCREENSHOTS, `widget-v2-mine-${colorScheme}.png`) });
      await page.context().close();
    }
    const { page } = await openPage('/de');
    await typeTitle(page, 'Dark mode');
    assert.match((await inWidget(page, '.suggest p').textContent())!, /Ähnliche Ideen/);
    assert.equal(await inWidget(page, '.suggest button.vote').first().textContent(), 'Abgestimmt');
    await assertAccessible(page, 'widget v2 German');
    await page.context().close();
  });
});
