import type { FastifyReply } from 'fastify';
import type { Config } from '../../config.ts';
import type { NewSession } from './store-sessions.ts';

/** The browser session's cookie (its token; the database keeps only the hash). */
export const SESSION_COOKIE = 'signpost_session';

/** Secure (unless configured off for plain-http hosts), HTTP-only, SameSite=Lax, whole site. */
export function setSessionCookie(reply: FastifyReply, config: Config, session: NewSession): void {
  reply.setCookie(SESSION_COOKIE, session.token, {
    httpOnly: true,
    secure: config.accounts.secureCookies,
    sameSite: 'lax',
    path: '/',
    expires: new Date(session.expiresAt),
  });
}

export function clearSessionCookie(reply: FastifyReply, config: Config): void {
  reply.clearCookie(SESSION_COOKIE, {
    httpOnly: true,
    secure: config.accounts.secureCookies,
    sameSite: 'lax',
    path: '/',
  });
}
