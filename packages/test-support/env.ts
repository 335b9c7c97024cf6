/**
 * What an SDK test file runs against, started once per file (top-level `await`) and closed after
 * the file's tests: a real Signpost test server (`@signpost/server/testing`), and on request a
 * project on it, the network proxy in front of it (proxy.ts), headless Chromium and the static
 * test site (browser.ts).
 *
 *   const { server, browser, site } = await sdkTestEnv({ browser: true, site: true });
 *
 * A file that must close something of its own before the server (a client still polling)
 * registers its `after` hook before this call: `after` hooks run in the order they were added.
 */
import { after } from 'node:test';
import { startTestServer, type TestProject, type TestServer } from '@signpost/server/testing';
import type { Browser } from 'playwright-core';
import { launchChromium, startStaticServer, type StaticServer } from './browser.ts';
import { startProxy, type TestProxy } from './proxy.ts';

export interface SdkTestEnv {
  server: TestServer;
  /** A fresh project on `server` (`project: true`). */
  project: TestProject;
  /** The network proxy in front of `server` (`proxy: true`). */
  proxy: TestProxy;
  /** Headless Chromium, one per file (`browser: true`). */
  browser: Browser;
  /** The static test site (`site: true`). */
  site: StaticServer;
}

export interface SdkTestEnvOptions {
  project?: boolean;
  proxy?: boolean;
  browser?: boolean;
  site?: boolean;
}

type Wanted<O extends SdkTestEnvOptions> = {
  [K in keyof O & keyof SdkTestEnv as O[K] extends true ? K : never]: SdkTestEnv[K];
};

export async function sdkTestEnv<O extends SdkTestEnvOptions = Record<never, never>>(
  options: O = {} as O,
): Promise<Pick<SdkTestEnv, 'server'> & Wanted<O>> {
  const [server, browser, site] = await Promise.all([
    startTestServer(),
    options.browser ? launchChromium() : undefined,
    options.site ? startStaticServer() : undefined,
  ]);
  let proxy: TestProxy | undefined;
  after(async () => {
    await proxy?.close();
    await browser?.close();
    await site?.close();
    await server.close();
  });
  const env: Partial<SdkTestEnv> = { server };
  if (browser) env.browser = browser;
  if (site) env.site = site;
  if (options.project) env.project = await server.createProject();
  if (options.proxy) env.proxy = proxy = await startProxy(server.origin);
  return env as Pick<SdkTestEnv, 'server'> & Wanted<O>;
}
