/** Scopes of the hosted MCP server. API keys may hold them; OAuth grants are made of them. */
export const MCP_TOOL_SCOPES = {
  create_feature: 'features:write',
  update_feature_status: 'features:write',
  list_translation_keys: 'translations:read',
  upsert_translation_keys: 'translations:write',
} as const;

export type McpToolName = keyof typeof MCP_TOOL_SCOPES;
export type McpScope = (typeof MCP_TOOL_SCOPES)[McpToolName];

/** The scopes the MCP server knows, in the order metadata lists them. */
export const MCP_SCOPES: readonly McpScope[] = ['features:write', 'translations:read', 'translations:write'];

export function scopeForTool(name: string): McpScope | undefined {
  return Object.hasOwn(MCP_TOOL_SCOPES, name) ? MCP_TOOL_SCOPES[name as McpToolName] : undefined;
}
