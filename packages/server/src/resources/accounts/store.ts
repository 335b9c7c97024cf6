/** Accounts: rows, lookups by id and e-mail, creation, and every change to an account row. */
import { bool, type Queryable } from '../../db/database.ts';
import { lockNamed } from '../../db/named-lock.ts';
import { normaliseEmail } from '../../kernel/email.ts';
import { newId, nowIso } from '../../kernel/ids.ts';

export { normaliseEmail };

export interface AccountRow {
  id: string;
  email: string;
  name: string;
  password_hash: string | null;
  email_verified: number;
  is_admin: number;
  seat_limit: number | null;
  created_at: string;
}

export async function findAccount(db: Queryable, id: string): Promise<AccountRow | undefined> {
  return db.get<AccountRow>('SELECT * FROM accounts WHERE id = ?', [id]);
}

export async function findAccountByEmail(db: Queryable, email: string): Promise<AccountRow | undefined> {
  return db.get<AccountRow>('SELECT * FROM accounts WHERE email = ?', [normaliseEmail(email)]);
}

/**
 * Inserts the account row; `first` when it is the instance's first account, which becomes the
 * instance administrator. Run inside a transaction (see service.ts `createAccount`).
 */
export async function insertAccount(
  tx: Queryable,
  input: { email: string; name: string; passwordHash: string | null; verified: boolean },
): Promise<{ id: string; first: boolean }> {
  const id = newId('acct');
  // Concurrent first sign-ups must not both become the instance administrator.
  await lockNamed(tx, 'accounts:first');
  const first = !(await tx.get('SELECT id FROM accounts LIMIT 1'));
  await tx.run(
    `INSERT INTO accounts (id, email, name, password_hash, email_verified, is_admin, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
    [id, normaliseEmail(input.email), input.name, input.passwordHash, bool(input.verified), bool(first), nowIso()],
  );
  return { id, first };
}

/** The address `email` is verified, if it is still the account's address. */
export async function markEmailVerified(db: Queryable, accountId: string, email: string): Promise<void> {
  await db.run('UPDATE accounts SET email_verified = 1 WHERE id = ? AND email = ?', [accountId, email]);
}

/** A new password from a reset link, which also proves the address (if it is still the account's). */
export async function resetPasswordHash(
  db: Queryable,
  accountId: string,
  email: string,
  passwordHash: string,
): Promise<void> {
  await db.run('UPDATE accounts SET password_hash = ?, email_verified = 1 WHERE id = ? AND email = ?', [
    passwordHash,
    accountId,
    email,
  ]);
}

export async function setPasswordHash(db: Queryable, accountId: string, passwordHash: string): Promise<void> {
  await db.run('UPDATE accounts SET password_hash = ? WHERE id = ?', [passwordHash, accountId]);
}

export async function setAccountName(db: Queryable, accountId: string, name: string): Promise<void> {
  await db.run('UPDATE accounts SET name = ? WHERE id = ?', [name, accountId]);
}

/** The identity provider vouches for the account's address. */
export async function markVerified(db: Queryable, accountId: string): Promise<void> {
  await db.run('UPDATE accounts SET email_verified = 1 WHERE id = ?', [accountId]);
}

/** An unverified account joined by a provider-verified identity: its password goes, its address is verified. */
export async function dropPasswordAndVerify(db: Queryable, accountId: string): Promise<void> {
  await db.run('UPDATE accounts SET password_hash = NULL, email_verified = 1 WHERE id = ?', [accountId]);
}

/** The owner's seat limit over all their teams (null: the default); false when there is no such account. */
export async function setSeatLimit(db: Queryable, accountId: string, seatLimit: number | null): Promise<boolean> {
  const { changes } = await db.run('UPDATE accounts SET seat_limit = ? WHERE id = ?', [seatLimit, accountId]);
  return changes !== 0;
}
