import type { Config } from '../config.ts';
import { MCP_SCOPES } from '../routing/mcp/scopes.ts';

/** The resource identifier of the MCP server: the audience of its access tokens. */
export const mcpResourceUrl = (config: Config): string => `${config.publicUrl}/mcp`;

export const resourceMetadataUrl = (config: Config): string =>
  `${config.publicUrl}/.well-known/oauth-protected-resource/mcp`;

/** OAuth 2.0 Protected Resource Metadata (RFC 9728) of /mcp. Signpost is its own authorization server. */
export function protectedResourceMetadata(config: Config) {
  return {
    resource: mcpResourceUrl(config),
    authorization_servers: [config.publicUrl],
    scopes_supported: [...MCP_SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: 'Signpost MCP server',
    resource_documentation: `${config.publicUrl}/api/public/v1/docs`,
  };
}
