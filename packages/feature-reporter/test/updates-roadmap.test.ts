/**
 * "What's new" and the roadmap embed as a user installs them (issue 35): both packages packed with
 * `npm pack`, installed into a fresh app with npm, built with Vite, served under a strict CSP and
 * run in Chromium against a real server. Two published entries show 2 unread; opening the panel
 * makes it 0, and a second browser context for the same identified person shows the same count; an
 * announcement pops up once; the roadmap shows only public items and takes votes; axe is clean in
 * light and dark.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { SignJWT } from 'jose';
import type { Browser, Page } from 'playwright-core';
import { build } from 'vite';
import { sdkTestEnv } from '@signpost/test-support/env';
import { insertEntry } from '../../server/src/resources/changelog/index.ts';
import { createApiKey } from '../../server/src/resources/projects/index.ts';
import { updateBoard } from '../../server/src/resources/board/index.ts';
import { rotateSsoSecret } from '../../server/src/resources/board/sso-secret.ts';
import { assertAccessible } from '../../server/test/support/axe.ts';
import { packedApp } from './support/packed-app.ts';

const NONCE = 'upd4tesN0nce';
const { server, browser, site } = await sdkTestEnv({ browser: true, site: true });
const project = await server.createProject();
const { key: publishableKey } = await createApiKey(
  server.db,
  project.projectId,
  'live',
  ['features:read', 'features:write'],
  { publishable: true },
);
const { key: readOnlyKey } = await createApiKey(server.db, project.projectId, 'live', ['features:read'], {
  publishable: true,
});
const { secret } = await rotateSsoSecret(server.db, { secretKey: undefined }, project.projectId);

const app = packedApp(['sdk-core', 'feature-reporter']);
writeFileSync(
  join(app, 'index.html'),
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>An app</title></head>
  <body><main><h1>An app</h1><signpost-roadmap voting nonce="${NONCE}"></signpost-roadmap></main>
  <signpost-updates nonce="${NONCE}"></signpost-updates>
  <script type="module" src="/main.js"></script></body></html>`,
);
writeFileSync(
  join(app, 'main.js'),
  `import { defineUpdatesWidget } from '@signpost/feature-reporter/updates';
   import { defineRoadmapWidget } from '@signpost/feature-reporter/roadmap';
   const q = new URLSearchParams(location.search);
   for (const el of document.querySelectorAll('signpost-updates, signpost-roadmap')) {
     el.setAttribute('api-key', q.get('key'));
     el.setAttribute('base-url', q.get('api'));
   }
   if (q.get('token')) document.querySelector('signpost-updates').setAttribute('user-token', q.get('token'));
   if (q.get('lang')) document.documentElement.lang = q.get('lang');
   window.seen = 0;
   document.addEventListener('signpost-updates-seen', () => window.seen++);
   defineUpdatesWidget();
   defineRoadmapWidget();`,
);
await build({ root: app, configFile: false, logLevel: 'warn', build: { outDir: join(app, 'dist') } });
const csp = `default-src 'self'; style-src 'nonce-${NONCE}'; connect-src ${server.origin}`;
site.serve('/', {
  headers: { 'content-security-policy': csp },
  body: readFileSync(join(app, 'dist', 'index.html'), 'utf8'),
});
for (const file of readdirSync(join(app, 'dist', 'assets')))
  site.serve(`/assets/${file}`, readFileSync(join(app, 'dist', 'assets', file), 'utf8'));

async function userToken(sub: string): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(sub)
    .setIssuedAt(now)
    .setExpirationTime(now + 600)
    .sign(new TextEncoder().encode(secret));
}

async function publish(summary: string, announcement = false): Promise<string> {
  return server.db.transaction((tx) =>
    insertEntry(tx, project.projectId, {
      summary,
      description: '',
      featureId: null,
      statusKey: 'new',
      published: true,
      announcement,
    }),
  );
}

type Watched = Page & { problems: string[] };

/** axe, whose own probes (inline styles it adds) the page's CSP refuses: those reports are axe's, not ours. */
async function accessible(page: Watched, label: string): Promise<void> {
  const before = page.problems.length;
  await assertAccessible(page, label);
  page.problems.splice(before);
}

