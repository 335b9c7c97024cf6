/**
 * Types every management route shares: the app type, its dependencies, roles and the signed-in
 * account. A route file (`resources/<resource>/management-routes.ts`) imports from here and from
 * `access.ts`; neither imports the management surface (`src/management/`), which mounts the routes.
 */
import type { FastifyRequest } from 'fastify';
import type { TypedApp } from '../typed-app.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import type { Mailer } from '../../mail/mailer.ts';
import type { ProjectRow } from '../../resources/projects/index.ts';

export const MANAGEMENT_API_PREFIX = '/api/v1';

/** Team roles, weakest first: members read; admins manage projects, keys and resources; owners manage members and seats. */
export const ROLES = ['member', 'admin', 'owner'] as const;
export type Role = (typeof ROLES)[number];

export function roleAtLeast(role: Role, minimum: Role): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(minimum);
}

/** Who calls: an account signed in with a session cookie or a personal access token. */
export interface AccountContext {
  id: string;
  email: string;
  name: string;
  verified: boolean;
  /** The instance administrator (the first account to sign up). */
  isAdmin: boolean;
  via: 'session' | 'token';
  /** The session or token id the request came with. */
  credentialId: string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Management API: the route needs no signed-in account (sign-up, sign-in, links from e-mails). */
    anonymous?: boolean;
  }
  interface FastifyRequest {
    /** Management API: the signed-in account; null only on `anonymous` routes. */
    account: AccountContext | null;
  }
  interface FastifyInstance {
    /** Management API: its dependencies, decorated on the management plugin's scope only. */
    management: ManagementDeps;
  }
}

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

/**
 * The membership reads the access checks need. They are handed in by the surface that mounts the
 * routes (`management/memberships.ts`, over `resources/teams`) rather than imported here: this
 * folder sits below the resources, and the checks must stay one rule for every resource's routes
 * without this folder depending on any of them.
 */
export interface MembershipLookups {
  /** The project with the account's role on its team, if the account is a member of that team. */
  project(accountId: string, projectId: string): Promise<ProjectAccess | undefined>;
  /** The team with the account's role on it, if the account is a member. */
  team(accountId: string, teamId: string): Promise<TeamAccess | undefined>;
}

export interface ManagementDeps {
  db: Database;
  config: Config;
  mailer: Mailer;
  memberships: MembershipLookups;
}

export type ManagementApp = TypedApp;

/** A route plugin of the management API: `export async function fooRoutes(app, deps) {…}`. */
export type ManagementRoutes = (app: ManagementApp, deps: ManagementDeps) => Promise<void>;

export type { FastifyRequest };
