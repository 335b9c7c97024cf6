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