async function openApp(
  options: { token?: string; key?: string; colorScheme?: 'light' | 'dark'; lang?: string; on?: Browser } = {},
): Promise<Watched> {
  const context = await browser.newContext({ colorScheme: options.colorScheme ?? 'light' });
  const page = (await context.newPage()) as Watched;
  page.problems = [];
  page.on('console', (m) => m.type() === 'error' && page.problems.push(m.text()));
  page.on('pageerror', (e) => page.problems.push(String(e)));
  const query = new URLSearchParams({ key: options.key ?? publishableKey, api: server.baseUrl });
  if (options.token) query.set('token', options.token);
  if (options.lang) query.set('lang', options.lang);
  await page.goto(`${site.origin}/?${query}`);
  return page;
}

/** The badge once the element has loaded: its text, '' when hidden. */
async function badge(page: Page): Promise<string> {
  await page.waitForFunction(() => {
    const root = document.querySelector('signpost-updates')?.shadowRoot;
    return root?.querySelector('.list li, .list p') !== null && root !== undefined;
  });
  return page.evaluate(() => {
    const el = document.querySelector('signpost-updates')!.shadowRoot!.querySelector<HTMLElement>('.badge')!;
    return el.hidden ? '' : el.textContent!;
  });
}

/** A fresh anonymous reader first sees the announcement of the second test: Escape closes it. */
async function dismissAnnouncement(page: Page): Promise<void> {
  await page.locator('signpost-updates dialog.pop').waitFor();
  await page.keyboard.press('Escape');
  await page.locator('signpost-updates dialog.pop').waitFor({ state: 'hidden' });
}

