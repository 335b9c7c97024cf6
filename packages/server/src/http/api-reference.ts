/**
 * An API's OpenAPI document and its reference page (Swagger UI), mounted under the API's prefix:
 * `<prefix>/openapi.json` and `<prefix>/docs`. Both APIs (public and management) mount theirs here.
 */
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';

export interface ApiReferenceOptions {
  /** Where the API is mounted (`/api/public/v1`); the plugin registering this has that prefix. */
  prefix: string;
  /** The server's public URL: the document's `servers` entry, which "Try it out" calls. */
  publicUrl: string;
}

/**
 * `openapi.json` answers the document; `docs` and `docs/` the page. The page must know the API's
 * prefix (`indexPrefix`): at `…/docs` without a slash, swagger-ui links its assets from the
 * route prefix alone (`/docs/static/…`), which skips the API's prefix and gives a blank page.
 */
export async function serveApiReference(app: FastifyInstance, options: ApiReferenceOptions): Promise<void> {
  app.get('/openapi.json', { schema: { hide: true }, config: { anonymous: true } }, async () => app.swagger());
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    indexPrefix: options.prefix,
    uiConfig: { docExpansion: 'list' },
    staticCSP: referencePageCsp(options.publicUrl),
  });
}

/**
 * The page loads only its own scripts and styles; it fetches the document from here and, for
 * "Try it out", the API at the public URL (which may be another origin than the one browsing).
 * Swagger UI's bundle adds a <style> element of its own at run time, hence inline styles (a hash
 * would break with each swagger-ui release); scripts stay strictly this server's files.
 */
function referencePageCsp(publicUrl: string): string {
  const api = URL.canParse(publicUrl) ? ` ${new URL(publicUrl).origin}` : '';
  return [
    "default-src 'none'",
    "base-uri 'none'",
    "script-src 'self'",
    "script-src-attr 'none'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    `connect-src 'self'${api}`,
    "form-action 'none'",
    "frame-ancestors 'none'",
    "object-src 'none'",
  ].join('; ');
}
