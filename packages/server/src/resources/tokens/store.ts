/**
 * Personal access tokens: `sp_pat_<lookup><secret>`. The lookup finds the row and is shown in
 * listings; the whole token is compared by hash in constant time. Shown once, revocable at once.
 */
import type { Queryable } from '../../db/database.ts';
import { newId, nowIso, randomToken } from '../../kernel/ids.ts';
import { hashSecret } from '../../kernel/secrets.ts';
import { DAY, isoIn } from '../../kernel/time.ts';

export const TOKEN_PREFIX = 'sp_pat_';
export const LOOKUP_LENGTH = 12;
const SECRET_LENGTH = 32;

export interface TokenRow {
  id: string;
  account_id: string;
  name: string;
  lookup: string;
  secret_hash: string;
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
  revoked_at: string | null;
}

export function looksLikeToken(value: string): boolean {
  return value.startsWith(TOKEN_PREFIX) && value.length === TOKEN_PREFIX.length + LOOKUP_LENGTH + SECRET_LENGTH;
}

export async function createToken(
  db: Queryable,
  accountId: string,
  name: string,
  expiresInDays: number | undefined,
): Promise<{ token: string; row: TokenRow }> {
  const lookup = randomToken(LOOKUP_LENGTH);
  const token = TOKEN_PREFIX + lookup + randomToken(SECRET_LENGTH);
  const id = newId('pat');
  await db.run(
    `INSERT INTO personal_access_tokens (id, account_id, name, lookup, secret_hash, created_at, expires_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
    [id, accountId, name, lookup, hashSecret(token), nowIso(), expiresInDays ? isoIn(expiresInDays * DAY) : null],
  );
  return { token, row: (await db.get<TokenRow>('SELECT * FROM personal_access_tokens WHERE id = ?', [id]))! };
}

export async function touchToken(db: Queryable, tokenId: string): Promise<void> {
  await db.run('UPDATE personal_access_tokens SET last_used_at = ? WHERE id = ?', [nowIso(), tokenId]);
}

export async function listTokens(db: Queryable, accountId: string): Promise<TokenRow[]> {
  return db.all<TokenRow>(
    'SELECT * FROM personal_access_tokens WHERE account_id = ? ORDER BY created_at DESC, id DESC',
    [accountId],
  );
}

export async function revokeToken(db: Queryable, accountId: string, tokenId: string): Promise<TokenRow | undefined> {
  await db.run(
    'UPDATE personal_access_tokens SET revoked_at = ? WHERE id = ? AND account_id = ? AND revoked_at IS NULL',
    [nowIso(), tokenId, accountId],
  );
  return db.get<TokenRow>('SELECT * FROM personal_access_tokens WHERE id = ? AND account_id = ?', [tokenId, accountId]);
}

/** Every live token of the account stops working (its address was taken over by an identity provider's). */
export async function revokeAccountTokens(db: Queryable, accountId: string): Promise<void> {
  await db.run('UPDATE personal_access_tokens SET revoked_at = ? WHERE account_id = ? AND revoked_at IS NULL', [
    nowIso(),
    accountId,
  ]);
}

export function presentToken(row: TokenRow) {
  return {
    id: row.id,
    name: row.name,
    prefix: TOKEN_PREFIX + row.lookup,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    lastUsedAt: row.last_used_at,
    revokedAt: row.revoked_at,
  };
}
