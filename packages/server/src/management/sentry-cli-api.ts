/**
 * The part of Sentry's web API (`/api/0`) that `sentry-cli sourcemaps upload` uses, so that it
 * uploads to Signpost unchanged: authenticated like the management API with a personal access
 * token (`--auth-token sp_pat_…`, `Authorization: Bearer`), project access checked the same way.
 * The routes live in resources/source-maps/sentry-cli-routes.ts.
 */
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { UnauthorizedError } from '../kernel/errors.ts';
import { createMailer } from '../mail/mailer.ts';
import { sentryCliRoutes } from '../resources/source-maps/mount.ts';
import { authenticateAccount } from './authenticate.ts';
import { teamMemberships } from './memberships.ts';
import type { ManagementApp, ManagementDeps } from '../routing/management/context.ts';

export const SENTRY_API_PREFIX = '/api/0';

export async function sentryCliApi(app: ManagementApp, options: { db: Database; config: Config }): Promise<void> {
  const mailer = createMailer(options.config, app.log);
  const deps: ManagementDeps = { ...options, mailer, memberships: teamMemberships(options.db) };
  app.decorate('management', deps);
  app.addHook('onClose', async () => mailer.close());
  app.decorateRequest('account', null);
  app.addHook('onRequest', async (request) => {
    if (!request.headers.authorization)
      throw new UnauthorizedError('Authorization: Bearer <personal access token> required');
    request.account = await authenticateAccount(deps.db, request);
    if (!request.account) throw new UnauthorizedError('Sign in required');
  });
  // sentry-cli sends its chunks as multipart/form-data; the route reads the parts (Fetch's FormData).
  app.addContentTypeParser(
    'multipart/form-data',
    { parseAs: 'buffer', bodyLimit: 32 * 1024 * 1024 },
    (_r, body, done) => done(null, body),
  );
  await app.register(async (scoped) => sentryCliRoutes(scoped as ManagementApp, deps));
}
