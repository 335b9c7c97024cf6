/**
 * The authorization endpoint (OAuth 2.1 authorization code with PKCE S256) and its consent page.
 * A request is checked, the signed-in account picks a project and read or write access, and the
 * client gets a one-time code bound to the PKCE challenge, the redirect URI and the resource.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { mcpResourceUrl } from '../mcp/metadata.ts';
import { fromOwnOrigin } from '../http/same-origin.ts';
import { ACCESS_LEVELS, formatScopes, isAccessLevel, parseScopes } from './access.ts';
import type { AccountGateway } from './accounts.ts';
import { clientInfo, redirectUriRegistered } from './clients.ts';
import { issuerOf, OAUTH_PATHS } from './metadata.ts';
import { consentPage, errorPage, noProjectsPage, signInPage } from './pages.ts';
import { redirectWith, sameResource } from './resource.ts';
import { newSecret } from './secrets.ts';
import {
  decideConsentRequest,
  findClient,
  findOpenConsentRequest,
  insertConsentRequest,
  insertGrantWithCode,
} from './store.ts';

export interface OAuthDeps {
  db: Database;
  config: Config;
  accounts: AccountGateway;
}

/**
 * Pages of the flow: never cached, never framed (clickjacking). Referrer policy `same-origin`:
 * no other site ever sees these URLs (not the client's redirect URI, not an identity provider),
 * while the forms' posts carry a real `Origin` (with `no-referrer` browsers send `Origin: null`).
 */
function html(reply: FastifyReply, status: number, body: string) {
  return reply
    .code(status)
    .headers({
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'x-frame-options': 'DENY',
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action *; frame-ancestors 'none'",
      'referrer-policy': 'same-origin',
    })
    .send(body);
}

