/** Pending invites of the teams an account administers (admin or owner), for the dashboard's home. */
import type { Queryable } from '../../db/database.ts';

export type AdministeredInviteRow = {
  id: string;
  team_id: string;
  team_name: string;
  email: string;
  role: string;
  created_at: string;
  expires_at: string;
};

/** Invites not accepted, revoked or expired, of teams where the account is admin or owner; newest first. */
export function listPendingInvitesAdministeredBy(
  db: Queryable,
  accountId: string,
  now: string,
  limit: number,
): Promise<AdministeredInviteRow[]> {
  return db.all<AdministeredInviteRow>(
    `SELECT i.id, i.team_id, t.name AS team_name, i.email, i.role, i.created_at, i.expires_at
       FROM team_invites i
       JOIN teams t ON t.id = i.team_id
       JOIN team_members m ON m.team_id = i.team_id AND m.account_id = ? AND m.role IN ('admin', 'owner')
      WHERE i.accepted_at IS NULL AND i.revoked_at IS NULL AND i.expires_at > ?
      ORDER BY i.created_at DESC, i.id LIMIT ?`,
    [accountId, now, limit],
  );
}
