/**
 * The team dashboard surface at `/app`: serves the built single-page app of packages/dashboard
 * (its `dist` folder, read from disk; the server never imports the dashboard's code). Hashed
 * assets are cached for a year; the page itself is revalidated on every load, and every client
 * route (`/app/anything`) answers the page so the app's router takes over. Without a build,
 * `/app` answers a page that says how to build it.
 */
import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { negotiate } from '@fastify/accept-negotiator';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export const DASHBOARD_PREFIX = '/app';
/** The published package carries the build in dist/dashboard-app (copied at pack time); the monorepo reads packages/dashboard/dist. */
const PACKAGED_DASHBOARD_DIST = fileURLToPath(new URL('../dashboard-app/', import.meta.url));
export const DEFAULT_DASHBOARD_DIST = existsSync(PACKAGED_DASHBOARD_DIST)
  ? PACKAGED_DASHBOARD_DIST
  : fileURLToPath(new URL('../../../dashboard/dist/', import.meta.url));

export interface DashboardDeps {
  /** The built dashboard (default: dist/dashboard-app in the published package, else packages/dashboard/dist). */
  distDir?: string;
}

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

/** No inline script or style, nothing from elsewhere: the app only talks to its own origin. */
export const DASHBOARD_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

function securityHeaders(reply: FastifyReply): FastifyReply {
  return reply
    .header('content-security-policy', DASHBOARD_CSP)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'same-origin')
    .header('x-frame-options', 'DENY');
}

const MISSING_BUILD = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Dashboard not built</title></head>
<body><main><h1>The dashboard is not built</h1>
<p>Build it with <code>npm run build -w @signpost/dashboard</code> (or start the server with <code>npm start</code>
at the repository root, which builds it first), then reload this page.</p></main></body></html>
`;

/** The build writes `.br` and `.gz` beside each text file (packages/dashboard/build/precompress.ts). */
const PRECOMPRESSED: Record<string, string> = { br: '.br', gzip: '.gz' };

/**
 * The file as the browser accepts it: the precompressed copy of the preferred encoding when the
 * build has one, else the file itself. Every answer varies by Accept-Encoding.
 */
async function readEncoded(request: FastifyRequest, reply: FastifyReply, path: string): Promise<Buffer | undefined> {
  reply.header('vary', 'Accept-Encoding');
  const encoding = negotiate(request.headers['accept-encoding'] ?? '', ['br', 'gzip']);
  const compressed = encoding ? await readIfFile(`${path}${PRECOMPRESSED[encoding]}`) : undefined;
  if (encoding && compressed) {
    reply.header('content-encoding', encoding);
    return compressed;
  }
  return readIfFile(path);
}

async function readIfFile(path: string): Promise<Buffer | undefined> {
  try {
    if (!(await stat(path)).isFile()) return undefined;
    return await readFile(path);
  } catch {
    return undefined;
  }
}

export async function dashboardSurface(app: FastifyInstance, deps: DashboardDeps = {}): Promise<void> {
  const root = normalize(deps.distDir ?? DEFAULT_DASHBOARD_DIST);
  const rootWithSep = root.endsWith(sep) ? root : root + sep;

  async function sendPage(request: FastifyRequest, reply: FastifyReply) {
    securityHeaders(reply).header('cache-control', 'no-cache');
    const page = await readEncoded(request, reply, join(root, 'index.html'));
    if (!page)
      return reply.code(503).removeHeader('content-encoding').type('text/html; charset=utf-8').send(MISSING_BUILD);
    return reply.type('text/html; charset=utf-8').send(page);
  }

  app.get('/', { schema: { hide: true } }, async (request, reply) => sendPage(request, reply));

  app.get('/*', { schema: { hide: true } }, async (request, reply) => {
    const rest = (request.params as { '*': string })['*'];
    // A file of the build (hashed assets, icons), never anything outside it. Only the build's own
    // file types count: a client route may hold a dot (`/releases/2.0.0`) and is a page.
    if (CONTENT_TYPES[extname(rest)] !== undefined) {
      const path = normalize(join(root, rest));
      if (!path.startsWith(rootWithSep))
        return securityHeaders(reply).code(404).send({ error: 'Not found', code: 'NotFound' });
      const body = path.endsWith(`${sep}index.html`) ? undefined : await readEncoded(request, reply, path);
      if (!body) {
        return securityHeaders(reply)
          .removeHeader('content-encoding')
          .code(404)
          .header('cache-control', 'no-cache')
          .type('text/plain; charset=utf-8')
          .send('Not found');
      }
      const hashed = rest.startsWith('assets/');
      return securityHeaders(reply)
        .header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'public, max-age=3600')
        .type(CONTENT_TYPES[extname(path)] ?? 'application/octet-stream')
        .send(body);
    }
    // Every other path is a client route of the app.
    return sendPage(request, reply);
  });
}
