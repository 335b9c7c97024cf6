/**
 * The token endpoint (authorization code with PKCE, refresh with rotation) and revocation
 * (RFC 7009). Tokens are opaque random strings; the database keeps their hashes.
 */
import type { FastifyInstance } from 'fastify';
import {
  InvalidGrantError,
  InvalidRequestError,
  InvalidScopeError,
  InvalidTargetError,
  UnauthorizedClientError,
  UnsupportedGrantTypeError,
} from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { OAuthClientInformationFull, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { nowIso } from '../kernel/ids.ts';
import { ACCESS_LEVELS, formatScopes } from './access.ts';
import type { OAuthDeps } from './authorize.ts';
import { authenticateClient } from './clients.ts';
import { OAUTH_PATHS } from './metadata.ts';
import { sameResource } from './resource.ts';
import { newSecret, pkceMatches } from './secrets.ts';
import {
  findCode,
  findToken,
  insertTokenPair,
  LIFETIME,
  revokeGrant,
  revokeToken,
  rotateRefreshToken,
  useCode,
  type GrantRow,
} from './store.ts';

type Form = Record<string, string>;

export async function tokenRoutes(app: FastifyInstance, { db, accounts }: OAuthDeps): Promise<void> {
  /** The scopes the account may still hold on the grant's project (a demoted admin loses write). */
  async function allowedScopes(grant: GrantRow): Promise<Set<string> | undefined> {
    const project = (await accounts.accessibleProjects(grant.account_id)).find(
      (candidate) => candidate.id === grant.project_id,
    );
    if (!project) return undefined;
    return new Set<string>(project.canWrite ? ACCESS_LEVELS.write : ACCESS_LEVELS.read);
  }

  async function issue(grant: GrantRow, scopes: string[], client: OAuthClientInformationFull): Promise<OAuthTokens> {
    const accessToken = newSecret('accessToken');
    const refreshToken = newSecret('refreshToken');
    const scope = formatScopes(scopes);
    await insertTokenPair(db, grant.id, scope, accessToken, refreshToken);
    const canRefresh = client.grant_types?.includes('refresh_token') ?? true;
    return {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: LIFETIME.accessTokenSeconds,
      scope,
      ...(canRefresh ? { refresh_token: refreshToken } : {}),
    };
  }

  async function exchangeCode(form: Form, client: OAuthClientInformationFull): Promise<OAuthTokens> {
    const code = form['code'];
    const verifier = form['code_verifier'];
    if (!code) throw new InvalidRequestError('code is required');
    if (!verifier) throw new InvalidRequestError('code_verifier is required (PKCE)');
    const found = await findCode(db, code);
    if (!found || found.grant.client_id !== client.client_id) throw new InvalidGrantError('Invalid authorization code');
    if (found.expires_at <= nowIso() || found.grant.revoked_at)
      throw new InvalidGrantError('The authorization code expired');
    if (form['redirect_uri'] !== undefined && form['redirect_uri'] !== found.redirect_uri) {
      throw new InvalidGrantError('redirect_uri differs from the one of the authorization request');
    }
    if (!pkceMatches(verifier, found.code_challenge))
      throw new InvalidGrantError('code_verifier does not match the code_challenge');
    if (form['resource'] !== undefined && !sameResource(form['resource'], found.grant.resource)) {
      throw new InvalidTargetError(`resource must be ${found.grant.resource}`);
    }
    if (!(await useCode(db, found.code_hash))) {
      // A code used twice may have been stolen: end everything issued with it (OAuth 2.1, 4.1.3).
      await revokeGrant(db, found.grant.id);
      throw new InvalidGrantError('The authorization code was already used');
    }
    const allowed = await allowedScopes(found.grant);
    if (!allowed) throw new InvalidGrantError('The account no longer has access to the project');
    return issue(
      found.grant,
      found.grant.scopes.split(' ').filter((scope) => allowed.has(scope)),
      client,
    );
  }

  async function refresh(form: Form, client: OAuthClientInformationFull): Promise<OAuthTokens> {
    if (!(client.grant_types?.includes('refresh_token') ?? true)) {
      throw new UnauthorizedClientError('This client did not register the refresh_token grant');
    }
    const token = form['refresh_token'];
    if (!token) throw new InvalidRequestError('refresh_token is required');
    const found = await findToken(db, token);
    if (found?.kind !== 'refresh' || found.grant.client_id !== client.client_id)
      throw new InvalidGrantError('Invalid refresh token');
    if (found.revoked_at || found.grant.revoked_at) throw new InvalidGrantError('The refresh token was revoked');
    if (found.expires_at <= nowIso()) throw new InvalidGrantError('The refresh token expired');
    if (form['resource'] !== undefined && !sameResource(form['resource'], found.grant.resource)) {
      throw new InvalidTargetError(`resource must be ${found.grant.resource}`);
    }
    const granted = found.grant.scopes.split(' ').filter(Boolean);
    let scopes = found.scopes.split(' ').filter(Boolean);
    if (form['scope'] !== undefined) {
      const asked = form['scope'].split(' ').filter(Boolean);
      const beyond = asked.filter((scope) => !granted.includes(scope));
      if (beyond.length > 0) {
        throw new InvalidScopeError(
          `${beyond.join(' ')} was not granted; connect again and choose write access to get it`,
        );
      }
      scopes = asked;
    }
    const allowed = await allowedScopes(found.grant);
    if (!allowed) {
      await revokeGrant(db, found.grant.id);
      throw new InvalidGrantError('The account no longer has access to the project');
    }
    if (!(await rotateRefreshToken(db, found.token_hash))) {
      // Rotated before: someone else holds a copy. End the grant (OAuth 2.1, 4.3.1).
      await revokeGrant(db, found.grant.id);
      throw new InvalidGrantError('The refresh token was already used; connect again');
    }
    return issue(
      found.grant,
      scopes.filter((scope) => allowed.has(scope)),
      client,
    );
  }

  app.post(OAUTH_PATHS.token, { schema: { hide: true } }, async (request, reply) => {
    reply.headers({ 'cache-control': 'no-store', pragma: 'no-cache' });
    const form = (request.body ?? {}) as Form;
    const { info } = await authenticateClient(db, request, form);
    switch (form['grant_type']) {
      case 'authorization_code':
        return exchangeCode(form, info);
      case 'refresh_token':
        return refresh(form, info);
      case undefined:
        throw new InvalidRequestError('grant_type is required');
      default:
        throw new UnsupportedGrantTypeError('grant_type must be authorization_code or refresh_token');
    }
  });

  app.post(OAUTH_PATHS.revoke, { schema: { hide: true } }, async (request, reply) => {
    const form = (request.body ?? {}) as Form;
    const { info } = await authenticateClient(db, request, form);
    const token = form['token'];
    if (!token) throw new InvalidRequestError('token is required');
    const found = await findToken(db, token);
    // Another client's token, or an unknown one: nothing happens, and the answer is the same (RFC 7009, 2.2).
    if (found && found.grant.client_id === info.client_id) {
      // Revoking a refresh token ends its grant and so every access token issued with it.
      if (found.kind === 'refresh') await revokeGrant(db, found.grant.id);
      else await revokeToken(db, found.token_hash);
    }
    return reply.code(200).header('cache-control', 'no-store').send();
  });
}
