/**
 * Browser test support for the SDK packages: headless Chromium (the system one, through
 * playwright-core) and a tiny static server on 127.0.0.1 that serves the monorepo's built packages
 * under `/packages/<name>/…` and test pages given as strings. Pages load the SDKs through an import
 * map and call the Signpost test server cross-origin.
 */
import { createServer, type Server } from 'node:http';
import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';

const PACKAGES_DIR = resolve(fileURLToPath(new URL('../../..', import.meta.url)));

const TYPES: Record<string, string> = {
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.html': 'text/html',
  '.json': 'application/json',
  '.css': 'text/css',
};

export interface StaticServer {
  origin: string;
  /** Serves `html` at `path` (e.g. `/index.html`). */
  page(path: string, html: string): string;
  close(): Promise<void>;
}

export async function startStaticServer(): Promise<StaticServer> {
  const pages = new Map<string, string>();
  const server: Server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const html = pages.get(path);
    if (html !== undefined) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(html);
      return;
    }
    if (path.startsWith('/packages/')) {
      const file = normalize(join(PACKAGES_DIR, path.slice('/packages/'.length)));
      if (file.startsWith(PACKAGES_DIR) && !file.includes('node_modules')) {
        try {
          const body = await readFile(file);
          res
            .writeHead(200, {
              'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
              'cache-control': 'no-store',
            })
            .end(body);
          return;
        } catch {
          // fall through to 404
        }
      }
    }
    res.writeHead(404).end('not found');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    page(path, html) {
      pages.set(path, html);
      return origin + path;
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/**
 * An import map for the given workspace packages (by folder name), each mapped to its built
 * `dist/` entry and subpaths: `{ '@signpost/logger': '/packages/logger/dist/index.js', … }`.
 */
export function importMap(packages: string[], extra: Record<string, string> = {}): string {
  const imports: Record<string, string> = { ...extra };
  for (const name of packages) {
    imports[`@signpost/${name}`] = `/packages/${name}/dist/index.js`;
    imports[`@signpost/${name}/`] = `/packages/${name}/dist/`;
  }
  return `<script type="importmap">${JSON.stringify({ imports })}</script>`;
}

/** Replaces the first `<script type="importmap">` of an example page with the local one. */
export function withLocalImportMap(html: string, packages: string[]): string {
  return html.replace(/<script type="importmap">[\s\S]*?<\/script>/, importMap(packages));
}

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** Polls `check` until it returns a truthy value or `timeoutMs` passes. */
export async function waitFor<T>(
  check: () => Promise<T> | T,
  timeoutMs = 10_000,
  what = 'condition',
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Closes a browser context, waiting at most `ms`. Chromium 156 at times never finishes closing a
 * context whose page left with a keepalive request (seen: the request had arrived, the close
 * hung for good); the browser's own close at the end of the file still ends it.
 */
export async function closeContext(context: BrowserContext, ms = 5_000): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([context.close(), new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}
