/**
 * What the browser tests of the board and the dashboard share: a server on a known port (so
 * e-mailed links and the same-origin rule see the address the browser uses), the SMTP capture and
 * one Chromium, closed together.
 */
import { chromium, type Browser } from 'playwright-core';
import { startMailbox, type Mailbox } from './mailbox.ts';
import { freePort } from './mcp.ts';
import { startTestServer, type StartOptions, type TestServer } from './server.ts';

export interface BrowserEnv {
  server: TestServer;
  mailbox: Mailbox;
  browser: Browser;
  /** `http://127.0.0.1:<port>` */
  origin: string;
  close(): Promise<void>;
}

/** Debian's Chromium (`CHROMIUM_PATH` elsewhere), as every browser test of the server launches it. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium' });
}

export async function startBrowserEnv(options: StartOptions = {}): Promise<BrowserEnv> {
  const mailbox = await startMailbox();
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const server = await startTestServer({
    ...options,
    env: {
      PORT: String(port),
      PUBLIC_URL: origin,
      SMTP_URL: mailbox.url,
      SESSION_COOKIE_SECURE: 'false',
      ...options.env,
    },
  });
  const browser = await launchChromium();
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
