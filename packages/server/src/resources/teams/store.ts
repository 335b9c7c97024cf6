/** Teams, their members and their invites. */
import type { Queryable } from '../../db/database.ts';
import { newId, nowIso } from '../../kernel/ids.ts';
import type { Role } from '../../management/context.ts';
import { hashSecret, newSecret } from '../../kernel/secrets.ts';
import { DAY, isoIn } from '../../kernel/time.ts';

export interface TeamRow {
  id: string;
  name: string;
  owner_account_id: string;
  created_at: string;
  role: Role;
}

export interface MemberRow {
  account_id: string;
  email: string;
  name: string;
  email_verified: number;
  role: Role;
  created_at: string;
}

export interface InviteRow {
  id: string;
  team_id: string;
  email: string;
  role: Role;
  token_hash: string;
  invited_by: string | null;
  created_at: string;
  expires_at: string;
  accepted_at: string | null;
  accepted_by: string | null;
  revoked_at: string | null;
}

export const INVITE_TTL_MS = 7 * DAY;

export async function listTeamsOf(db: Queryable, accountId: string): Promise<TeamRow[]> {
  return db.all<TeamRow>(
    `SELECT t.id, t.name, t.owner_account_id, t.created_at, m.role
       FROM teams t JOIN team_members m ON m.team_id = t.id
      WHERE m.account_id = ? ORDER BY t.created_at, t.id`,
    [accountId],
  );
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

export async function addMember(db: Queryable, teamId: string, accountId: string, role: Role): Promise<void> {
  await db.run(
    `INSERT INTO team_members (team_id, account_id, role, created_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (team_id, account_id) DO NOTHING`,
    [teamId, accountId, role, nowIso()],
  );
}

export async function createInvite(
  db: Queryable,
  input: { teamId: string; email: string; role: Role; invitedBy: string },
): Promise<{ token: string; row: InviteRow }> {
  const now = nowIso();
  // A newer invite to the same address replaces the pending one.
  await db.run(
    'UPDATE team_invites SET revoked_at = ? WHERE team_id = ? AND email = ? AND accepted_at IS NULL AND revoked_at IS NULL',
    [now, input.teamId, input.email],
  );
  const token = newSecret();
  const id = newId('inv');
  await db.run(
    `INSERT INTO team_invites (id, team_id, email, role, token_hash, invited_by, created_at, expires_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    [id, input.teamId, input.email, input.role, hashSecret(token), input.invitedBy, now, isoIn(INVITE_TTL_MS)],
  );
  return { token, row: (await findInvite(db, input.teamId, id))! };
}

export async function findInvite(db: Queryable, teamId: string, inviteId: string): Promise<InviteRow | undefined> {
  return db.get<InviteRow>('SELECT * FROM team_invites WHERE id = ? AND team_id = ?', [inviteId, teamId]);
}

export async function findInviteByToken(db: Queryable, token: string): Promise<(InviteRow & { team_name: string; owner_account_id: string }) | undefined> {
  if (token.length > 200) return undefined;
  return db.get(
    `SELECT i.*, t.name AS team_name, t.owner_account_id FROM team_invites i JOIN teams t ON t.id = i.team_id
      WHERE i.token_hash = ?`,
    [hashSecret(token)],
  );
}

export async function listInvites(db: Queryable, teamId: string): Promise<InviteRow[]> {
  return db.all<InviteRow>('SELECT * FROM team_invites WHERE team_id = ? ORDER BY created_at DESC, id DESC', [teamId]);
}

export type InviteStatus = 'pending' | 'accepted' | 'revoked' | 'expired';

export function inviteStatus(row: InviteRow): InviteStatus {
  if (row.accepted_at) return 'accepted';
  if (row.revoked_at) return 'revoked';
  if (row.expires_at <= nowIso()) return 'expired';
  return 'pending';
}

export function presentInvite(row: InviteRow) {
  return {
    id: row.id,
    teamId: row.team_id,
    email: row.email,
    role: row.role,
    status: inviteStatus(row),
    createdAt: row.created_at,
    expiresAt: row.expires_at,
  };
}

export function presentMember(row: MemberRow) {
  return {
    accountId: row.account_id,
    email: row.email,
    name: row.name,
    verified: row.email_verified === 1 || (row.email_verified as unknown) === true,
    role: row.role,
    joinedAt: row.created_at,
  };
}
