/**
 * Single-use links sent by e-mail (verify the address, reset the password): a random token in
 * the URL, its hash in `account_links`, an expiry, and `used_at` once it has been used.
 */
import type { Queryable } from '../../db/database.ts';
import { newId, nowIso } from '../../kernel/ids.ts';
import { hashSecret, newSecret } from '../../kernel/secrets.ts';
import { HOUR, isoIn } from '../../kernel/time.ts';

export type LinkKind = 'verify-email' | 'reset-password';

export const LINK_TTL_MS: Record<LinkKind, number> = { 'verify-email': 48 * HOUR, 'reset-password': 1 * HOUR };

export async function createLink(db: Queryable, accountId: string, kind: LinkKind, email: string): Promise<string> {
  const token = newSecret();
  await db.run(
    `INSERT INTO account_links (id, account_id, kind, token_hash, email, created_at, expires_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
    [newId('link'), accountId, kind, hashSecret(token), email, nowIso(), isoIn(LINK_TTL_MS[kind])],
  );
  return token;
}

export type LinkCheck =
  | { ok: true; accountId: string; email: string; linkId: string }
  | { ok: false; reason: 'invalid' | 'expired' | 'used' };

/** Checks a link without using it up. */
export async function checkLink(db: Queryable, kind: LinkKind, token: string): Promise<LinkCheck> {
  const row = await db.get<{
    id: string;
    account_id: string;
    email: string;
    expires_at: string;
    used_at: string | null;
  }>('SELECT id, account_id, email, expires_at, used_at FROM account_links WHERE token_hash = ? AND kind = ?', [
    hashSecret(token),
    kind,
  ]);
  if (!row) return { ok: false, reason: 'invalid' };
  if (row.used_at) return { ok: false, reason: 'used' };
  if (row.expires_at <= nowIso()) return { ok: false, reason: 'expired' };
  return { ok: true, accountId: row.account_id, email: row.email, linkId: row.id };
}

/** Uses the link up; false when another request used it first. */
export async function useLink(db: Queryable, linkId: string): Promise<boolean> {
  const { changes } = await db.run('UPDATE account_links SET used_at = ? WHERE id = ? AND used_at IS NULL', [
    nowIso(),
    linkId,
  ]);
  return changes === 1;
}

/** Earlier unused links of the kind stop working when a newer one is sent or one is used. */
export async function expireLinks(db: Queryable, accountId: string, kind: LinkKind): Promise<void> {
  await db.run('UPDATE account_links SET used_at = ? WHERE account_id = ? AND kind = ? AND used_at IS NULL', [
    nowIso(),
    accountId,
    kind,
  ]);
}

export const LINK_PROBLEMS: Record<'invalid' | 'expired' | 'used', string> = {
  invalid: 'This link is not valid',
  expired: 'This link has expired; ask for a new one',
  used: 'This link has already been used',
};
