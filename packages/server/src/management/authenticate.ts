/**
 * Who calls the management API: `Authorization: Bearer sp_pat_…` (scripts, the CLI) or the
 * session cookie (browsers). Cookie-authenticated writes must also pass the CSRF check.
 */
import type { FastifyRequest } from 'fastify';
import { isTrue, type Database } from '../db/database.ts';
import { ForbiddenError, UnauthorizedError } from '../kernel/errors.ts';
import { fromOwnOrigin } from '../http/same-origin.ts';
import { findSessionAccount, SESSION_COOKIE, type AccountRow } from '../resources/accounts/index.ts';
import { findTokenAccount, touchToken } from '../resources/tokens/index.ts';
import type { AccountContext } from '../routing/management/context.ts';

/** The header a browser must send with a cookie-authenticated write; cross-site forms cannot set it. */
export const CSRF_HEADER = 'x-requested-with';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function context(row: AccountRow, via: AccountContext['via'], credentialId: string): AccountContext {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    verified: isTrue(row.email_verified),
    isAdmin: isTrue(row.is_admin),
    via,
    credentialId,
  };
}

function bearerOf(request: FastifyRequest): string | undefined {
  const authorization = request.headers.authorization;
  if (!authorization) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  if (!match) throw new UnauthorizedError('Authorization must be "Bearer <personal access token>"');
  return match[1];
}

/** How stale a token's `last_used_at` may get before a request writes it again. */
const TOKEN_TOUCH_MS = 60_000;

/**
 * The calling account, or null when the request carries no credentials. Invalid credentials are
 * a 401 even on anonymous routes, so a stale token never silently acts as nobody.
 */
export async function authenticateAccount(db: Database, request: FastifyRequest): Promise<AccountContext | null> {
  const bearer = bearerOf(request);
  if (bearer !== undefined) {
    if (/^svc_(live|test)_/.test(bearer)) {
      throw new UnauthorizedError('API keys work on the public API only; use a personal access token here');
    }
    const row = await findTokenAccount<AccountRow>(db, bearer);
    if (!row) throw new UnauthorizedError('Invalid personal access token');
    // "Last used" to the minute: a write per request would queue every token request on SQLite's
    // writer and empty every memo (each commit moves the change marker), the inbox search's too.
    if (!row.token_last_used_at || Date.parse(row.token_last_used_at) <= Date.now() - TOKEN_TOUCH_MS) {
      await touchToken(db, row.token_id);
    }
    return context(row, 'token', row.token_id);
  }
  const cookie = request.cookies[SESSION_COOKIE];
  if (!cookie) return null;
  checkCsrf(request);
  const row = await findSessionAccount(db, cookie);
  if (!row) return null;
  return context(row, 'session', row.session_id);
}

/**
 * Cookie-carrying writes need the `X-Requested-With` header (any value): setting it makes a
 * cross-site browser request preflighted, and this API answers no CORS preflight. They must also
 * come from this server's own pages (see same-origin.ts: `Origin: null` only when the browser
 * says the request is same-origin).
 */
export function checkCsrf(request: FastifyRequest): void {
  if (SAFE_METHODS.has(request.method)) return;
  if (!request.headers[CSRF_HEADER]) {
    throw new ForbiddenError('Cookie-authenticated writes need the X-Requested-With header (CSRF protection)');
  }
  if (!fromOwnOrigin(request, request.server.management.config.publicUrl))
    throw new ForbiddenError('Cross-origin request refused');
}

export function accountFromRow(row: AccountRow, via: AccountContext['via'], credentialId: string): AccountContext {
  return context(row, via, credentialId);
}
