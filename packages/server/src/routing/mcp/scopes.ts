/**
 * Scopes of the hosted MCP server. API keys may hold them; OAuth grants are made of them.
 *
 * The spec's four tools keep their scopes exactly. The area tools (feedback, changelog, errors,
 * logs, releases, site_config, translations_status) take an `action`: reading actions need the
 * area's read scope, the others its write scope. `errors:write` and `logs:write` already mean
 * "send errors/logs" to the public API (keys embedded in apps hold them), so changing error
 * groups needs its own scope, `errors:triage`, and logs are read only.
 */
export const MCP_TOOL_SCOPES = {
  create_feature: 'features:write',
  update_feature_status: 'features:write',
  list_translation_keys: 'translations:read',
  upsert_translation_keys: 'translations:write',
  send_feedback: 'bugs:write',
} as const;

/** Area tools: the read scope, the write scope, the actions that only read and those that write. */
export const MCP_AREA_TOOLS = {
  feedback: {
    read: 'feedback:read',
    write: 'feedback:write',
    reads: ['search', 'get', 'person', 'attachments'],
    writes: ['create', 'comment', 'note', 'set_status', 'tag', 'merge', 'link', 'unlink'],
    /** Actions with a scope of their own: a person's export is personal data leaving the product. */
    admin: { export_person: 'people:export' },
  },
  changelog: {
    read: 'changelog:read',
    write: 'changelog:write',
    reads: ['list', 'get'],
    writes: ['draft', 'edit', 'publish', 'unpublish'],
  },
  errors: {
    read: 'errors:read',
    write: 'errors:triage',
    reads: ['search', 'get', 'events', 'event', 'alerts'],
    writes: ['resolve', 'ignore', 'reopen', 'merge', 'unmerge', 'set_alert', 'delete_alert'],
  },
  logs: { read: 'logs:read', write: 'logs:read', reads: ['search', 'get', 'lines', 'around'], writes: [] },
  releases: {
    read: 'releases:read',
    write: 'releases:write',
    reads: ['list', 'get', 'overview'],
    writes: ['create', 'resolve'],
  },
  site_config: {
    read: 'config:read',
    write: 'config:write',
    reads: ['get', 'flag_history'],
    writes: ['set_flag', 'set_maintenance', 'set_message'],
  },
  translations_status: {
    read: 'translations:read',
    write: 'translations:read',
    reads: ['missing', 'progress'],
    writes: [],
  },
  /** The audit log names colleagues, keys and settings: admins only, as in the management API. */
  audit: { read: 'audit:read', write: 'audit:read', reads: ['list'], writes: [] },
} as const;

export type McpToolName = keyof typeof MCP_TOOL_SCOPES | keyof typeof MCP_AREA_TOOLS;
type AreaScope = (typeof MCP_AREA_TOOLS)[keyof typeof MCP_AREA_TOOLS]['read' | 'write'];
type AdminScope = (typeof MCP_AREA_TOOLS)['feedback']['admin'][keyof (typeof MCP_AREA_TOOLS)['feedback']['admin']];
export type McpScope = (typeof MCP_TOOL_SCOPES)[keyof typeof MCP_TOOL_SCOPES] | AreaScope | AdminScope;

/** What each scope allows, in words: the consent page and the docs show these. */
export const SCOPE_WORDS: Record<McpScope, string> = {
  'features:write': 'create feature requests and bugs, and change their status',
  'translations:read': 'read translation keys, missing keys and translation progress',
  'translations:write': 'create and fill in translation keys',
  'feedback:read':
    'search and read ideas and bugs with their votes, comments, tags, attachments and the people who asked',
  'feedback:write':
    'file ideas for people, comment on ideas, add internal notes, change their status, tag, merge and link them to errors',
  'changelog:read': 'read changelog entries, drafts included',
  'changelog:write': 'draft, edit and publish changelog entries',
  'errors:read':
    'search and read error groups and their events with their stack, breadcrumbs and history, and alert rules',
  'errors:triage': 'resolve, ignore, reopen, merge and unmerge error groups, and change alert rules',
  'logs:read': 'search and read log groups and log lines',
  'releases:read': 'list and read releases with their health, what broke and what shipped',
  'releases:write': 'create releases and resolve ideas in a release',
  'config:read': 'read the site configuration (flags, maintenance, messages) and flag history',
  'config:write': 'turn flags on and off, set maintenance mode and site messages',
  'bugs:write': 'report problems the agent hits (send_feedback) as bug reports',
  'people:export': 'export everything held about one person (admins only)',
  'audit:read': 'read the audit log of the project (admins only)',
};

/**
 * The scopes the MCP server knows, in the order metadata lists them (the spec's three first): the
 * order SCOPE_WORDS names them in, so a scope is written down once.
 */
export const MCP_SCOPES: readonly McpScope[] = Object.keys(SCOPE_WORDS) as McpScope[];

/**
 * The scopes that only read: what the consent page's "Read" grants. The admin-only scopes
 * (people:export, audit:read) come with "Read and write" only, which needs the admin role.
 */
export const MCP_READ_SCOPES: readonly McpScope[] = [
  'translations:read',
  'feedback:read',
  'changelog:read',
  'errors:read',
  'logs:read',
  'releases:read',
  'config:read',
];

const isArea = (name: string): name is keyof typeof MCP_AREA_TOOLS => Object.hasOwn(MCP_AREA_TOOLS, name);

/** Whether an area tool's action only reads (an admin action reads too, but needs its own scope). */
export function isReadAction(tool: keyof typeof MCP_AREA_TOOLS, action: string): boolean {
  return (MCP_AREA_TOOLS[tool].reads as readonly string[]).includes(action) || adminScope(tool, action) !== undefined;
}

/** The scope of an action that has one of its own (admins only), if it has. */
export function adminScope(tool: keyof typeof MCP_AREA_TOOLS, action: string): McpScope | undefined {
  const area = MCP_AREA_TOOLS[tool] as { admin?: Record<string, McpScope> };
  return area.admin && Object.hasOwn(area.admin, action) ? area.admin[action] : undefined;
}

/** The scope an area tool's action needs, undefined for an unknown action. */
export function scopeOfAction(tool: keyof typeof MCP_AREA_TOOLS, action: string): McpScope | undefined {
  const area = MCP_AREA_TOOLS[tool];
  const own = adminScope(tool, action);
  if (own) return own;
  if ((area.reads as readonly string[]).includes(action)) return area.read;
  return (area.writes as readonly string[]).includes(action) ? area.write : undefined;
}

/**
 * The scope a call needs: the tool's, or for an area tool the one its action needs. Undefined
 * for an unknown tool or an area call without a string action (the tool refuses those itself).
 */
export function scopeForCall(name: string, args: unknown): McpScope | undefined {
  if (Object.hasOwn(MCP_TOOL_SCOPES, name)) return MCP_TOOL_SCOPES[name as keyof typeof MCP_TOOL_SCOPES];
  if (!isArea(name)) return undefined;
  const action = args && typeof args === 'object' ? (args as { action?: unknown }).action : undefined;
  if (typeof action !== 'string') return undefined;
  return scopeOfAction(name, action);
}

/** Kept for callers that know only a tool name (the spec's tools). */
export function scopeForTool(name: string): McpScope | undefined {
  return scopeForCall(name, undefined);
}
