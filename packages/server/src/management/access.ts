/**
 * The access rules of the management API, in one place. Every route that touches a project or a
 * team goes through one of these: another team's project answers exactly like a missing one (404),
 * and a role below the one needed is a 403 naming both roles.
 */
import type { FastifyRequest } from 'fastify';
import type { ProjectRow } from '../resources/projects/index.ts';
import { ForbiddenError, NotFoundError, UnauthorizedError } from '../kernel/errors.ts';
import { findProjectMembership, findTeamMembership } from '../resources/teams/index.ts';
import { roleAtLeast, type AccountContext, type Role } from './context.ts';

/** A project the caller reaches through one of their teams, with the caller's role there. */
export interface ProjectAccess extends ProjectRow {
  team_id: string;
  /** The caller's role on the project's team. */
  role: Role;
}

export interface TeamAccess {
  id: string;
  name: string;
  ownerAccountId: string;
  createdAt: string;
  role: Role;
}

/** The signed-in account (the plugin's hook has run; only `anonymous` routes may see null). */
export function requireAccount(request: FastifyRequest): AccountContext {
  if (!request.account) throw new UnauthorizedError('Sign in required');
  return request.account;
}

function requireRole(role: Role, minimum: Role): void {
  if (!roleAtLeast(role, minimum)) {
    throw new ForbiddenError(
      `This needs the ${minimum} role on the team; you are ${role === 'admin' ? 'an' : 'a'} ${role}`,
    );
  }
}

/**
 * The project `projectId` if the caller's team owns it and the caller's role is at least
 * `minimumRole`. A missing project and another team's project are the same 404.
 *
 *   const project = await requireProjectAccess(request, request.params.projectId, 'admin');
 */
export async function requireProjectAccess(
  request: FastifyRequest,
  projectId: string,
  minimumRole: Role,
): Promise<ProjectAccess> {
  const account = requireAccount(request);
  const row = await findProjectMembership<ProjectAccess>(request.server.management.db, account.id, projectId);
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
  const row = await findTeamMembership(request.server.management.db, account.id, teamId);
  if (!row) throw new NotFoundError();
  requireRole(row.role, minimumRole);
  return {
    id: row.id,
    name: row.name,
    ownerAccountId: row.owner_account_id,
    createdAt: row.created_at,
    role: row.role,
  };
}

/** Instance administration (seat limits): only the instance administrator. */
export function requireInstanceAdmin(request: FastifyRequest): AccountContext {
  const account = requireAccount(request);
  if (!account.isAdmin) throw new ForbiddenError('This needs the instance administrator');
  return account;
}
