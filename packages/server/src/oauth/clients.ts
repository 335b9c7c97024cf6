/** Dynamic client registration (RFC 7591) and client authentication at the token endpoints. */
import type { FastifyRequest } from 'fastify';
import type { OAuthClientInformationFull } from '@modelcontextprotocol/sdk/shared/auth.js';
import { InvalidClientError, InvalidClientMetadataError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { Queryable } from '../db/database.ts';
import { newId, nowIso } from '../kernel/ids.ts';
import { hashSecret, secretMatches } from '../kernel/secrets.ts';
import { newSecret } from './secrets.ts';
import { findClient, insertClient, type ClientRow } from './store.ts';

export const TOKEN_ENDPOINT_AUTH_METHODS = ['none', 'client_secret_post', 'client_secret_basic'] as const;
const GRANT_TYPES = ['authorization_code', 'refresh_token'];
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);
const FORBIDDEN_SCHEMES = new Set([
  'javascript:',
  'data:',
  'vbscript:',
  'file:',
  'about:',
  'blob:',
  'ftp:',
  'ws:',
  'wss:',
]);

/** Redirect URIs a client may register: https, http on a loopback address, or a private-use scheme of a native app. */
function redirectUriProblem(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return `${raw} is not a URL`;
  }
  if (url.hash) return `${raw} must not have a fragment`;
  if (FORBIDDEN_SCHEMES.has(url.protocol)) return `${raw} uses a scheme that is not allowed`;
  if (url.protocol === 'http:' && !LOOPBACK.has(url.hostname)) return `${raw} must use https (http only for localhost)`;
  return undefined;
}

export interface RegisteredClient {
  info: OAuthClientInformationFull;
  confidential: boolean;
}

export async function registerClient(db: Queryable, body: unknown): Promise<OAuthClientInformationFull> {
  // The SDK's schemas (zod) load with the first registration, not at start (kernel/lazy-module.ts).
  const { OAuthClientMetadataSchema } = await import('@modelcontextprotocol/sdk/shared/auth.js');
  const parsed = OAuthClientMetadataSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new InvalidClientMetadataError(
      issue ? `${issue.path.join('.') || 'metadata'}: ${issue.message}` : 'Invalid client metadata',
    );
  }
  const metadata = parsed.data;
  if (metadata.redirect_uris.length === 0)
    throw new InvalidRedirectUriError('redirect_uris must hold at least one URI');
  for (const uri of metadata.redirect_uris) {
    const problem = redirectUriProblem(uri);
    if (problem) throw new InvalidRedirectUriError(problem);
  }
  const method = metadata.token_endpoint_auth_method ?? 'client_secret_basic';
  if (!(TOKEN_ENDPOINT_AUTH_METHODS as readonly string[]).includes(method)) {
    throw new InvalidClientMetadataError(
      `token_endpoint_auth_method must be one of: ${TOKEN_ENDPOINT_AUTH_METHODS.join(', ')}`,
    );
  }
  const grantTypes = metadata.grant_types ?? GRANT_TYPES;
  if (!grantTypes.includes('authorization_code') || grantTypes.some((type) => !GRANT_TYPES.includes(type))) {
    throw new InvalidClientMetadataError('grant_types must include authorization_code and may add refresh_token');
  }
  if (metadata.response_types?.some((type) => type !== 'code')) {
    throw new InvalidClientMetadataError('response_types may only hold code');
  }
  const id = newId('client');
  const issuedAt = Math.floor(Date.now() / 1000);
  const secret = method === 'none' ? undefined : newSecret('clientSecret');
  const info: OAuthClientInformationFull = {
    ...metadata,
    token_endpoint_auth_method: method,
    grant_types: grantTypes,
    response_types: ['code'],
    client_id: id,
    client_id_issued_at: issuedAt,
    ...(secret ? { client_secret: secret, client_secret_expires_at: 0 } : {}),
  };
  const { client_secret: _secret, ...stored } = info;
  await insertClient(db, {
    id,
    secret_hash: secret ? hashSecret(secret) : null,
    metadata: JSON.stringify(stored),
    created_at: nowIso(),
  });
  return info;
}

/** RFC 7591 names this error code; the SDK has no class for it. */
export class InvalidRedirectUriError extends InvalidClientMetadataError {
  static override errorCode = 'invalid_redirect_uri';
}

export function clientInfo(row: ClientRow): OAuthClientInformationFull {
  return JSON.parse(row.metadata) as OAuthClientInformationFull;
}

/** Whether a redirect URI from an authorization request is one the client registered (loopback: any port, RFC 8252). */
export function redirectUriRegistered(client: OAuthClientInformationFull, candidate: string): boolean {
  return client.redirect_uris.some((registered) => {
    if (registered === candidate) return true;
    try {
      const a = new URL(registered);
      const b = new URL(candidate);
      return (
        a.protocol === 'http:' &&
        b.protocol === 'http:' &&
        LOOPBACK.has(a.hostname) &&
        a.hostname === b.hostname &&
        a.pathname === b.pathname &&
        a.search === b.search
      );
    } catch {
      return false;
    }
  });
}

/**
 * The client of a token or revocation request: client_secret_basic, client_secret_post, or a
 * public client naming itself. A confidential client must present its secret.
 */
export async function authenticateClient(
  db: Queryable,
  request: FastifyRequest,
  body: Record<string, string>,
): Promise<{ row: ClientRow; info: OAuthClientInformationFull }> {
  let clientId = body['client_id'];
  let secret = body['client_secret'];
  const authorization = request.headers.authorization;
  if (authorization && /^Basic\s+/i.test(authorization)) {
    const decoded = Buffer.from(authorization.replace(/^Basic\s+/i, ''), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) throw new InvalidClientError('Malformed Basic credentials');
    try {
      clientId = decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' '));
      secret = decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' '));
    } catch {
      throw new InvalidClientError('Malformed Basic credentials');
    }
  }
  if (!clientId) throw new InvalidClientError('client_id is required');
  const row = await findClient(db, clientId);
  if (!row) throw new InvalidClientError('Unknown client');
  if (row.secret_hash !== null && (!secret || !secretMatches(secret, row.secret_hash))) {
    throw new InvalidClientError('Invalid client credentials');
  }
  return { row, info: clientInfo(row) };
}
