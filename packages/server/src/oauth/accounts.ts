/**
 * What the authorization server needs from accounts: who is signed in on this browser, which
 * projects that account may work on, and a way to sign in. The management API implements it
 * (sessions, teams: see management-accounts.ts); the OAuth code depends only on this interface.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';

export interface SignedInAccount {
  id: string;
  email: string;
  name: string;
}

export interface AccessibleProject {
  id: string;
  name: string;
  /** Whether the account may write to the project (create features, write translations), not only read. */
  canWrite: boolean;
}

export type SignInResult =
  | { ok: true; account: SignedInAccount }
  /** `retryAfterSeconds`: refused by the sign-in throttle, not for a wrong password. */
  | { ok: false; message: string; retryAfterSeconds?: number };

export interface AccountGateway {
  /** The account of the request's session cookie, or undefined. */
  signedInAccount(request: FastifyRequest): Promise<SignedInAccount | undefined>;
  /** Projects the account may work on. */
  accessibleProjects(accountId: string): Promise<AccessibleProject[]>;
  /** Checks e-mail and password; on success starts a browser session (sets its cookie on `reply`). */
  signIn(email: string, password: string, reply: FastifyReply): Promise<SignInResult>;
  /** A configured identity provider's sign-in link that comes back to `returnTo` (a path here). */
  identityProvider?(returnTo: string): { label: string; url: string } | undefined;
}
