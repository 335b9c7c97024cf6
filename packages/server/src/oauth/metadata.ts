import type { OAuthMetadata } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { Config } from '../config.ts';
import { MCP_SCOPES } from '../routing/mcp/scopes.ts';
import { TOKEN_ENDPOINT_AUTH_METHODS } from './clients.ts';

export const OAUTH_PATHS = {
  authorize: '/oauth/authorize',
  token: '/oauth/token',
  register: '/oauth/register',
  revoke: '/oauth/revoke',
  signIn: '/oauth/sign-in',
} as const;

/** The issuer is the server's public origin (PUBLIC_URL). */
export const issuerOf = (config: Config): string => config.publicUrl;

/** RFC 8414 authorization server metadata. */
export function authorizationServerMetadata(config: Config): OAuthMetadata {
  const base = config.publicUrl;
  return {
    issuer: issuerOf(config),
    authorization_endpoint: base + OAUTH_PATHS.authorize,
    token_endpoint: base + OAUTH_PATHS.token,
    registration_endpoint: base + OAUTH_PATHS.register,
    revocation_endpoint: base + OAUTH_PATHS.revoke,
    scopes_supported: [...MCP_SCOPES],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    token_endpoint_auth_methods_supported: [...TOKEN_ENDPOINT_AUTH_METHODS],
    revocation_endpoint_auth_methods_supported: [...TOKEN_ENDPOINT_AUTH_METHODS],
    code_challenge_methods_supported: ['S256'],
    authorization_response_iss_parameter_supported: true,
    service_documentation: `${base}/api/public/v1/docs`,
  };
}
