/**
 * Who may call /mcp: a bearer API key (svc_live_/svc_test_, also accepted as X-API-Key), or an
 * OAuth access token issued by Signpost's own authorization server for this resource.
 */
import type { FastifyRequest } from 'fastify';
import type { Database } from '../db/database.ts';
import { parseApiKey } from '../kernel/api-keys.ts';
import { authenticateApiKey, presentedKey } from '../http/authenticate.ts';
import { findKeyByLookup } from '../resources/projects/index.ts';
import { HttpError } from '../kernel/errors.ts';
import type { McpPrincipal } from '../routing/mcp/principal.ts';
import { MCP_READ_SCOPES, scopeForCall, type McpScope } from '../routing/mcp/scopes.ts';

/** Checks an access token from the OAuth server; undefined when it is unknown, expired, revoked or for another resource. */
export interface AccessTokenVerifier {
  verify(token: string): Promise<McpPrincipal | undefined>;
}

const quote = (value: string) => `"${value.replace(/["\\]/g, '')}"`;

/** 401: the challenge names the protected resource metadata, so OAuth clients can discover how to sign in. */
export class McpUnauthorizedError extends HttpError {
  constructor(message: string, resourceMetadataUrl: string, invalidToken: boolean) {
    const params = [`resource_metadata=${quote(resourceMetadataUrl)}`];
    if (invalidToken) params.unshift(`error="invalid_token"`, `error_description=${quote(message)}`);
    super(401, 'Unauthorized', message, { 'WWW-Authenticate': `Bearer ${params.join(', ')}` });
  }
}

/** 403 insufficient_scope naming the scope, so an OAuth client can ask the user for it (step-up). */
export class McpInsufficientScopeError extends HttpError {
  readonly scope: McpScope;
  constructor(message: string, scope: McpScope, resourceMetadataUrl: string) {
    super(403, 'Forbidden', message, {
      'WWW-Authenticate': `Bearer error="insufficient_scope", scope=${quote(scope)}, resource_metadata=${quote(resourceMetadataUrl)}, error_description=${quote(message)}`,
    });
    this.scope = scope;
  }
}

export async function authenticateMcp(
  request: FastifyRequest,
  db: Database,
  tokens: AccessTokenVerifier | undefined,
  resourceMetadataUrl: string,
): Promise<McpPrincipal> {
  const credential = presentedKey(request.headers);
  if (!credential) {
    throw new McpUnauthorizedError(
      'Missing credentials: send an API key or an OAuth access token as Authorization: Bearer',
      resourceMetadataUrl,
      false,
    );
  }
  if (parseApiKey(credential)) {
    try {
      const key = await authenticateApiKey(db, credential, findKeyByLookup);
      return {
        kind: 'api-key',
        projectId: key.project.id,
        environment: key.environment,
        scopes: key.scopes,
        publishable: key.publishable,
        callerId: key.keyId,
      };
    } catch (error) {
      if (error instanceof HttpError && error.statusCode === 401) {
        throw new McpUnauthorizedError(error.message, resourceMetadataUrl, true);
      }
      throw error;
    }
  }
  const principal = await tokens?.verify(credential);
  if (!principal) {
    throw new McpUnauthorizedError(
      'Invalid access token: it is unknown, expired or revoked, or was issued for another resource',
      resourceMetadataUrl,
      true,
    );
  }
  return principal;
}

/**
 * The scope check runs before the MCP transport sees the request: a tools/call for a tool whose
 * scope the caller lacks is refused with HTTP 403 insufficient_scope (MCP authorization spec,
 * "Scope challenge handling"). Other methods (initialize, tools/list) need no scope.
 */
export function checkToolScopes(body: unknown, principal: McpPrincipal, resourceMetadataUrl: string): void {
  const messages = Array.isArray(body) ? body : [body];
  for (const message of messages) {
    if (!message || typeof message !== 'object' || (message as { method?: unknown }).method !== 'tools/call') continue;
    const params = (message as { params?: { name?: unknown; arguments?: unknown } }).params;
    const name = params?.name;
    const scope = typeof name === 'string' ? scopeForCall(name, params?.arguments) : undefined;
    if (!scope || principal.scopes.has(scope)) continue;
    const fix =
      principal.kind === 'api-key'
        ? `Use an API key that has the ${scope} scope.`
        : `Reconnect the MCP server and choose ${MCP_READ_SCOPES.includes(scope) ? 'read or write' : 'write'} access on the consent page.`;
    throw new McpInsufficientScopeError(
      `${principal.kind === 'api-key' ? 'This API key' : 'This access token'} lacks the ${scope} scope, which ${describeCall(name as string, params?.arguments)} needs. ${fix}`,
      scope,
      resourceMetadataUrl,
    );
  }
}

/** "feedback (action set_status)" or a plain tool name, for refusals. */
function describeCall(name: string, args: unknown): string {
  const action = args && typeof args === 'object' ? (args as { action?: unknown }).action : undefined;
  return typeof action === 'string' && /^[a-z_]{1,40}$/.test(action) ? `${name} (action ${action})` : name;
}
