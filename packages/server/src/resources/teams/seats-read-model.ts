/** Seat use of an owner (see seats.ts): reads over teams, members, invites and the owner's account. */
import type { Queryable } from '../../db/database.ts';
import { nowIso } from '../../kernel/ids.ts';
import type { Seats } from './seats.ts';

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
  const row = await db.get(`SELECT 1 AS found FROM (${COUNTED}) counted WHERE email = ?`, [
    ownerId,
    ownerId,
    nowIso(),
    email,
  ]);
  return row !== undefined;
}
