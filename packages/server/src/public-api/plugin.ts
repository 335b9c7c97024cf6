import swagger from '@fastify/swagger';
import { serveApiReference } from '../http/api-reference.ts';
import { authenticateApiKey, authenticateApiKeyCached, presentedKey, requireAccess } from '../http/authenticate.ts';
import { findKeyByLookup, type ProjectRow } from '../resources/projects/index.ts';
import { ErrorBody } from '../http/common-schemas.ts';
import { allowAnyOrigin } from '../http/cors.ts';
import { TooManyRequestsError } from '../kernel/errors.ts';
import { consumeQuota } from '../http/quota.ts';
import { hitSlidingWindow, rateLimitHeaders } from '../http/rate-limit.ts';
import { changelogRoutes, updatesRoutes } from '../resources/changelog/mount.ts';
import { featurePublicRoutes } from '../resources/features/mount.ts';
import { logRoutes } from '../resources/logs/mount.ts';
import { reportRoutes } from '../resources/reports/mount.ts';
import { siteConfigRoutes } from '../resources/site-config/mount.ts';
import { i18nTelemetryRoutes, translationRoutes } from '../resources/translations/mount.ts';
import { versionCheckRoutes } from '../resources/releases/mount.ts';
import { sessionRoutes } from '../resources/release-health/mount.ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ResponseMemo } from '../http/response-memo.ts';
import type { Permission } from '../kernel/key-scopes.ts';
import type { ApiKeyContext, App, Deps } from '../routing/public-api/context.ts';
import { PUBLIC_PERMISSIONS } from '../kernel/key-scopes.ts';

export const PUBLIC_API_PREFIX = '/api/public/v1';

