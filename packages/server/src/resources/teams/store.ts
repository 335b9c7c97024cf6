/** Teams, their members and their invites: the only SQL on `teams`, `team_members` and `team_invites`. */
import type { Queryable } from '../../db/database.ts';
import { newId, nowIso } from '../../kernel/ids.ts';
import type { Role } from '../../routing/management/context.ts';
import { hashSecret, newSecret } from '../../kernel/secrets.ts';
import { DAY, isoIn } from '../../kernel/time.ts';

export interface TeamRow {
  id: string;
  name: string;
  owner_account_id: string;
  created_at: string;
  role: Role;
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

/** A new team with `ownerId` as its owner (every account gets one at sign-up and may create more). */
export async function createTeam(tx: Queryable, ownerId: string, name: string): Promise<string> {
  const teamId = newId('team');
  const now = nowIso();
  await tx.run('INSERT INTO teams (id, name, owner_account_id, created_at) VALUES (?, ?, ?, ?)', [
    teamId,
    name,
    ownerId,
    now,
  ]);
  await tx.run("INSERT INTO team_members (team_id, account_id, role, created_at) VALUES (?, ?, 'owner', ?)", [
    teamId,
    ownerId,
    now,
  ]);
  return teamId;
}

/** The team `teamId` with the account's role on it, if the account is a member. */
export async function findTeamMembership(
  db: Queryable,
  accountId: string,
  teamId: string,
): Promise<TeamRow | undefined> {
  return db.get<TeamRow>(
    `SELECT t.id, t.name, t.owner_account_id, t.created_at, m.role
       FROM teams t JOIN team_members m ON m.team_id = t.id AND m.account_id = ?
      WHERE t.id = ?`,
    [accountId, teamId],
  );
}

/** The oldest team the account owns (its own team from sign-up), if any. */
export async function firstOwnedTeamId(db: Queryable, accountId: string): Promise<string | undefined> {
  return (
    await db.get<{ id: string }>('SELECT id FROM teams WHERE owner_account_id = ? ORDER BY created_at, id LIMIT 1', [
      accountId,
    ])
  )?.id;
}

export async function renameTeam(db: Queryable, teamId: string, name: string): Promise<void> {
  await db.run('UPDATE teams SET name = ? WHERE id = ?', [name, teamId]);
}

export async function listTeamsOf(db: Queryable, accountId: string): Promise<TeamRow[]> {
  return db.all<TeamRow>(
    `SELECT t.id, t.name, t.owner_account_id, t.created_at, m.role
       FROM teams t JOIN team_members m ON m.team_id = t.id
      WHERE m.account_id = ? ORDER BY t.created_at, t.id`,
    [accountId],
  );
}

export async function addMember(db: Queryable, teamId: string, accountId: string, role: Role): Promise<void> {
  await db.run(
    `INSERT INTO team_members (team_id, account_id, role, created_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (team_id, account_id) DO NOTHING`,
    [teamId, accountId, role, nowIso()],
  );
}

/** Changes a member's role; false when the member is gone meanwhile. */
export async function setMemberRole(db: Queryable, teamId: string, accountId: string, role: Role): Promise<boolean> {
  const { changes } = await db.run('UPDATE team_members SET role = ? WHERE team_id = ? AND account_id = ?', [
    role,
    teamId,
    accountId,
  ]);
  return changes === 1;
}

export async function removeMember(db: Queryable, teamId: string, accountId: string): Promise<void> {
  await db.run('DELETE FROM team_members WHERE team_id = ? AND account_id = ?', [teamId, accountId]);
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

export async function findInviteByToken(
  db: Queryable,
  token: string,
): Promise<(InviteRow & { team_name: string; owner_account_id: string }) | undefined> {
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

/** Withdraws a pending invite (accepted and withdrawn ones stay as they are). */
export async function revokeInvite(db: Queryable, teamId: string, inviteId: string): Promise<void> {
  await db.run(
    'UPDATE team_invites SET revoked_at = ? WHERE id = ? AND team_id = ? AND accepted_at IS NULL AND revoked_at IS NULL',
    [nowIso(), inviteId, teamId],
  );
}

/**
 * A new token and a fresh expiry for an invite that is neither accepted nor withdrawn (the old link
 * stops working); the new token, or undefined when the invite cannot be renewed.
 */
export async function renewInvite(db: Queryable, teamId: string, inviteId: string): Promise<string | undefined> {
  const token = newSecret();
  const { changes } = await db.run(
    `UPDATE team_invites SET token_hash = ?, expires_at = ?
      WHERE id = ? AND team_id = ? AND accepted_at IS NULL AND revoked_at IS NULL`,
    [hashSecret(token), isoIn(INVITE_TTL_MS), inviteId, teamId],
  );
  return changes === 1 ? token : undefined;
}

export async function markInviteAccepted(db: Queryable, inviteId: string, accountId: string): Promise<void> {
  await db.run('UPDATE team_invites SET accepted_at = ?, accepted_by = ? WHERE id = ?', [
    nowIso(),
    accountId,
    inviteId,
  ]);
}
