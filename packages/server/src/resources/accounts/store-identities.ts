/** Identities at an identity provider (`account_identities`): issuer and subject, linked to an account. */
import type { Queryable } from '../../db/database.ts';
import { nowIso } from '../../kernel/ids.ts';

export async function findIdentityAccountId(
  db: Queryable,
  issuer: string,
  subject: string,
): Promise<string | undefined> {
  const row = await db.get<{ account_id: string }>(
    'SELECT account_id FROM account_identities WHERE issuer = ? AND subject = ?',
    [issuer, subject],
  );
  return row?.account_id;
}

export async function linkIdentity(
  db: Queryable,
  issuer: string,
  subject: string,
  accountId: string,
  email: string | undefined,
): Promise<void> {
  await db.run(
    'INSERT INTO account_identities (issuer, subject, account_id, email, created_at) VALUES (?, ?, ?, ?, ?)',
    [issuer, subject, accountId, email ?? null, nowIso()],
  );
}
