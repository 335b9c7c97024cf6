/**
 * Browser test support for the SDK packages: headless Chromium (the system one, or `CHROMIUM_PATH`,
 * through playwright-core) and a tiny static server on 127.0.0.1 that serves test pages and
 * scripts given as strings, and the monorepo's built packages under `/packages/<name>/…`. Pages load
 * the SDKs through an import map (`importMap`) or as esbuild bundles (bundle.ts) and call the
 * Signpost test server cross-origin.
 */
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

const PACKAGES_DIR = resolve(fileURLToPath(new URL('..', import.meta.url)));

const TYPES: Record<string, string> = {
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.html': 'text/html',
  '.json': 'application/json',
  '.css': 'text/css',
};

/** The examples use the local defaults; tests point them at the test server instead. */
export const EXAMPLE_BASE_URL = 'http://localhost:3000/api/public/v1';

export interface StaticFile {
  body: string;
  type?: string;
  headers?: Record<string, string>;
}

export interface StaticServer {
  origin: string;
  /**
   * Serves `content` at `path` (starting with `/`), adding or replacing it, and returns its URL.
   * A string is HTML, or JavaScript when the path ends in `.js`.
   */
  serve(path: string, content: StaticFile | string): string;
  close(): Promise<void>;
}

export async function startStaticServer(): Promise<StaticServer> {
  const files = new Map<string, StaticFile>();
  const server: Server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    if (path === '/favicon.ico') return void res.writeHead(204).end();
    const file = files.get(path);
    if (file) {
      const type = file.type ?? (path.endsWith('.js') ? 'text/javascript' : 'text/html; charset=utf-8');
      res.writeHead(200, { 'content-type': type, 'cache-control': 'no-store', ...file.headers }).end(file.body);
      return;
    }
    if (path.startsWith('/packages/')) {
      const built = normalize(join(PACKAGES_DIR, path.slice('/packages/'.length)));
      if (built.startsWith(PACKAGES_DIR) && !built.includes('node_modules')) {
        try {
          const body = await readFile(built);
          res
            .writeHead(200, {
              'content-type': TYPES[extname(built)] ?? 'application/octet-stream',
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
    serve(path, content) {
      files.set(path, typeof content === 'string' ? { body: content } : content);
      return origin + path;
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** An HTML page whose body is an empty `#root` and one module script loaded from `src`. */
export function scriptPage(src: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>x</title></head><body><div id="root"></div><script type="module" src="${src}"></script></body></html>`;
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

/**
 * An HTML page that loads `packages` (folder names) through the import map and runs `script` as a
 * module, then sets `window.ready = true` (see `openReady`). `body` goes before the script.
 */
export function importMapPage(packages: string[], script: string, body = ''): string {
  return `<!doctype html><html><head>${importMap(packages)}</head><body>${body}
<script type="module">
${script}
window.ready = true;
</script></body></html>`;
}

/** Replaces the first `<script type="importmap">` of an example page with the local one. */
export function withLocalImportMap(html: string, packages: string[]): string {
  return html.replace(/<script type="importmap">[\s\S]*?<\/script>/, importMap(packages));
}

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
}

/** Opens `url` in a new browser context and waits for the page's `window.ready === true`. */
export async function openReady(browser: Browser, url: string): Promise<{ context: BrowserContext; tab: Page }> {
  const context = await browser.newContext();
  const tab = await context.newPage();
  await tab.goto(url);
  await tab.waitForFunction('window.ready === true');
  return { context, tab };
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
