/**
 * Signing in with e-mail and password: the one path behind POST /api/v1/auth/sign-in and the
 * OAuth consent page's sign-in form, so both share the throttle and give the same answers.
 */
import type { FastifyReply } from 'fastify';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { setSessionCookie } from './cookies.ts';
import { passwordMatches } from './passwords.ts';
import { createSession, deleteExpiredSessions } from './store-sessions.ts';
import { claimAttempt, CLIENT_POLICY, releaseAttempt } from './sign-in-throttle.ts';
import { findAccountByEmail, normaliseEmail, type AccountRow } from './store.ts';

export type PasswordSignIn =
  | { ok: true; account: AccountRow }
  | { ok: false; reason: 'wrong' }
  | { ok: false; reason: 'throttled'; retryAfterSeconds: number };

/** The IETF RateLimit fields and Retry-After of a throttled sign-in. */
export function throttledHeaders(retryAfterSeconds: number): Record<string, string> {
  return {
    'Retry-After': String(retryAfterSeconds),
    'RateLimit-Limit': String(CLIENT_POLICY.free),
    'RateLimit-Remaining': '0',
    'RateLimit-Reset': String(retryAfterSeconds),
  };
}

/**
 * Checks the password under the throttle (client: the request's address, as Fastify sees it
 * with TRUST_PROXY) and, when it is right, starts a session and sets its cookie on `reply`.
 * A wrong password and an unknown address are the same answer.
 */
export async function signInWithPassword(
  { db, config }: { db: Database; config: Config },
  reply: FastifyReply,
  email: string,
  password: string,
): Promise<PasswordSignIn> {
  const address = normaliseEmail(email);
  const claim = await claimAttempt(db, reply.request.ip, address);
  if (!claim.allowed) return { ok: false, reason: 'throttled', retryAfterSeconds: claim.retryAfterSeconds };
  const account = await findAccountByEmail(db, address);
  if (!(await passwordMatches(password, account?.password_hash)) || !account) return { ok: false, reason: 'wrong' };
  await releaseAttempt(db, claim);
  await deleteExpiredSessions(db, account.id);
  setSessionCookie(reply, config, await createSession(db, account.id, config.accounts.sessionTtlDays));
  return { ok: true, account };
}
