/**
 * A third-party browser SDK in an app of its own, for tests: `entry` (JavaScript that imports the
 * SDK) bundled with esbuild and served as /app.js beside `page` on another origin than the
 * Signpost server's (localhost, while the test server answers on 127.0.0.1), as an app that
 * reports to Signpost from its own site.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { build } from 'esbuild';

export interface BundledApp {
  origin: string;
  close(): Promise<void>;
}

export async function serveBundledApp(options: {
  entry: string;
  /** Where the entry's imports resolve from (the test's folder). */
  resolveDir: string;
  /** The page's HTML; it loads `<script type="module" src="/app.js">`. */
  page: string;
}): Promise<BundledApp> {
  const bundled = await build({
    stdin: { contents: options.entry, resolveDir: options.resolveDir, loader: 'js' },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'error',
  });
  const script = bundled.outputFiles[0]!.text;
  const site = createServer((request, response) => {
    if (request.url === '/app.js') {
      response.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(options.page);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://localhost:${(site.address() as AddressInfo).port}`,
    close: async () => {
      site.closeAllConnections();
      await new Promise((resolve) => site.close(resolve));
    },
  };
}
