/**
 * The access rules of the management API, in one place. Every route that touches a project or a
 * team goes through one of these, most through their declaration (`declared-access.ts`): another
 * team's project answers exactly like a missing one (404), and a role below the one needed is a 403
 * naming both roles.
 */
import type { FastifyRequest } from 'fastify';
import { ForbiddenError, NotFoundError, UnauthorizedError } from '../../kernel/errors.ts';
import { type AccountContext, type ProjectAccess, type Role, roleAtLeast, type TeamAccess } from './context.ts';

export type { ProjectAccess, TeamAccess };

/** The signed-in account (the plugin's hook has run; only `anonymous` routes may see null). */
export function requireAccount(request: FastifyRequest): AccountContext {
  if (!request.account) throw new UnauthorizedError('Sign in required');
  return request.account;
}

/** A 403 naming both roles unless `role` is at least `minimum` (for a rule that depends on the request). */
export function requireRole(role: Role, minimum: Role): void {
  if (!roleAtLeast(role, minimum)) {
    throw new ForbiddenError(
      `This needs the ${minimum} role on the team; you are ${role === 'admin' ? 'an' : 'a'} ${role}`,
    );
  }
}

/**
 * The project `projectId` if the caller's team owns it and the caller's role is at least
 * `minimumRole`. A missing project and another team's project are the same 404.
 * A route whose path has `:projectId` declares the role instead (`declared-access.ts`); a handler
 * calls this only for a project that is not in its path (named in the body, created just now).
 */
export async function requireProjectAccess(
  request: FastifyRequest,
  projectId: string,
  minimumRole: Role,
): Promise<ProjectAccess> {
  const account = requireAccount(request);
  const row = await request.server.management.memberships.project(account.id, projectId);
  if (!row) throw new NotFoundError();
  requireRole(row.role, minimumRole);
  return row;
}

/** The team `teamId` if the caller is a member with at least `minimumRole`; else 404 (not a member) or 403. */
export async function requireTeamAccess(
  request: FastifyRequest,
  teamId: string,
  minimumRole: Role,
): Promise<TeamAccess> {
  const account = requireAccount(request);
  const team = await request.server.management.memberships.team(account.id, teamId);
  if (!team) throw new NotFoundError();
  requireRole(team.role, minimumRole);
  return team;
}

/** Instance administration (seat limits): only the instance administrator. */
export function requireInstanceAdmin(request: FastifyRequest): AccountContext {
  const account = requireAccount(request);
  if (!account.isAdmin) throw new ForbiddenError('This needs the instance administrator');
  return account;
}
