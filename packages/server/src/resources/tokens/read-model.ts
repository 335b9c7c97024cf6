/** The account behind a personal access token: a read that joins the accounts table. */
import type { Queryable } from '../../db/database.ts';
import { nowIso } from '../../kernel/ids.ts';
import { secretMatches } from '../../kernel/secrets.ts';
import { LOOKUP_LENGTH, looksLikeToken, TOKEN_PREFIX } from './store.ts';

/**
 * The account row a live token belongs to (every column of `accounts`, typed by the caller as
 * `Account`), with the token's id; undefined when unknown, wrong secret, revoked or expired.
 */
export async function findTokenAccount<Account extends object>(
  db: Queryable,
  token: string,
): Promise<(Account & { token_id: string; token_last_used_at: string | null }) | undefined> {
  if (!looksLikeToken(token)) return undefined;
  const lookup = token.slice(TOKEN_PREFIX.length, TOKEN_PREFIX.length + LOOKUP_LENGTH);
  const row = await db.get<
    Account & {
      token_id: string;
      token_last_used_at: string | null;
      secret_hash_: string;
      revoked_at: string | null;
      expires_at_: string | null;
    }
  >(
    `SELECT a.*, t.id AS token_id, t.last_used_at AS token_last_used_at, t.secret_hash AS secret_hash_, t.revoked_at,
            t.expires_at AS expires_at_
       FROM personal_access_tokens t JOIN accounts a ON a.id = t.account_id
      WHERE t.lookup = ?`,
    [lookup],
  );
  if (
    !row ||
    !secretMatches(token, row.secret_hash_) ||
    row.revoked_at ||
    (row.expires_at_ && row.expires_at_ <= nowIso())
  ) {
    return undefined;
  }
  const { secret_hash_: _hash, revoked_at: _revoked, expires_at_: _expires, ...account } = row;
  return account as Account & { token_id: string; token_last_used_at: string | null };
}
