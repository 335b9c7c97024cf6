import { MCP_READ_SCOPES, MCP_SCOPES, type McpScope } from '../routing/mcp/scopes.ts';

/** The two choices of the consent page and the scopes each grants. */
export const ACCESS_LEVELS: Record<'read' | 'write', readonly McpScope[]> = {
  read: MCP_READ_SCOPES,
  write: MCP_SCOPES,
};

export type AccessLevel = keyof typeof ACCESS_LEVELS;

export const isAccessLevel = (value: unknown): value is AccessLevel => value === 'read' || value === 'write';

/** Known MCP scopes of a space-separated list, in canonical order; unknown ones are ignored (RFC 6749 3.3). */
export function parseScopes(raw: string | undefined | null): McpScope[] {
  const asked = new Set((raw ?? '').split(' ').filter(Boolean));
  return MCP_SCOPES.filter((scope) => asked.has(scope));
}

export const formatScopes = (scopes: readonly string[]): string => scopes.join(' ');
