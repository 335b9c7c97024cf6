/**
 * Every scope an API key may hold, in one list: the public API's permissions (with the text the
 * OpenAPI document shows for each) and the hosted MCP server's translation and area scopes.
 */
export const PUBLIC_PERMISSIONS = {
  'public:read': 'Read site configuration and translations, report missing translation keys.',
  'features:read': 'Read features, roadmap, changelog and comments.',
  'features:write': 'Submit and update features, vote and comment.',
  'bugs:write': 'Report bugs.',
  'errors:write': 'Report errors.',
  'logs:write': 'Send log entries.',
} as const;

/** A permission of the public API: what a route of it needs. */
export type Permission = keyof typeof PUBLIC_PERMISSIONS;

export const ALL_PUBLIC_SCOPES = Object.keys(PUBLIC_PERMISSIONS) as readonly Permission[];

/** The scopes an API key may hold on top of the public API's: the translation tools' own. */
export const TRANSLATION_SCOPES = ['translations:read', 'translations:write'] as const;

/** The hosted MCP server's area scopes (src/routing/mcp/scopes.ts says which tool action needs which). */
export const MCP_AREA_SCOPES = [
  'feedback:read',
  'feedback:write',
  'changelog:read',
  'changelog:write',
  'errors:read',
  'errors:triage',
  'logs:read',
  'releases:read',
  'releases:write',
  'config:read',
  'config:write',
  'people:export',
  'audit:read',
] as const;

/** Every scope an API key may hold. */
export const ALL_KEY_SCOPES = [...ALL_PUBLIC_SCOPES, ...TRANSLATION_SCOPES, ...MCP_AREA_SCOPES] as const;

export type KeyScope = (typeof ALL_KEY_SCOPES)[number];
