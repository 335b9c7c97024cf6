/** The authorization server's tables. Secrets arrive in plain text and are stored as hashes. */
import type { Database, Queryable } from '../db/database.ts';
import { newId, nowIso } from '../kernel/ids.ts';
import { hashSecret } from '../kernel/secrets.ts';

export const LIFETIME = {
  consentMs: 15 * 60 * 1000,
  codeMs: 5 * 60 * 1000,
  accessTokenSeconds: 60 * 60,
  refreshTokenMs: 30 * 24 * 60 * 60 * 1000,
};

const later = (ms: number) => new Date(Date.now() + ms).toISOString();

export interface ClientRow {
  id: string;
  secret_hash: string | null;
  metadata: string;
  created_at: string;
}

export async function insertClient(db: Queryable, row: ClientRow): Promise<void> {
  await db.run('INSERT INTO oauth_clients (id, secret_hash, metadata, created_at) VALUES (?, ?, ?, ?)', [
    row.id,
    row.secret_hash,
    row.metadata,
    row.created_at,
  ]);
}

export async function findClient(db: Queryable, id: string): Promise<ClientRow | undefined> {
  return db.get<ClientRow>('SELECT * FROM oauth_clients WHERE id = ?', [id]);
}

export interface ConsentRequestRow {
  id: string;
  client_id: string;
  account_id: string;
  redirect_uri: string;
  state: string | null;
  code_challenge: string;
  resource: string;
  requested_scopes: string;
  expires_at: string;
  decided_at: string | null;
}

export type NewConsentRequest = Omit<ConsentRequestRow, 'id' | 'expires_at' | 'decided_at'>;

