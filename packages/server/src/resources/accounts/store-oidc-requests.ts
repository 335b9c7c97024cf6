/** Sign-ins under way at the identity provider (`oidc_requests`): state, nonce and PKCE verifier, kept briefly. */
import type { Queryable } from '../../db/database.ts';
import { nowIso } from '../../kernel/ids.ts';
import { isoIn } from '../../kernel/time.ts';

export interface PendingSignIn {
  code_verifier: string;
  nonce: string;
  return_to: string;
  expires_at: string;
}

/** Keeps a new request for `ttlMs`, dropping the expired ones first. */
export async function saveOidcRequest(
  db: Queryable,
  request: { state: string; codeVerifier: string; nonce: string; returnTo: string },
  ttlMs: number,
): Promise<void> {
  await db.run('DELETE FROM oidc_requests WHERE expires_at < ?', [nowIso()]);
  await db.run(
    'INSERT INTO oidc_requests (state, code_verifier, nonce, return_to, expires_at) VALUES (?, ?, ?, ?, ?)',
    [request.state, request.codeVerifier, request.nonce, request.returnTo, isoIn(ttlMs)],
  );
}

/** Takes the request of `state` out (it works once), expired or not: the caller checks `expires_at`. */
export async function takeOidcRequest(db: Queryable, state: string): Promise<PendingSignIn | undefined> {
  return db.get<PendingSignIn>(
    'DELETE FROM oidc_requests WHERE state = ? RETURNING code_verifier, nonce, return_to, expires_at',
    [state],
  );
}