const text = (source: unknown, name: string): string | undefined => {
  const value = (source as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : undefined;
};

/** A path on this server to come back to after signing in; anything else goes to the start. */
const safeReturnTo = (raw: string | undefined) =>
  raw?.startsWith(`${OAUTH_PATHS.authorize}?`) ? raw : OAUTH_PATHS.authorize;

export async function authorizeRoutes(app: FastifyInstance, { db, config, accounts }: OAuthDeps): Promise<void> {
  const resource = mcpResourceUrl(config);

  app.get(OAUTH_PATHS.authorize, { schema: { hide: true } }, async (request, reply) => {
    const query = request.query;
    const clientId = text(query, 'client_id');
    const clientRow = clientId ? await findClient(db, clientId) : undefined;
    if (!clientRow) {
      return html(
        reply,
        400,
        errorPage(
          'Unknown client',
          'This MCP client is not registered with Signpost. Start connecting again from the client.',
        ),
      );
    }
    const client = clientInfo(clientRow);
    const redirectUri =
      text(query, 'redirect_uri') ?? (client.redirect_uris.length === 1 ? client.redirect_uris[0] : undefined);
    if (!redirectUri || !redirectUriRegistered(client, redirectUri)) {
      // Never redirect to an address the client did not register.
      return html(
        reply,
        400,
        errorPage('Invalid redirect URI', 'The redirect_uri is missing or not one this client registered.'),
      );
    }
    const state = text(query, 'state');
    const fail = (error: string, description: string) =>
      reply.redirect(
        redirectWith(redirectUri, { error, error_description: description, state, iss: issuerOf(config) }),
        302,
      );

    if (text(query, 'response_type') !== 'code') return fail('unsupported_response_type', 'response_type must be code');
    const challenge = text(query, 'code_challenge');
    if (!challenge || !/^[A-Za-z0-9_-]{43}$/.test(challenge)) {
      return fail('invalid_request', 'code_challenge is required: PKCE with S256 (43 base64url characters)');
    }
    if (text(query, 'code_challenge_method') !== 'S256')
      return fail('invalid_request', 'code_challenge_method must be S256');
    const requestedResource = text(query, 'resource') ?? resource;
    if (!sameResource(requestedResource, resource)) return fail('invalid_target', `resource must be ${resource}`);

    const account = await accounts.signedInAccount(request);
    if (!account) {
      return reply.redirect(`${OAUTH_PATHS.signIn}?${new URLSearchParams({ return_to: request.url })}`, 302);
    }
    const clientName = client.client_name || 'An MCP client';
    const projects = await accounts.accessibleProjects(account.id);
    if (projects.length === 0) return html(reply, 200, noProjectsPage(clientName, account));

    const requested = parseScopes(text(query, 'scope'));
    const handle = newSecret('consent');
    await insertConsentRequest(db, handle, {
      client_id: client.client_id,
      account_id: account.id,
      redirect_uri: redirectUri,
      state: state ?? null,
      code_challenge: challenge,
      resource,
      requested_scopes: formatScopes(requested),
    });
    return html(
      reply,
      200,
      consentPage({
        clientName,
        redirectHost: new URL(redirectUri).host || redirectUri,
        account,
        projects,
        handle,
        action: OAUTH_PATHS.authorize,
      }),
    );
  });

  app.post(OAUTH_PATHS.authorize, { schema: { hide: true } }, async (request, reply) => {
    const body = request.body;
    const expired = () =>
      html(
        reply,
        400,
        errorPage(
          'Request expired',
          'This authorization request expired or was already answered. Start connecting again from your MCP client.',
        ),
      );
    if (!fromOwnOrigin(request, config.publicUrl))
      return html(reply, 403, errorPage('Not allowed', 'The form was sent from another site.'));
    const handle = text(body, 'request');
    const pending = handle ? await findOpenConsentRequest(db, handle) : undefined;
    if (!pending) return expired();
    const account = await accounts.signedInAccount(request);
    if (!account || account.id !== pending.account_id) {
      return html(
        reply,
        403,
        errorPage('Not allowed', 'Sign in with the account that started this request, then connect again.'),
      );
    }
    const back = (params: Record<string, string>) =>
      reply.redirect(
        redirectWith(pending.redirect_uri, { ...params, state: pending.state, iss: issuerOf(config) }),
        303,
      );

    if (text(body, 'decision') !== 'allow') {
      if (!(await decideConsentRequest(db, pending.id))) return expired();
      return back({ error: 'access_denied', error_description: 'The user denied access' });
    }
    const access = text(body, 'access');
    const project = (await accounts.accessibleProjects(account.id)).find(
      (candidate) => candidate.id === text(body, 'project'),
    );
    if (!isAccessLevel(access) || !project) {
      return html(
        reply,
        400,
        errorPage('Choose a project and access', 'Pick one of your projects and read or write access, then try again.'),
      );
    }
    if (access === 'write' && !project.canWrite) {
      return html(
        reply,
        403,
        errorPage(
          'Read only',
          `Your role on ${project.name} allows read access only. Go back and choose read access, or ask a team admin.`,
        ),
      );
    }
    if (!(await decideConsentRequest(db, pending.id))) return expired();
    const code = newSecret('code');
    await insertGrantWithCode(
      db,
      {
        client_id: pending.client_id,
        account_id: account.id,
        project_id: project.id,
        scopes: formatScopes(ACCESS_LEVELS[access]),
        resource: pending.resource,
      },
      code,
      pending.code_challenge,
      pending.redirect_uri,
    );
    return back({ code });
  });

  const signInPageFor = (returnTo: string, email: string, problem: string | undefined) =>
    signInPage(OAUTH_PATHS.signIn, returnTo, email, problem, accounts.identityProvider?.(returnTo));

  app.get(OAUTH_PATHS.signIn, { schema: { hide: true } }, async (request, reply) =>
    html(reply, 200, signInPageFor(safeReturnTo(text(request.query, 'return_to')), '', undefined)),
  );

  app.post(OAUTH_PATHS.signIn, { schema: { hide: true } }, async (request, reply) => {
    const returnTo = safeReturnTo(text(request.body, 'return_to'));
    const email = text(request.body, 'email') ?? '';
    if (!fromOwnOrigin(request, config.publicUrl))
      return html(reply, 403, errorPage('Not allowed', 'The form was sent from another site.'));
    const result = await accounts.signIn(email, text(request.body, 'password') ?? '', reply);
    if (!result.ok) {
      if (result.retryAfterSeconds !== undefined) reply.header('retry-after', String(result.retryAfterSeconds));
      return html(
        reply,
        result.retryAfterSeconds !== undefined ? 429 : 401,
        signInPageFor(returnTo, email, result.message),
      );
    }
    return reply.redirect(returnTo, 303);
  });
}