/** The public REST API v1: key authentication, limits, every public route and its OpenAPI document. */
export async function publicApi(app: App, deps: Deps): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Signpost public API',
        version: '1.0.0',
        description:
          'Submit feedback, bugs, errors and logs; read features, roadmap, changelog, site configuration, translations and versions.',
      },
      servers: [{ url: deps.config.publicUrl + PUBLIC_API_PREFIX }],
      components: {
        securitySchemes: {
          bearerKey: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer svc_live_… or svc_test_…' },
          headerKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        },
      },
    },
    // Paths in the document are relative to the server URL above.
    transform: ({ schema, url, route }) => {
      const permission = route.config?.permission;
      const transformed: Record<string, unknown> = { ...schema };
      if (permission) {
        transformed['security'] = [{ bearerKey: [] }, { headerKey: [] }];
        // The route's own description, if any, follows the permission rather than being lost.
        const own = typeof schema.description === 'string' ? `\n\n${schema.description}` : '';
        const secretOnly = route.config?.secretOnly ? ' Secret keys only: a publishable key gets 403.' : '';
        transformed['description'] =
          `Permission: \`${permission}\`. ${PUBLIC_PERMISSIONS[permission]}${secretOnly}${own}`;
      } else {
        // No permission is what makes a route keyless (the onRequest hook below): say so.
        transformed['security'] = [];
      }
      return {
        schema: transformed as never,
        url: url.startsWith(PUBLIC_API_PREFIX) ? url.slice(PUBLIC_API_PREFIX.length) || '/' : url,
      };
    },
  });
  app.addSchema(ErrorBody);
  // Browser SDKs and the widget call the API from other origins. Keys travel in headers, never
  // cookies, so any origin may call; the response headers SDKs need are exposed.
  allowAnyOrigin(app, {
    methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: [
      'Authorization',
      'X-API-Key',
      'Content-Type',
      'If-None-Match',
      'X-Request-Id',
      // The in-app widget's and What's new's person (resources/board/widget-identity.ts).
      'X-Signpost-User',
      'X-Signpost-Visitor',
    ],
    exposedHeaders: [
      'ETag',
      'Retry-After',
      'RateLimit-Limit',
      'RateLimit-Remaining',
      'RateLimit-Reset',
      'X-Request-Id',
    ],
    maxAgeSeconds: 86400,
  });

  app.decorateRequest('apiKey', null);
  app.decorateRequest('memoMarker', undefined);
  app.decorateRequest('memoStaleAt', Infinity);
  const { memo } = deps;
  if (memo) {
    // A callback hook like the one in app.ts, which has already set the request id by now.
    app.addHook('onSend', (request, reply, payload, done) => {
      if (request.memoMarker !== undefined) rememberResponse(memo, request, reply, payload);
      done(null, payload);
    });
  }
  const admit = async (request: FastifyRequest, reply: FastifyReply, permission: Permission, known?: ApiKeyContext) => {
    const { rateLimit, secretOnly } = request.routeOptions.config;
    const key = known ?? (await authenticateApiKey(deps.db, presentedKey(request.headers), findKeyByLookup));
    requireAccess(key, permission, secretOnly);
    request.apiKey = key;
    const quota = await consumeQuota(deps.db, key.project.id, key.project.monthly_quota);
    if (quota) {
      if (!quota.allowed) throw new TooManyRequestsError('Quota exceeded', rateLimitHeaders(quota));
      if (!rateLimit) reply.headers(rateLimitHeaders(quota));
    }
    if (rateLimit) {
      const state = await hitSlidingWindow(
        deps.db,
        `${rateLimit.name}:${key.keyId}`,
        rateLimit.max,
        rateLimit.windowMs,
      );
      reply.headers(rateLimitHeaders(state));
      if (!state.allowed) throw new TooManyRequestsError('Rate limit exceeded', rateLimitHeaders(state));
    }
  };
  // Keyless routes (site-config, version-check) skip the hook's promise altogether.
  app.addHook('onRequest', (request, reply, done) => {
    const { permission, rateLimit, memo: memoised } = request.routeOptions.config;
    // Read before anything is loaded, so a commit racing this request makes its answer stale.
    if (memoised && memo?.enabled) request.memoMarker = memo.marker();
    if (!permission) return done();
    // Fast path, no promise: a memoised key on a project without quota, a route without limit.
    let key: ApiKeyContext | undefined;
    try {
      key = authenticateApiKeyCached<ProjectRow>(deps.db, presentedKey(request.headers));
      if (key && key.project.monthly_quota === null && !rateLimit) {
        requireAccess(key, permission, request.routeOptions.config.secretOnly);
        request.apiKey = key;
        return done();
      }
    } catch (error) {
      return done(error as Error);
    }
    admit(request, reply, permission, key).then(() => done(), done);
  });

  for (const routes of [
    featurePublicRoutes,
    changelogRoutes,
    updatesRoutes,
    reportRoutes,
    logRoutes,
    i18nTelemetryRoutes,
    siteConfigRoutes,
    translationRoutes,
    versionCheckRoutes,
    sessionRoutes,
  ]) {
    await app.register(async (scoped) => routes(scoped as App, deps));
  }

  await serveApiReference(app, { prefix: PUBLIC_API_PREFIX, publicUrl: deps.config.publicUrl });
}

const QUOTA_HEADERS = new Set(['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset']);

/**
 * Keeps a memo route's 200 or 304 for the front door, unless a route limit made it a write. A plan
 * quota's headers are left out: the front door counts the request and adds its own.
 */
function rememberResponse(memo: ResponseMemo, request: FastifyRequest, reply: FastifyReply, payload: unknown): void {
  const status = reply.statusCode;
  if (!((status === 200 && typeof payload === 'string') || (status === 304 && payload === null))) return;
  if (request.routeOptions.config.rateLimit) return;
  // The front door checks only the key's scope, not whether it is publishable.
  if (request.routeOptions.config.secretOnly) return;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (name === 'x-request-id' || name === 'content-length' || name === 'connection' || value === undefined) continue;
    if (QUOTA_HEADERS.has(name)) continue;
    headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  const etag = headers['etag'];
  memo.remember(request.url, request.routeOptions.config.permission, request.apiKey?.keyId ?? '', {
    marker: request.memoMarker!,
    staleAt: request.memoStaleAt,
    headers,
    body: status === 200 ? Buffer.from(payload as string) : undefined,
    etag: etag === undefined ? undefined : etag.replace(/^"(.*)"$/, '$1'),
  });
}
