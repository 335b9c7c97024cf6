import { type BrowserEnv, startBrowserEnv } from '@signpost/server/testing/browser-env';
import type { Browser, Page } from 'playwright-core';

/** The server, SMTP capture and Chromium the dashboard's tests share with the board's. */
export type DashboardEnv = BrowserEnv;

/** `env`: extra server settings (an identity provider, …). */
export function startDashboardEnv(env: Record<string, string> = {}): Promise<DashboardEnv> {
  return startBrowserEnv({ env });
}

/** axe-core in the page: the server's test helper, shared with the board's tests. */
export { assertAccessible as expectAccessible } from '@signpost/server/testing/axe';

/** A page that records script errors and Content-Security-Policy violations. */
export async function watchedPage(browser: Browser): Promise<{ page: Page; problems: string[] }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy|Refused to/i.test(message.text()))
      problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  return { page, problems };
}

/**
 * Waits until no button on the page is busy. A busy button ignores presses (`Button` in ui.tsx),
 * and a status change keeps its buttons busy until the page has read the change back, after the
 * new status already shows: a click in between does nothing (seen on a loaded machine).
 */
export async function untilButtonsIdle(page: Page): Promise<void> {
  await page.locator('button[aria-busy="true"]').first().waitFor({ state: 'detached' });
}

/**
 * Runs one step of a page (`act`, then `until`) and, when it fails, says what the page did
 * meanwhile: the API calls it made with their answers, and the text of `section` (a status
 * change that did nothing once in several whole runs on a loaded machine, cause unknown).
 */
export async function explained(page: Page, section: string, act: () => Promise<void>, until: () => Promise<void>) {
  const calls: string[] = [];
  const started = Date.now();
  const onResponse = (response: { url(): string; status(): number; request(): { method(): string } }) => {
    const url = new URL(response.url());
    if (url.pathname.startsWith('/api/'))
      calls.push(`${Date.now() - started} ms ${response.request().method()} ${url.pathname} → ${response.status()}`);
  };
  page.on('response', onResponse);
  try {
    await act();
    await until();
  } catch (error) {
    const shown = await page
      .locator(section)
      .first()
      .evaluate((element) => element.outerHTML)
      .catch(() => '(section not found)');
    throw new Error(`${(error as Error).message}\nAPI calls:\n${calls.join('\n')}\nSection:\n${shown}`);
  } finally {
    page.off('response', onResponse);
  }
}
