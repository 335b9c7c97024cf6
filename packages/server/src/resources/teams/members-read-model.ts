/** Members with their account's address and name: reads that join `accounts`. */
import type { Queryable } from '../../db/database.ts';
import type { Role } from '../../routing/management/context.ts';

export interface MemberRow {
  account_id: string;
  email: string;
  name: string;
  email_verified: number;
  role: Role;
  created_at: string;
}

export async function listMembers(db: Queryable, teamId: string): Promise<MemberRow[]> {
  return db.all<MemberRow>(
    `SELECT m.account_id, a.email, a.name, a.email_verified, m.role, m.created_at
       FROM team_members m JOIN accounts a ON a.id = m.account_id
      WHERE m.team_id = ? ORDER BY m.created_at, a.email`,
    [teamId],
  );
}

export async function findMember(db: Queryable, teamId: string, accountId: string): Promise<MemberRow | undefined> {
  return db.get<MemberRow>(
    `SELECT m.account_id, a.email, a.name, a.email_verified, m.role, m.created_at
       FROM team_members m JOIN accounts a ON a.id = m.account_id
      WHERE m.team_id = ? AND m.account_id = ?`,
    [teamId, accountId],
  );
}

/** Whether an account with the address `email` is a member of the team. */
export async function isMemberAddress(db: Queryable, teamId: string, email: string): Promise<boolean> {
  const row = await db.get(
    'SELECT 1 AS found FROM team_members m JOIN accounts a ON a.id = m.account_id WHERE m.team_id = ? AND a.email = ?',
    [teamId, email],
  );
  return row !== undefined;
}

/** How an invite names the account that sent it: its name, else its address; null when it is gone. */
export async function inviterLabel(db: Queryable, accountId: string | null): Promise<string | null> {
  if (!accountId) return null;
  const row = await db.get<{ email: string; name: string }>('SELECT email, name FROM accounts WHERE id = ?', [
    accountId,
  ]);
  return row ? row.name || row.email : null;
}
