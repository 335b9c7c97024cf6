import cookie from '@fastify/cookie';
import swagger from '@fastify/swagger';
import type { Config } from '../config.ts';
import { readOffThreadHook } from '../db/read-context.ts';
import type { Database } from '../db/database.ts';
import { serveApiReference } from '../http/api-reference.ts';
import { ErrorBody } from '../http/common-schemas.ts';
import { UnauthorizedError } from '../kernel/errors.ts';
import { createMailer } from '../mail/mailer.ts';
import { SESSION_COOKIE } from '../resources/accounts/index.ts';
import { authenticateAccount } from './authenticate.ts';
import { teamMemberships } from './memberships.ts';
import { MANAGEMENT_API_PREFIX, type ManagementApp, type ManagementDeps } from '../routing/management/context.ts';
import { declareAccess } from '../routing/management/declared-access.ts';
import { MANAGEMENT_ROUTES } from './routes.ts';

export { MANAGEMENT_API_PREFIX };

/**
 * The management API v1: accounts, teams, projects, keys and every resource behind the public
 * API. Callers are accounts (session cookie or personal access token); a route declares the role it
 * needs (`config: { access: { project: 'admin' } }`, routing/management/declared-access.ts), which scopes
 * every project and team to the caller's memberships. Its own OpenAPI document: `/api/v1/openapi.json`.
 */
export async function managementApi(app: ManagementApp, options: { db: Database; config: Config }): Promise<void> {
  const mailer = createMailer(options.config, app.log);
  const deps: ManagementDeps = { ...options, mailer, memberships: teamMemberships(options.db) };
  app.decorate('management', deps);
  app.addHook('onClose', async () => mailer.close());
  // Before swagger and every route: the declared role is checked and written into each summary.
  declareAccess(app);

  await app.register(cookie);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Signpost management API',
        version: '1.0.0',
        description:
          'Accounts, teams, projects, API keys and the resources the public API serves. Authenticate with a personal access token ' +
          '(`Authorization: Bearer sp_pat_…`) or, in a browser, the session cookie; cookie-authenticated writes need an ' +
          '`X-Requested-With` header.',
      },
      servers: [{ url: options.config.publicUrl + MANAGEMENT_API_PREFIX }],
      components: {
        securitySchemes: {
          personalAccessToken: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer sp_pat_…' },
          sessionCookie: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE },
        },
      },
    },
    transform: ({ schema, url, route }) => {
      const transformed: Record<string, unknown> = { ...schema };
      // The flag the onRequest hook below reads decides both: an anonymous route needs no credentials.
      transformed['security'] = route.config?.anonymous ? [] : [{ personalAccessToken: [] }, { sessionCookie: [] }];
      const path = url.startsWith(MANAGEMENT_API_PREFIX) ? url.slice(MANAGEMENT_API_PREFIX.length) || '/' : url;
      return { schema: transformed as never, url: path };
    },
  });
  app.addSchema(ErrorBody);

  app.decorateRequest('account', null);
  // Every read of a management request runs off the event loop where the database allows
  // (db/read-context.ts): its lists and searches may be long; the public API must not wait.
  app.addHook('onRequest', readOffThreadHook);
  app.addHook('onRequest', async (request) => {
    const anonymous = request.routeOptions.config.anonymous || request.url.startsWith(`${MANAGEMENT_API_PREFIX}/docs`);
    request.account = await authenticateAccount(deps.db, request);
    if (!request.account && !anonymous) throw new UnauthorizedError('Sign in required');
  });

  for (const routes of MANAGEMENT_ROUTES) {
    await app.register(async (scoped) => routes(scoped as ManagementApp, deps));
  }

  await serveApiReference(app, { prefix: MANAGEMENT_API_PREFIX, publicUrl: options.config.publicUrl });
}
