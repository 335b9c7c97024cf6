/**
 * Browser test support shared by the feature-reporter, site-manager and i18n tests: headless
 * Chromium through playwright-core, a tiny static server on 127.0.0.1, and esbuild bundles of
 * the packages' built `dist/` (so pages run exactly what gets published).
 */
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { dirname } from 'node:path';
import type { AddressInfo } from 'node:net';
import { build } from 'esbuild';
import { chromium, type Browser } from 'playwright-core';

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

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
}

export interface BundleOptions {
  loader?: 'js' | 'ts' | 'tsx';
  platform?: 'browser' | 'node';
  /** Text replacements applied to the example files the bundle pulls in (`examples/…`). */
  replace?: Record<string, string>;
  external?: string[];
}

/** Bundles `code` (an ES module that may import the packages and the examples). */
export async function bundle(code: string, resolveDir: string, options: BundleOptions = {}): Promise<string> {
  const replace = Object.entries(options.replace ?? {});
  const out = await build({
    stdin: { contents: code, resolveDir, loader: options.loader ?? 'tsx', sourcefile: 'entry.tsx' },
    bundle: true,
    format: 'esm',
    platform: options.platform ?? 'browser',
    target: 'es2022',
    jsx: 'automatic',
    write: false,
    logLevel: 'error',
    external: options.external ?? [],
    ...(options.platform === 'node' ? {} : { define: { 'process.env.NODE_ENV': '"production"' } }),
    plugins: [
      {
        name: 'rewrite-examples',
        setup(b) {
          b.onLoad({ filter: /[\\/]examples[\\/].*\.(tsx?|jsx?|mjs)$/ }, async (args) => {
            let text = await readFile(args.path, 'utf8');
            for (const [from, to] of replace) text = text.split(from).join(to);
            return { contents: text, loader: args.path.endsWith('x') ? 'tsx' : 'ts', resolveDir: dirname(args.path) };
          });
        },
      },
    ],
  });
  return out.outputFiles[0]!.text;
}

export interface Page {
  body: string;
  type?: string;
  headers?: Record<string, string>;
}

export interface StaticServer {
  origin: string;
  /** Adds or replaces a file; `path` starts with `/`. */
  set(path: string, page: Page | string): void;
  close(): Promise<void>;
}

export async function startStatic(): Promise<StaticServer> {
  const pages = new Map<string, Page>();
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/favicon.ico') return void res.writeHead(204).end();
    const page = pages.get(path);
    if (!page) return void res.writeHead(404).end('not found');
    const type = page.type ?? (path.endsWith('.js') ? 'text/javascript' : 'text/html; charset=utf-8');
    res.writeHead(200, { 'content-type': type, 'cache-control': 'no-store', ...page.headers }).end(page.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    set: (path, page) => pages.set(path, typeof page === 'string' ? { body: page } : page),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The examples use the local defaults; tests point them at the test server instead. */
export const EXAMPLE_BASE_URL = 'http://localhost:3000/api/public/v1';
