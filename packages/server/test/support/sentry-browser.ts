/**
 * What the tests of the real @sentry/browser in Chromium share: a test server with a managed
 * project and its DSN, a site of another origin (`localhost`, not the server's `127.0.0.1`) whose
 * pages the test writes, and Chromium; `sentryBundle()` is @sentry/browser as one script
 * (`window.Sentry`) for such a page.
 */
import { createServer, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Browser } from 'playwright-core';
import { launchChromium } from './browser-env.ts';
import { type ManagedProject, managedProject } from './manage-fixtures.ts';
import { startTestServer, type TestServer } from './server.ts';

const HERE = fileURLToPath(new URL('.', import.meta.url));

/** @sentry/browser bundled as an IIFE exposing `Sentry`, for a `<script src>`. */
export async function sentryBundle(): Promise<string> {
  const result = await build({
    stdin: { contents: "export * from '@sentry/browser';", resolveDir: HERE, loader: 'js' },
    bundle: true,
    format: 'iife',
    globalName: 'Sentry',
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

/** What the site answers to one request: a content type and a body. */
export type SiteResponse = { type: string; body: string };

export interface SentryBrowserEnv {
  server: TestServer;
  project: ManagedProject;
  /** The project's DSN with its live key, on the test server. */
  dsn: string;
  /** The site's origin, another one than the server's. */
  siteOrigin: string;
  browser: Browser;
  close(): Promise<void>;
}

/** Starts the server, a project, the site (`respond` answers each request by its URL) and Chromium. */
export async function startSentryBrowserEnv(
  respond: (url: URL, dsn: string) => SiteResponse,
): Promise<SentryBrowserEnv> {
  const server = await startTestServer();
  const project = await managedProject(server);
  const number = (await server.db.get<{ ingest_number: number }>('SELECT ingest_number FROM projects WHERE id = ?', [
    project.projectId,
  ]))!.ingest_number;
  const dsn = `${server.origin.replace('://', `://${project.liveKey}@`)}/${number}`;
  const site: Server = createServer((request, response) => {
    const { type, body } = respond(new URL(request.url ?? '/', 'http://site'), dsn);
    response.writeHead(200, { 'content-type': type }).end(body);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  const siteOrigin = `http://localhost:${(site.address() as { port: number }).port}`;
  const browser = await launchChromium();
  return {
    server,
    project,
    dsn,
    siteOrigin,
    browser,
    close: async () => {
      await browser.close();
      await new Promise((resolve) => site.close(resolve));
      await server.close();
    },
  };
}
