/**
 * Seats. An owner has a seat limit over every team they own (their own setting, else
 * DEFAULT_TEAM_SEATS). What counts for an owner: the e-mail address of every member of those
 * teams (the owner included) and of every pending invite to them, each address once.
 *
 * - Inviting an address that does not count yet takes a seat: refused at the limit.
 * - Accepting an invite needs an extra seat unless the signed-in account's e-mail is VERIFIED and
 *   already counts for that owner (a membership of another of their teams, or a pending invite).
 *   At the limit, an invite that needs an extra seat cannot be accepted. A typed, unverified
 *   address never counts, whatever it is.
 */
import type { Queryable } from '../../db/database.ts';
import { nowIso } from '../../kernel/ids.ts';

export interface Seats {
  used: number;
  limit: number;
}

const COUNTED = `SELECT a.email AS email FROM team_members m
      JOIN teams t ON t.id = m.team_id JOIN accounts a ON a.id = m.account_id
     WHERE t.owner_account_id = ?
    UNION
    SELECT i.email AS email FROM team_invites i JOIN teams t ON t.id = i.team_id
     WHERE t.owner_account_id = ? AND i.accepted_at IS NULL AND i.revoked_at IS NULL AND i.expires_at > ?`;

export async function seatsOf(db: Queryable, ownerId: string, defaultSeats: number): Promise<Seats> {
  const now = nowIso();
  const row = await db.get<{ used: number; seat_limit: number | null }>(
    `SELECT (SELECT COUNT(*) FROM (${COUNTED}) counted) AS used, (SELECT seat_limit FROM accounts WHERE id = ?) AS seat_limit`,
    [ownerId, ownerId, now, ownerId],
  );
  return { used: Number(row?.used ?? 0), limit: row?.seat_limit ?? defaultSeats };
}

export async function addressCounts(db: Queryable, ownerId: string, email: string): Promise<boolean> {
  const row = await db.get(`SELECT 1 AS found FROM (${COUNTED}) counted WHERE email = ?`, [ownerId, ownerId, nowIso(), email]);
  return row !== undefined;
}

/**
 * Serialises seat decisions for one owner: in PostgreSQL the update takes the owner's row lock
 * until the transaction ends; SQLite transactions already run one at a time.
 */
export async function lockOwnerSeats(tx: Queryable, ownerId: string): Promise<void> {
  await tx.run('UPDATE accounts SET seat_limit = seat_limit WHERE id = ?', [ownerId]);
}
