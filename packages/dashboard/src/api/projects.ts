/** Types of the projects, keys, board and home screens, from the generated management API types. */
import type { paths } from './schema.gen.ts';

type Json<T> = T extends { content: { 'application/json': infer B } } ? B : never;

export type Team = Json<paths['/teams']['get']['responses'][200]>['teams'][number];
export type ApiKey = Json<paths['/projects/{projectId}/keys']['get']['responses'][200]>['keys'][number];
export type BoardSettings = Json<paths['/projects/{projectId}/board']['get']['responses'][200]>;
export type BoardUpdate = NonNullable<
  paths['/projects/{projectId}/board']['patch']['requestBody']
>['content']['application/json'];
export type Attention = Json<paths['/me/attention']['get']['responses'][200]>;
export type AttentionIdea = Attention['ideasToTriage'][number];

/** A key's scope, as the server's OpenAPI document lists them (the enum of createApiKey's `scopes`). */
export type KeyScope = NonNullable<
  paths['/projects/{projectId}/keys']['post']['requestBody']
>['content']['application/json']['scopes'][number];

/**
 * Every scope with what it allows. The type checks that this list is exactly the server's enum:
 * a scope added to or removed from the API breaks the dashboard's typecheck until it is listed here.
 */
const SCOPE_TEXT = {
  'public:read': 'Read site configuration and translations, report missing translation keys',
  'features:read': 'Read features, the roadmap, the changelog and comments',
  'features:write': 'Submit features, vote and comment (and, with a secret key, update features)',
  'bugs:write': 'Report bugs',
  'errors:write': 'Report errors',
  'logs:write': 'Send log entries',
  'translations:read': 'Read translations through the hosted MCP server',
  'translations:write': 'Write translations through the hosted MCP server',
  'feedback:read': 'MCP: search and read ideas and bugs',
  'feedback:write': 'MCP: comment on, set the status of, tag and merge ideas',
  'changelog:read': 'MCP: read changelog entries, drafts included',
  'changelog:write': 'MCP: draft, edit and publish changelog entries',
  'errors:read': 'MCP: search and read error groups, their events and alert rules',
  'errors:triage': 'MCP: resolve, ignore, reopen, merge and unmerge error groups; change alert rules',
  'logs:read': 'MCP: search and read log groups and lines',
  'releases:read': 'MCP: list and read releases with their health, what broke and what shipped',
  'releases:write': 'MCP: create releases and resolve ideas in a release',
  'config:read': 'MCP: read flags, maintenance, messages and flag history',
  'config:write': 'MCP: change flags, maintenance and messages',
  'people:export': 'MCP: export everything held about one person (admins only)',
  'audit:read': "MCP: read the project's audit log (admins only)",
} as const satisfies Record<KeyScope, string>;

type Exactly<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const scopesMatch: Exactly<keyof typeof SCOPE_TEXT, KeyScope> = true;
void scopesMatch;

export const KEY_SCOPES = (Object.keys(SCOPE_TEXT) as KeyScope[]).map((scope) => ({
  scope,
  description: SCOPE_TEXT[scope],
}));

/** A slug from a name, as the server makes one when none is given. */
export function slugify(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 50);
}

/** "en, de-AT" → ["en", "de-AT"]. */
export function parseLocales(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((locale) => locale.trim())
    .filter(Boolean);
}

/** A monthly quota field: empty means unlimited (null); anything else must be a whole number. */
export function parseQuota(text: string): number | null | 'invalid' {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  if (!/^\d+$/.test(trimmed)) return 'invalid';
  return Number(trimmed);
}

export function formatDate(iso: string | null | undefined): string {
  return iso ? new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' }) : '—';
}
