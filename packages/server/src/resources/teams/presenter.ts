/** Invites and members as the management API shows them. */
import { nowIso } from '../../kernel/ids.ts';
import type { MemberRow } from './members-read-model.ts';
import type { InviteRow } from './store.ts';

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
