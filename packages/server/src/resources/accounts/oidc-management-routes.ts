/**
 * Sign-in through the configured identity provider:
 * `GET /auth/oidc/start` redirects there (state, nonce and PKCE verifier kept in `oidc_requests`,
 * the state also in a short-lived cookie that ties the callback to this browser);
 * `GET /auth/oidc/callback` exchanges the code, signs in (or up) and redirects to `returnTo`.
 */
import { Type } from 'typebox';
import { isTrue } from '../../db/database.ts';
import { errorResponses } from '../../http/common-schemas.ts';
import { BadGatewayError, BadRequestError, NotFoundError } from '../../kernel/errors.ts';
import { nowIso } from '../../kernel/ids.ts';
import { MANAGEMENT_API_PREFIX, type ManagementApp, type ManagementDeps } from '../../routing/management/context.ts';
import { setSessionCookie } from './cookies.ts';
import { sendVerification } from './emails.ts';
import { signInWithIdentity } from './oidc-accounts.ts';
import { createIdentityProvider } from './oidc-provider.ts';
import { seededProjects } from './service.ts';
import { saveOidcRequest, takeOidcRequest } from './store-oidc-requests.ts';
import { createSession } from './store-sessions.ts';

const STATE_COOKIE = 'signpost_oidc_state';
const REQUEST_TTL_MS = 10 * 60 * 1000;
/** Where to go after sign-in: a path on this site only (no `//host`, no scheme), so it cannot redirect away. */
const ReturnTo = Type.String({ pattern: '^/(?![/\\\\])[^\\s]*$', maxLength: 500 });

export async function oidcManagementRoutes(app: ManagementApp, deps: ManagementDeps): Promise<void> {
  const { db, config } = deps;
  const settings = config.accounts.oidc;
  const provider = settings ? createIdentityProvider(settings) : undefined;
  const redirectUri = `${config.publicUrl}${MANAGEMENT_API_PREFIX}/auth/oidc/callback`;
  const cookiePath = `${MANAGEMENT_API_PREFIX}/auth/oidc`;
  const tags = ['accounts'];

  app.get(
    '/auth/oidc',
    {
      config: { anonymous: true },
      schema: {
        operationId: 'getIdentityProvider',
        summary: 'Whether sign-in through an identity provider is set up, and its name',
        tags,
        response: {
          200: Type.Object(
            {
              enabled: Type.Boolean(),
              preset: Type.Union([Type.String(), Type.Null()]),
              label: Type.Union([Type.String(), Type.Null()]),
              startUrl: Type.Union([Type.String(), Type.Null()]),
            },
            { additionalProperties: false },
          ),
        },
      },
    },
    async () => ({
      enabled: settings !== undefined,
      preset: settings?.preset ?? null,
      label: settings?.label ?? null,
      startUrl: settings ? `${MANAGEMENT_API_PREFIX}/auth/oidc/start` : null,
    }),
  );

  app.get(
    '/auth/oidc/start',
    {
      config: { anonymous: true },
      schema: {
        operationId: 'startIdentityProviderSignIn',
        summary: 'Redirects the browser to the identity provider (authorization code with PKCE)',
        tags,
        querystring: Type.Object({ returnTo: Type.Optional(ReturnTo) }),
        response: { 302: Type.Null({ description: 'To the identity provider' }), ...errorResponses(400, 404, 502) },
      },
    },
    async (request, reply) => {
      if (!provider) throw new NotFoundError();
      const authorization = await provider.authorize(redirectUri).catch((error: unknown) => {
        request.log.error({ err: error }, 'identity provider unreachable');
        throw new BadGatewayError('The identity provider cannot be reached');
      });
      await saveOidcRequest(
        db,
        {
          state: authorization.state,
          codeVerifier: authorization.codeVerifier,
          nonce: authorization.nonce,
          returnTo: request.query.returnTo ?? '/',
        },
        REQUEST_TTL_MS,
      );
      reply.setCookie(STATE_COOKIE, authorization.state, {
        httpOnly: true,
        secure: config.accounts.secureCookies,
        sameSite: 'lax',
        path: cookiePath,
        maxAge: REQUEST_TTL_MS / 1000,
      });
      return reply.redirect(authorization.url.href, 302);
    },
  );

  app.get(
    '/auth/oidc/callback',
    {
      config: { anonymous: true },
      schema: {
        operationId: 'finishIdentityProviderSignIn',
        summary: 'Where the identity provider sends the browser back: signs in (or up) and redirects to returnTo',
        tags,
        querystring: Type.Object({ state: Type.String({ maxLength: 500 }) }, { additionalProperties: true }),
        response: { 302: Type.Null({ description: 'Signed in; to returnTo' }), ...errorResponses(400, 404, 409, 502) },
      },
    },
    async (request, reply) => {
      if (!provider || !settings) throw new NotFoundError();
      const { state } = request.query;
      reply.clearCookie(STATE_COOKIE, { path: cookiePath });
      const pending = await takeOidcRequest(db, state);
      if (!pending || pending.expires_at <= nowIso() || request.cookies[STATE_COOKIE] !== state) {
        throw new BadRequestError('This sign-in attempt is not valid or has expired; start again');
      }
      const query = request.query as Record<string, string>;
      if (query['error'])
        throw new BadRequestError(`The identity provider refused: ${query['error_description'] ?? query['error']}`);
      const callbackUrl = new URL(request.url, config.publicUrl);
      const identity = await provider
        .identify(callbackUrl, { state, nonce: pending.nonce, codeVerifier: pending.code_verifier })
        .catch((error: unknown) => {
          request.log.warn({ err: error }, 'identity provider sign-in failed');
          throw new BadGatewayError('Sign-in with the identity provider failed; start again');
        });
      const { account, created } = await signInWithIdentity(db, identity, seededProjects(config));
      if (created && !isTrue(account.email_verified)) {
        await sendVerification(deps, account).catch((error: unknown) =>
          request.log.error({ err: error }, 'verification e-mail not sent'),
        );
      }
      setSessionCookie(reply, config, await createSession(db, account.id, config.accounts.sessionTtlDays));
      return reply.redirect(pending.return_to, 302);
    },
  );
}