export async function insertConsentRequest(db: Queryable, handle: string, input: NewConsentRequest): Promise<void> {
  const now = nowIso();
  await db.run(
    `INSERT INTO oauth_consent_requests (id, handle_hash, client_id, account_id, redirect_uri, state, code_challenge, resource,
       requested_scopes, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      newId('ocr'),
      hashSecret(handle),
      input.client_id,
      input.account_id,
      input.redirect_uri,
      input.state,
      input.code_challenge,
      input.resource,
      input.requested_scopes,
      now,
      later(LIFETIME.consentMs),
    ],
  );
  // Requests nobody decided on are of no use once expired.
  await db.run('DELETE FROM oauth_consent_requests WHERE expires_at < ?', [now]);
}

/** An open consent request by its handle: not expired and not decided yet. */
export async function findOpenConsentRequest(db: Queryable, handle: string): Promise<ConsentRequestRow | undefined> {
  return db.get<ConsentRequestRow>(
    'SELECT * FROM oauth_consent_requests WHERE handle_hash = ? AND decided_at IS NULL AND expires_at > ?',
    [hashSecret(handle), nowIso()],
  );
}

/** Marks the request decided; false when another submission got there first. */
export async function decideConsentRequest(db: Queryable, id: string): Promise<boolean> {
  const result = await db.run('UPDATE oauth_consent_requests SET decided_at = ? WHERE id = ? AND decided_at IS NULL', [
    nowIso(),
    id,
  ]);
  return result.changes === 1;
}

export interface GrantRow {
  id: string;
  client_id: string;
  account_id: string;
  project_id: string;
  scopes: string;
  resource: string;
  revoked_at: string | null;
}

/** A new grant with its authorization code, in one transaction. */
export async function insertGrantWithCode(
  db: Database,
  grant: Omit<GrantRow, 'id' | 'revoked_at'>,
  code: string,
  codeChallenge: string,
  redirectUri: string,
): Promise<string> {
  const id = newId('grant');
  await db.transaction(async (tx) => {
    await tx.run(
      'INSERT INTO oauth_grants (id, client_id, account_id, project_id, scopes, resource, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      [id, grant.client_id, grant.account_id, grant.project_id, grant.scopes, grant.resource, nowIso()],
    );
    await tx.run(
      'INSERT INTO oauth_codes (code_hash, grant_id, redirect_uri, code_challenge, expires_at) VALUES (?, ?, ?, ?, ?)',
      [hashSecret(code), id, redirectUri, codeChallenge, later(LIFETIME.codeMs)],
    );
    // Codes are useless once expired; used ones stay until then, to catch a replay.
    await tx.run('DELETE FROM oauth_codes WHERE expires_at < ?', [nowIso()]);
  });
  return id;
}

export interface CodeRow {
  code_hash: string;
  grant_id: string;
  redirect_uri: string;
  code_challenge: string;
  expires_at: string;
  used_at: string | null;
}

export async function findCode(db: Queryable, code: string): Promise<(CodeRow & { grant: GrantRow }) | undefined> {
  const row = await db.get<CodeRow & Record<string, unknown>>(
    `SELECT c.*, g.client_id, g.account_id, g.project_id, g.scopes, g.resource, g.revoked_at
       FROM oauth_codes c JOIN oauth_grants g ON g.id = c.grant_id WHERE c.code_hash = ?`,
    [hashSecret(code)],
  );
  if (!row) return undefined;
  const grant: GrantRow = {
    id: row.grant_id,
    client_id: row['client_id'] as string,
    account_id: row['account_id'] as string,
    project_id: row['project_id'] as string,
    scopes: row['scopes'] as string,
    resource: row['resource'] as string,
    revoked_at: row['revoked_at'] as string | null,
  };
  return { ...row, grant };
}

/** Uses the code once; false when it was used before (a replay). */
export async function useCode(db: Queryable, codeHash: string): Promise<boolean> {
  const result = await db.run('UPDATE oauth_codes SET used_at = ? WHERE code_hash = ? AND used_at IS NULL', [
    nowIso(),
    codeHash,
  ]);
  return result.changes === 1;
}

export interface TokenRow {
  token_hash: string;
  kind: 'access' | 'refresh';
  grant_id: string;
  scopes: string;
  expires_at: string;
  rotated_at: string | null;
  revoked_at: string | null;
}

export interface IssuedTokens {
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
  scopes: string;
}

/** Stores a new access and refresh token pair of a grant. */
export async function insertTokenPair(
  db: Queryable,
  grantId: string,
  scopes: string,
  accessToken: string,
  refreshToken: string,
): Promise<void> {
  const now = nowIso();
  await db.run(
    'INSERT INTO oauth_tokens (token_hash, kind, grant_id, scopes, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)',
    [hashSecret(accessToken), 'access', grantId, scopes, now, later(LIFETIME.accessTokenSeconds * 1000)],
  );
  await db.run(
    'INSERT INTO oauth_tokens (token_hash, kind, grant_id, scopes, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)',
    [hashSecret(refreshToken), 'refresh', grantId, scopes, now, later(LIFETIME.refreshTokenMs)],
  );
  // Expired tokens of the grant are of no use to anyone.
  await db.run('DELETE FROM oauth_tokens WHERE grant_id = ? AND expires_at < ?', [grantId, now]);
}

export async function findToken(db: Queryable, token: string): Promise<(TokenRow & { grant: GrantRow }) | undefined> {
  const row = await db.get<
    TokenRow & {
      client_id: string;
      account_id: string;
      project_id: string;
      resource: string;
      grant_scopes: string;
      grant_revoked_at: string | null;
    }
  >(
    `SELECT t.*, g.client_id, g.account_id, g.project_id, g.resource, g.scopes AS grant_scopes, g.revoked_at AS grant_revoked_at
       FROM oauth_tokens t JOIN oauth_grants g ON g.id = t.grant_id WHERE t.token_hash = ?`,
    [hashSecret(token)],
  );
  if (!row) return undefined;
  return {
    ...row,
    grant: {
      id: row.grant_id,
      client_id: row.client_id,
      account_id: row.account_id,
      project_id: row.project_id,
      scopes: row.grant_scopes,
      resource: row.resource,
      revoked_at: row.grant_revoked_at,
    },
  };
}

/** Marks a refresh token used; false when it was rotated or revoked before (a replay). */
export async function rotateRefreshToken(db: Queryable, tokenHash: string): Promise<boolean> {
  const result = await db.run(
    "UPDATE oauth_tokens SET rotated_at = ? WHERE token_hash = ? AND kind = 'refresh' AND rotated_at IS NULL AND revoked_at IS NULL",
    [nowIso(), tokenHash],
  );
  return result.changes === 1;
}

export async function revokeToken(db: Queryable, tokenHash: string): Promise<void> {
  await db.run('UPDATE oauth_tokens SET revoked_at = ? WHERE token_hash = ? AND revoked_at IS NULL', [
    nowIso(),
    tokenHash,
  ]);
}

/** Ends a grant: every token issued under it stops working. */
export async function revokeGrant(db: Queryable, grantId: string): Promise<void> {
  const now = nowIso();
  await db.run('UPDATE oauth_grants SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL', [now, grantId]);
  await db.run('UPDATE oauth_tokens SET revoked_at = ? WHERE grant_id = ? AND revoked_at IS NULL', [now, grantId]);
}
