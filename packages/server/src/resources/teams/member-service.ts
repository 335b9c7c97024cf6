/**
 * Team membership use cases: a new team with its owner as first member; and those the audit log
 * records (team-wide entries: shown with every project of the team): role changes, removals,
 * invites made, withdrawn and accepted.
 */
import type { Database, Queryable } from '../../db/database.ts';
import type { Role } from '../../routing/management/context.ts';
import { recordAudit } from '../audit/index.ts';
import type { MemberRow } from './members-read-model.ts';
import { presentInvite, presentMember } from './presenter.ts';
import { createTeam, findInvite, type InviteRow, removeMember, revokeInvite, setMemberRole } from './store.ts';

const memberTarget = (member: MemberRow) => ({ type: 'member', id: member.account_id });

/** Creates a team the account owns (its seats count with the owner's other teams); its id. */
export function createOwnedTeam(db: Database, ownerId: string, name: string): Promise<string> {
  return db.transaction((tx) => createTeam(tx, ownerId, name.trim()));
}

/** Changes a member's role; false when the member is gone meanwhile. */
export async function changeMemberRole(db: Database, teamId: string, member: MemberRow, role: Role): Promise<boolean> {
  return db.transaction(async (tx) => {
    if (!(await setMemberRole(tx, teamId, member.account_id, role))) return false;
    await recordAudit(tx, {
      projectId: null,
      teamId,
      action: 'member.role_changed',
      target: memberTarget(member),
      before: presentMember(member),
      after: presentMember({ ...member, role }),
    });
    return true;
  });
}

/** Removes a member (or records one leaving). */
export async function dropMember(db: Database, teamId: string, member: MemberRow): Promise<void> {
  await db.transaction(async (tx) => {
    await removeMember(tx, teamId, member.account_id);
    await recordAudit(tx, {
      projectId: null,
      teamId,
      action: 'member.removed',
      target: memberTarget(member),
      before: presentMember(member),
      after: null,
    });
  });
}

/** Withdraws a pending invite; returns the invite as it is afterwards (undefined: no such invite). */
export async function withdrawInvite(db: Database, teamId: string, inviteId: string): Promise<InviteRow | undefined> {
  return db.transaction(async (tx) => {
    const before = await findInvite(tx, teamId, inviteId);
    if (!before) return undefined;
    await revokeInvite(tx, teamId, inviteId);
    const after = (await findInvite(tx, teamId, inviteId))!;
    await recordAudit(tx, {
      projectId: null,
      teamId,
      action: 'invite.revoked',
      target: { type: 'invite', id: inviteId },
      before: presentInvite(before),
      after: presentInvite(after),
    });
    return after;
  });
}

/** Records an invite made, in the transaction that made it. */
export async function auditInviteCreated(tx: Queryable, invite: InviteRow): Promise<void> {
  await recordAudit(tx, {
    projectId: null,
    teamId: invite.team_id,
    action: 'invite.created',
    target: { type: 'invite', id: invite.id },
    before: null,
    after: presentInvite(invite),
  });
}

/** Records an invite accepted (a member joined), in the transaction that accepted it. */
export async function auditInviteAccepted(tx: Queryable, invite: InviteRow, member: MemberRow): Promise<void> {
  await recordAudit(tx, {
    projectId: null,
    teamId: invite.team_id,
    action: 'member.joined',
    target: memberTarget(member),
    before: null,
    after: { ...presentMember(member), inviteId: invite.id },
  });
}
