import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { bundle } from '@signpost/test-support/bundle';
import { sdkTestEnv } from '@signpost/test-support/env';
import { platformKey } from './support/platform.ts';

const NONCE = 'r4nd0mN0nce';
export const SCREENSHOTS = join(tmpdir(), 'signpost-widget-screenshots');

const { server, browser, site } = await sdkTestEnv({ browser: true, site: true });
const apiKey = await platformKey(server);
site.serve(
  '/widget.js',
  await bundle(
    `import { defineFeedbackWidget } from '@signpost/feature-reporter/widget';
     window.events = [];
     for (const type of ['signpost-feedback-submit', 'signpost-feedback-error', 'signpost-feedback-open', 'signpost-feedback-close'])
       document.addEventListener(type, (e) => window.events.push({ type, id: e.detail.feature?.id }));
     defineFeedbackWidget();`,
    import.meta.dirname,
  ),
);
site.serve('/', {
  headers: {
    'content-security-policy': `default-src 'self'; style-src 'nonce-${NONCE}'; connect-src ${server.origin}`,
  },
  body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Widget test</title>
      <style nonce="${NONCE}">body { font-family: system-ui; margin: 40px; } .themed { --signpost-accent: rgb(200, 0, 0); }</style></head>
      <body><main><h1>An app</h1><button id="before">Before</button></main>
      <signpost-feedback api-key="${apiKey}" base-url="${server.baseUrl}" nonce="${NONCE}"></signpost-feedback>
      <script type="module" src="/widget.js"></script></body></html>`,
});
mkdirSync(SCREENSHOTS, { recursive: true });

async function openPage(options: { colorScheme?: 'light' | 'dark' } = {}): Promise<Page> {
  const context = await browser.newContext({
    colorScheme: options.colorScheme ?? 'light',
    viewport: { width: 900, height: 720 },
  });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  page.on('pageerror', (e) => problems.push(String(e)));
  await page.goto(`${site.origin}/`);
  await page.waitForFunction(() => customElements.get('signpost-feedback') !== undefined);
  (page as Page & { problems: string[] }).problems = problems;
  return page;
}

/** Describes the deeply focused element: `part` attribute, name or tag. */
const focused = (page: Page) =>
  page.evaluate(() => {
    let el = document.activeElement;
    while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
    return el?.getAttribute('part') ?? el?.getAttribute('name') ?? el?.id ?? el?.tagName ?? null;
  });

const dialogOpen = (page: Page) =>
  page.evaluate(() => document.querySelector('signpost-feedback')!.shadowRoot!.querySelector('dialog')!.open);

describe('feedback widget in Chromium', () => {
  test('keyboard: opens from the trigger, Escape closes and focus returns; too-short title is explained; submission arrives public with channel widget', async () => {
    const page = await openPage();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    assert.equal(await focused(page), 'trigger');
    await page.keyboard.press('Enter');
    assert.equal(await dialogOpen(page), true);
    assert.equal(await focused(page), 'type', 'focus moves into the dialog, on the first control');
    const labelled = await page.evaluate(() => {
      const root = document.querySelector('signpost-feedback')!.shadowRoot!;
      const dialog = root.querySelector('dialog')!;
      return root.getElementById(dialog.getAttribute('aria-labelledby')!)?.textContent;
    });
    assert.equal(labelled, 'Send feedback');
    assert.equal(await page.locator('signpost-feedback .trigger').getAttribute('aria-expanded'), 'true');

    await page.keyboard.press('Escape');
    assert.equal(await dialogOpen(page), false);
    assert.equal(await focused(page), 'trigger', 'focus is restored to the trigger');

    await page.keyboard.press('Enter');
    await page.keyboard.press('ArrowRight'); // Idea -> Bug
    await page.keyboard.press('Tab');
    assert.equal(await focused(page), 'input');
    await page.keyboard.type('Hi');
    await page.keyboard.press('Tab');
    await page.keyboard.type('The export button does nothing on Safari.');
    await page.keyboard.press('Enter'); // new line in the textarea, not a submit
    await page.locator('signpost-feedback .submit').click();
    const titleError = page.locator('signpost-feedback [id$="-title-error"]');
    assert.equal(await titleError.isVisible(), true);
    assert.equal(await titleError.textContent(), 'Please write at least 4 characters.');
    assert.equal(await page.locator('signpost-feedback input[name="title"]').getAttribute('aria-invalid'), 'true');
    assert.equal(await focused(page), 'input', 'focus goes to the field to fix');
    await page.waitForFunction(
      () =>
        document.querySelector('signpost-feedback')!.shadowRoot!.querySelector('[role="status"]')!.textContent ===
        'Please correct the marked fields.',
    );
    const before = await server.db.all('SELECT id FROM features WHERE project_id = ?', [server.platformProjectId]);

    await page.keyboard.type(' there, export is broken');
    await titleError.waitFor({ state: 'hidden', timeout: 2000 }); // the message goes once the title is long enough
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Shift+Tab');
    await page.locator('signpost-feedback input[name="contactEmail"]').fill('ada@example.com');
    await page.locator('signpost-feedback input[name="contactEmail"]').press('Enter');
    await page.locator('signpost-feedback .done').waitFor({ state: 'visible' });
    assert.equal(await focused(page), 'submit done-button', 'focus moves to Done, described by the thank-you text');
    await page.waitForFunction(() =>
      document
        .querySelector('signpost-feedback')!
        .shadowRoot!.querySelector('[role="status"]')!
        .textContent!.includes('Thank you'),
    );

    const rows = await server.db.all<{
      id: string;
      title: string;
      type: string;
      channel: string;
      internal: number;
      contact_email: string;
      metadata: string;
    }>(
      'SELECT id, title, type, channel, internal, contact_email, metadata FROM features WHERE project_id = ? ORDER BY created_at',
      [server.platformProjectId],
    );
    assert.equal(rows.length, before.length + 1);
    const stored = rows.at(-1)!;
    assert.equal(stored.title, 'Hi there, export is broken');
    assert.equal(stored.type, 'bug');
    assert.equal(stored.channel, 'widget');
    assert.equal(stored.internal, 0, "public even with the platform project's key");
    assert.equal(stored.contact_email, 'ada@example.com');
    assert.equal(JSON.parse(stored.metadata).url, `${site.origin}/`);
    const events = await page.evaluate(
      () => (window as unknown as { events: Array<{ type: string; id?: string }> }).events,
    );
    assert.deepEqual(
      events.find((e) => e.type === 'signpost-feedback-submit'),
      { type: 'signpost-feedback-submit', id: stored.id },
    );

    await page.keyboard.press('Enter'); // "Done"
    assert.equal(await dialogOpen(page), false);
    assert.equal(await focused(page), 'trigger');
    assert.deepEqual((page as Page & { problems: string[] }).problems, [], 'no CSP violations or errors');
    await page.context().close();
  });

  test('a failed submission is announced as an alert and reported', async () => {
    const page = await openPage();
    await page.evaluate(() => {
      const el = document.querySelector('signpost-feedback')!;
      el.configure({
        apiKey: 'svc_live_revoked_key',
        onError: (e: unknown) => ((window as unknown as { failure: string }).failure = String(e)),
      });
      el.open();
    });
    await page.locator('signpost-feedback input[name="title"]').fill('Valid title');
    await page.locator('signpost-feedback textarea').fill('A valid description here.');
    await page.locator('signpost-feedback .submit').click();
    const alert = page.locator('signpost-feedback [role="alert"]');
    await page.waitForFunction(() => !!(window as unknown as { failure?: string }).failure);
    assert.equal(await alert.textContent(), 'Your feedback could not be sent. Please try again.');
    assert.match(await page.evaluate(() => (window as unknown as { failure: string }).failure), /401/);
    assert.equal(
      await page.locator('signpost-feedback textarea').inputValue(),
      'A valid description here.',
      'the text is kept',
    );
    await page.context().close();
  });

  test('styles apply under a strict CSP through the nonce; themable by custom properties; light and dark', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const page = await openPage({ colorScheme });
      const trigger = page.locator('signpost-feedback .trigger');
      const look = () =>
        page.evaluate(() => {
          const root = document.querySelector('signpost-feedback')!.shadowRoot!;
          const cs = (sel: string) => getComputedStyle(root.querySelector(sel)!);
          return {
            trigger: cs('.trigger').backgroundColor,
            position: cs('.trigger').position,
            dialog: cs('dialog').backgroundColor,
            text: cs('dialog').color,
          };
        });
      const styles = await look();
      assert.equal(styles.position, 'fixed', 'the stylesheet applied (nonce accepted)');
      assert.equal(styles.trigger, colorScheme === 'light' ? 'rgb(79, 70, 229)' : 'rgb(139, 133, 255)');
      assert.equal(styles.dialog, colorScheme === 'light' ? 'rgb(255, 255, 255)' : 'rgb(27, 30, 39)');
      await trigger.click();
      await page.locator('signpost-feedback input[name="title"]').fill('Hi');
      await page.locator('signpost-feedback textarea').fill('Dark mode for the reports page, please.');
      await page.locator('signpost-feedback .submit').click();
      await page.screenshot({ path: join(SCREENSHOTS, `widget-${colorScheme}.png`) });
      await page.keyboard.press('Escape');
      await page.evaluate(() => document.querySelector('signpost-feedback')!.classList.add('themed'));
      assert.equal((await look()).trigger, 'rgb(200, 0, 0)', '--signpost-accent themes the widget');
      await page.context().close();
    }
  });
});
