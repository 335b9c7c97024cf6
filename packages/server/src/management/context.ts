/**
 * Types every management route shares: the app type, its dependencies, roles and the signed-in
 * account. A route file under `src/management/<resource>/routes.ts` imports from here and from
 * `access.ts`, nothing else of the plugin.
 */
import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyRequest,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import type { Mailer } from '../mail/mailer.ts';

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

export interface ManagementDeps {
  db: Database;
  config: Config;
  mailer: Mailer;
}

export type ManagementApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/** A route plugin of the management API: `export async function fooRoutes(app, deps) {…}`. */
export type ManagementRoutes = (app: ManagementApp, deps: ManagementDeps) => Promise<void>;

export type { FastifyRequest };
