/**
 * Signpost's own OAuth 2.1 authorization server for the hosted MCP server, after the MCP
 * authorization specification: metadata (RFC 8414), dynamic client registration (RFC 7591),
 * authorization code with PKCE S256, resource indicators (RFC 8707), refresh token rotation and
 * revocation (RFC 7009). Everything lives in the database, so any server process answers.
 */
import cookie from '@fastify/cookie';
import type { FastifyError, FastifyInstance } from 'fastify';
import {
  InvalidClientError,
  InvalidRequestError,
  OAuthError,
  ServerError,
  TooManyRequestsError,
} from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { hitSlidingWindow } from '../http/rate-limit.ts';
import { DatabaseUnavailableError } from '../kernel/errors.ts';
import { authorizeRoutes, type OAuthDeps } from './authorize.ts';
import { registerClient } from './clients.ts';
import { authorizationServerMetadata, OAUTH_PATHS } from './metadata.ts';
import { tokenRoutes } from './token.ts';

const REGISTRATION_LIMIT = { max: 30, windowMs: 10 * 60 * 1000 };
const FORM_LIMIT = 64 * 1024;

/** Endpoints that scripts in browsers call (metadata, registration, token, revocation): any origin, no cookies. */
const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers': 'Authorization, Content-Type, Mcp-Protocol-Version',
  'access-control-max-age': '86400',
};

export async function oauthServer(app: FastifyInstance, deps: OAuthDeps): Promise<void> {
  // The sign-in page sets the management API's session cookie.
  await app.register(cookie);
  // OAuth requests are form-encoded; a parameter sent twice is an error (RFC 6749, 3.1).
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: FORM_LIMIT },
    (_request, body, done) => {
      const form: Record<string, string> = Object.create(null);
      for (const [name, value] of new URLSearchParams(body as string)) {
        if (name in form) return done(new InvalidRequestError(`${name} is sent more than once`));
        form[name] = value;
      }
      done(null, form);
    },
  );

  app.setErrorHandler((error: FastifyError, request, reply) => {
    reply.header('cache-control', 'no-store');
    if (error instanceof OAuthError) {
      const status =
        error instanceof InvalidClientError
          ? 401
          : error instanceof TooManyRequestsError
            ? 429
            : error instanceof ServerError
              ? 500
              : 400;
      if (status === 401 && /^Basic/i.test(request.headers.authorization ?? ''))
        reply.header('www-authenticate', 'Basic realm="signpost"');
      return reply.code(status).send(error.toResponseObject());
    }
    if (error.statusCode === 415)
      return reply.code(400).send({
        error: 'invalid_request',
        error_description: 'Send application/x-www-form-urlencoded (or JSON for registration)',
      });
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      return reply.code(400).send({ error: 'invalid_request', error_description: error.message });
    }
    if (error instanceof DatabaseUnavailableError)
      return reply
        .headers(error.headers)
        .code(503)
        .send({ error: 'temporarily_unavailable', error_description: error.message });
    request.log.error({ err: error }, 'OAuth request failed');
    return reply.code(500).send({ error: 'server_error', error_description: 'Internal error' });
  });

  await app.register(async (scripted) => {
    scripted.addHook('onRequest', async (_request, reply) => {
      reply.headers(CORS);
    });
    for (const path of [
      '/.well-known/oauth-authorization-server',
      OAUTH_PATHS.register,
      OAUTH_PATHS.token,
      OAUTH_PATHS.revoke,
    ]) {
      scripted.options(path, { schema: { hide: true } }, async (_request, reply) => reply.code(204).send());
    }
    scripted.get('/.well-known/oauth-authorization-server', { schema: { hide: true } }, async () =>
      authorizationServerMetadata(deps.config),
    );

    scripted.post(OAUTH_PATHS.register, { schema: { hide: true }, bodyLimit: FORM_LIMIT }, async (request, reply) => {
      const limit = await hitSlidingWindow(
        deps.db,
        `oauth:register:${request.ip}`,
        REGISTRATION_LIMIT.max,
        REGISTRATION_LIMIT.windowMs,
      );
      if (!limit.allowed) throw new TooManyRequestsError('Too many client registrations; try again later');
      const client = await registerClient(deps.db, request.body);
      return reply.code(201).header('cache-control', 'no-store').send(client);
    });

    await tokenRoutes(scripted, deps);
  });

  await authorizeRoutes(app, deps);
}
