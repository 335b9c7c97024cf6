/**
 * Personal access tokens: `sp_pat_<lookup><secret>`. The lookup finds the row and is shown in
 * listings; the whole token is compared by hash in constant time. Shown once, revocable at once.
 */
import type { Queryable } from '../../db/database.ts';
import { newId, nowIso, randomToken } from '../../kernel/ids.ts';
import { hashSecret, secretMatches } from '../../kernel/secrets.ts';
import { DAY, isoIn } from '../../kernel/time.ts';
import type { AccountRow } from '../accounts/store.ts';

export const TOKEN_PREFIX = 'sp_pat_';
const LOOKUP_LENGTH = 12;
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

/** The account a live token belongs to, or undefined (unknown, wrong secret, revoked or expired). */
export async function findTokenAccount(db: Queryable, token: string): Promise<(AccountRow & { token_id: string }) | undefined> {
  if (!looksLikeToken(token)) return undefined;
  const lookup = token.slice(TOKEN_PREFIX.length, TOKEN_PREFIX.length + LOOKUP_LENGTH);
  const row = await db.get<AccountRow & { token_id: string; secret_hash_: string; revoked_at: string | null; expires_at_: string | null }>(
    `SELECT a.*, t.id AS token_id, t.secret_hash AS secret_hash_, t.revoked_at, t.expires_at AS expires_at_
       FROM personal_access_tokens t JOIN accounts a ON a.id = t.account_id
      WHERE t.lookup = ?`,
    [lookup],
  );
  if (!row || !secretMatches(token, row.secret_hash_) || row.revoked_at || (row.expires_at_ && row.expires_at_ <= nowIso())) {
    return undefined;
  }
  const { secret_hash_: _hash, revoked_at: _revoked, expires_at_: _expires, ...account } = row;
  return account;
}

export async function touchToken(db: Queryable, tokenId: string): Promise<void> {
  await db.run('UPDATE personal_access_tokens SET last_used_at = ? WHERE id = ?', [nowIso(), tokenId]);
}

export async function listTokens(db: Queryable, accountId: string): Promise<TokenRow[]> {
  return db.all<TokenRow>('SELECT * FROM personal_access_tokens WHERE account_id = ? ORDER BY created_at DESC, id DESC', [accountId]);
}

export async function revokeToken(db: Queryable, accountId: string, tokenId: string): Promise<TokenRow | undefined> {
  await db.run('UPDATE personal_access_tokens SET revoked_at = ? WHERE id = ? AND account_id = ? AND revoked_at IS NULL', [
    nowIso(), tokenId, accountId,
  ]);
  return db.get<TokenRow>('SELECT * FROM personal_access_tokens WHERE id = ? AND account_id = ?', [tokenId, accountId]);
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
