/**
 * Who is acting, for the audit log (resources/audit): set once per request by the surface that
 * authenticated it (app.ts for the management and public APIs, mcp/plugin.ts for MCP), read by the
 * use case that records an action. Carried in an AsyncLocalStorage so no use case's signature has
 * to grow an actor parameter on every surface; work outside a request (workers, the CLI's
 * server-side commands) acts as `system`.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export interface Actor {
  /** account: a team member; api_key: a project's key (public API or MCP); oauth: an MCP grant. */
  type: 'account' | 'api_key' | 'oauth' | 'system';
  /** The account, key or grant id (null for system). */
  id: string | null;
  /** What people read: the account's e-mail, the key's id, "system". */
  label: string;
  /** A team member's display name (their name, else e-mail), for histories that show names. */
  name?: string;
  /** How it came: the dashboard's session, a personal access token, the CLI, the public API, MCP. */
  via: 'session' | 'token' | 'cli' | 'public-api' | 'mcp' | 'system';
}

export const SYSTEM_ACTOR: Actor = { type: 'system', id: null, label: 'system', via: 'system' };

const storage = new AsyncLocalStorage<Actor>();

/** Runs `fn` (and everything it awaits or schedules) as `actor`. */
export function runAs<T>(actor: Actor, fn: () => T): T {
  return storage.run(actor, fn);
}

/** The actor of the running request, or system. */
export function currentActor(): Actor {
  return storage.getStore() ?? SYSTEM_ACTOR;
}