describe("What's new and the roadmap in a Vite app with the packed packages", () => {
  test('2 unread after two entries are published, 0 after opening, the same in a second context for the same person', async () => {
    const first = await openApp({ token: await userToken('ada') });
    assert.equal(await badge(first), '', 'nothing published yet');
    await publish('Dark mode');
    await publish('CSV export');

    await first.reload();
    assert.equal(await badge(first), '2');
    const second = await openApp({ token: await userToken('ada'), colorScheme: 'dark' });
    assert.equal(await badge(second), '2', 'the same person in another browser');
    const launcher = first.locator('signpost-updates .launcher');
    assert.equal(await launcher.getAttribute('aria-expanded'), 'false');
    assert.match((await launcher.textContent()) ?? '', /What's new.*2 unread/);
    await accessible(first, 'updates launcher, light');
    await accessible(second, 'updates launcher, dark');

    // Keyboard: the launcher opens the side sheet; it lists both with their board permalinks.
    await launcher.focus();
    await first.keyboard.press('Enter');
    await first.waitForFunction(() => (window as unknown as { seen: number }).seen === 1);
    assert.equal(await badge(first), '');
    const links = await first
      .locator('signpost-updates li a')
      .evaluateAll((as) => as.map((a) => [a.textContent, (a as HTMLAnchorElement).href]));
    assert.deepEqual(
      links.map(([text]) => text),
      ['CSV export', 'Dark mode'],
    );
    for (const [, href] of links) assert.match(href!, new RegExp(`/b/${project.projectId}/changelog/chg_`));
    assert.equal(await first.locator('signpost-updates li .new').count(), 2, 'what was new stays marked while open');
    await accessible(first, 'updates panel open, light');
    await first.keyboard.press('Escape');
    assert.equal(await first.evaluate(() => document.querySelector('signpost-updates')!.isOpen), false);

    await second.reload();
    assert.equal(await badge(second), '', 'the second context shows 0 for the same person');
    await second.locator('signpost-updates .launcher').click();
    await accessible(second, 'updates panel open, dark');

    // Someone else still has both unread; a forged token is refused and reported, nothing shown.
    const bob = await openApp({ token: await userToken('bob') });
    assert.equal(await badge(bob), '2');
    const forged = await openApp({ token: `${(await userToken('ada')).slice(0, -4)}AAAA` });
    await forged.waitForFunction(
      () => document.querySelector('signpost-updates')!.shadowRoot!.querySelector('[role="alert"]') !== null,
    );
    for (const page of [first, second, bob]) assert.deepEqual(page.problems, []);
    for (const page of [first, second, bob, forged]) await page.context().close();
  });

  test('an announcement pops up once; an anonymous reader keeps its marker in localStorage; German texts', async () => {
    await publish('Big launch', true);
    const page = await openApp({ lang: 'de' });
    const dialog = page.locator('signpost-updates dialog.pop');
    await dialog.waitFor();
    assert.match((await dialog.textContent()) ?? '', /Ankündigung.*Big launch.*Weiterlesen.*Verstanden/s);
    await accessible(page, 'announcement popup, German');
    await page.keyboard.press('Enter'); // "Verstanden" has the focus
    await page.waitForFunction(() => (window as unknown as { seen: number }).seen === 1);
    assert.equal(await dialog.isVisible(), false);
    assert.ok(await page.evaluate(() => Object.keys(localStorage).some((k) => k.startsWith('signpost.updates.seen:'))));
    await page.reload();
    assert.equal(await badge(page), '');
    assert.equal(await page.locator('signpost-updates dialog.pop').isVisible(), false, 'only once');
    assert.match((await page.locator('signpost-updates .launcher').textContent()) ?? '', /Neuigkeiten/);
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });

  test('the roadmap embed shows only public items and takes votes; a read-only key shows counts only', async () => {
    const make = async (title: string, internal: boolean) => {
      const api = `${server.baseUrl}/features`;
      const headers = { 'content-type': 'application/json', 'x-api-key': project.liveKey };
      const created = (await (
        await fetch(api, {
          method: 'POST',
          headers,
          body: JSON.stringify({ title, description: `${title}, described.`, internal }),
        })
      ).json()) as { id: string };
      const patched = await fetch(`${api}/${created.id}`, {
        method: 'PATCH',
        headers,
        body: JSON.stringify({ status: 'planned' }),
      });
      assert.equal(patched.status, 200);
    };
    await make('Public roadmap idea', false);
    await make('Internal roadmap idea', true);

    for (const colorScheme of ['light', 'dark'] as const) {
      const page = await openApp({ colorScheme });
      await dismissAnnouncement(page);
      const item = page.locator('signpost-roadmap li', { hasText: 'Public roadmap idea' });
      await item.waitFor();
      assert.equal(await page.locator('signpost-roadmap li', { hasText: 'Internal roadmap idea' }).count(), 0);
      assert.match((await page.locator('signpost-roadmap h3').first().textContent()) ?? '', /Planned \(1\)/);
      await accessible(page, `roadmap, ${colorScheme}`);
      if (colorScheme === 'light') {
        const vote = item.getByRole('button');
        assert.equal(await vote.getAttribute('aria-pressed'), 'false');
        await vote.click();
        await page.locator('signpost-roadmap li button[aria-pressed="true"]').waitFor();
        assert.match((await page.locator('signpost-roadmap li button').textContent()) ?? '', /1/);
      }
      assert.deepEqual(page.problems, []);
      await page.context().close();
    }

    // The board's iframe page, framed by another site: the same public items, axe clean in both schemes.
    await updateBoard(server.db, project.projectId, { enabled: true });
    const embedUrl = `${server.origin}/b/${project.projectId}/embed/roadmap`;
    site.serve(
      '/framed',
      `<!doctype html><html lang="en"><head><title>Framed</title></head>
      <body><h1>A site</h1><iframe src="${embedUrl}" title="Roadmap" width="900" height="600"></iframe></body></html>`,
    );
    for (const colorScheme of ['light', 'dark'] as const) {
      const context = await browser.newContext({ colorScheme });
      const host = await context.newPage();
      await host.goto(`${site.origin}/framed`);
      const frame = host.frameLocator('iframe');
      await frame.getByRole('link', { name: 'Public roadmap idea' }).waitFor();
      assert.equal(await frame.getByText('Internal roadmap idea').count(), 0);
      const embed = (await context.newPage()) as Watched;
      embed.problems = [];
      await embed.goto(embedUrl);
      await accessible(embed, `board embed page, ${colorScheme}`);
      await context.close();
    }

    const readOnly = await openApp({ key: readOnlyKey });
    await dismissAnnouncement(readOnly);
    await readOnly.locator('signpost-roadmap li button').click();
    await readOnly.waitForFunction(
      () => document.querySelector('signpost-roadmap')!.shadowRoot!.querySelector('button') === null,
    );
    assert.match((await readOnly.locator('signpost-roadmap li').textContent()) ?? '', /1 votes/);
    await readOnly.context().close();
  });
});
