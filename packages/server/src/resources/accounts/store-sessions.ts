/** Browser sessions: a random token in an HTTP-only cookie; the database keeps only its hash. */
import type { Queryable } from '../../db/database.ts';
import { newId, nowIso } from '../../kernel/ids.ts';
import { hashSecret, newSecret } from '../../kernel/secrets.ts';
import { DAY, isoIn } from '../../kernel/time.ts';
import type { AccountRow } from './store.ts';

export interface NewSession {
  id: string;
  token: string;
  expiresAt: string;
}

export async function createSession(db: Queryable, accountId: string, ttlDays: number): Promise<NewSession> {
  const token = newSecret();
  const id = newId('sess');
  const expiresAt = isoIn(ttlDays * DAY);
  await db.run('INSERT INTO sessions (id, account_id, token_hash, created_at, expires_at) VALUES (?, ?, ?, ?, ?)', [
    id,
    accountId,
    hashSecret(token),
    nowIso(),
    expiresAt,
  ]);
  return { id, token, expiresAt };
}

/** The account of a live session. The token is looked up by its hash (a 256-bit secret's hash reveals nothing). */
export async function findSessionAccount(
  db: Queryable,
  token: string,
): Promise<(AccountRow & { session_id: string }) | undefined> {
  if (token.length < 20 || token.length > 200) return undefined;
  return db.get<AccountRow & { session_id: string }>(
    `SELECT a.*, s.id AS session_id FROM sessions s JOIN accounts a ON a.id = s.account_id
      WHERE s.token_hash = ? AND s.expires_at > ?`,
    [hashSecret(token), nowIso()],
  );
}

export async function deleteSession(db: Queryable, sessionId: string): Promise<void> {
  await db.run('DELETE FROM sessions WHERE id = ?', [sessionId]);
}

/** Signs the account out everywhere (after a password reset), optionally keeping one session. */
export async function deleteAccountSessions(db: Queryable, accountId: string, keep?: string): Promise<void> {
  await db.run('DELETE FROM sessions WHERE account_id = ? AND id <> ?', [accountId, keep ?? '']);
}

export async function deleteExpiredSessions(db: Queryable, accountId: string): Promise<void> {
  await db.run('DELETE FROM sessions WHERE account_id = ? AND expires_at <= ?', [accountId, nowIso()]);
}
