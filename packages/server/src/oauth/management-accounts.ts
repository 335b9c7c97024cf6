/**
 * The accounts of the management API behind the consent page: its session cookie, its sign-in
 * (the same path and throttle as POST /api/v1/auth/sign-in), and team membership for project
 * access. Team members may grant read access; write access needs the admin role, as writes do in
 * the management API.
 */
import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { findSessionAccount, SESSION_COOKIE, signInWithPassword } from '../resources/accounts/index.ts';
import { listProjectMemberships } from '../resources/teams/index.ts';
import { MANAGEMENT_API_PREFIX, roleAtLeast } from '../routing/management/context.ts';
import type { AccountGateway } from './accounts.ts';

function cookieValue(request: FastifyRequest, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

export function managementAccounts(db: Database, config: Config): AccountGateway {
  return {
    async signedInAccount(request) {
      const token = cookieValue(request, SESSION_COOKIE);
      const row = token ? await findSessionAccount(db, token) : undefined;
      return row ? { id: row.id, email: row.email, name: row.name } : undefined;
    },

    async accessibleProjects(accountId) {
      const rows = await listProjectMemberships(db, accountId);
      // An account may reach a project through one team only, but keep the strongest role if not.
      const byId = new Map<string, { id: string; name: string; canWrite: boolean }>();
      for (const row of rows) {
        const canWrite = roleAtLeast(row.role, 'admin');
        const seen = byId.get(row.id);
        byId.set(row.id, { id: row.id, name: row.name, canWrite: canWrite || (seen?.canWrite ?? false) });
      }
      return [...byId.values()];
    },

    async signIn(email, password, reply) {
      const result = await signInWithPassword({ db, config }, reply, email, password);
      if (result.ok)
        return { ok: true, account: { id: result.account.id, email: result.account.email, name: result.account.name } };
      if (result.reason === 'throttled') {
        return {
          ok: false,
          message: `Too many sign-in attempts; try again in ${result.retryAfterSeconds} s.`,
          retryAfterSeconds: result.retryAfterSeconds,
        };
      }
      return { ok: false, message: 'Wrong e-mail address or password.' };
    },

    identityProvider(returnTo) {
      const oidc = config.accounts.oidc;
      // The management API takes return paths of up to 500 characters.
      if (!oidc || returnTo.length > 500) return undefined;
      return {
        label: oidc.label,
        url: `${MANAGEMENT_API_PREFIX}/auth/oidc/start?${new URLSearchParams({ returnTo })}`,
      };
    },
  };
}
