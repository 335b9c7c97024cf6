import { createServer } from 'node:net';
import { type Mailbox, startMailbox } from '@signpost/server/testing/mailbox';
import { startTestServer, type TestServer } from '@signpost/server/testing';
import { type Browser, chromium, type Page } from 'playwright-core';

export interface DashboardEnv {
  server: TestServer;
  mailbox: Mailbox;
  browser: Browser;
  /** `http://127.0.0.1:<port>`, the server's PUBLIC_URL too. */
  origin: string;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** `env`: extra server settings (an identity provider, …). */
export async function startDashboardEnv(env: Record<string, string> = {}): Promise<DashboardEnv> {
  const mailbox = await startMailbox();
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const server = await startTestServer({
    env: { PORT: String(port), PUBLIC_URL: origin, SMTP_URL: mailbox.url, SESSION_COOKIE_SECURE: 'false', ...env },
  });
  const browser = await chromium.launch({ executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium' });
  return {
    server,
    mailbox,
    browser,
    origin,
    close: async () => {
      await browser.close();
      await server.close();
      await mailbox.close();
    },
  };
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
