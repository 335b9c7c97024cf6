/**
 * Invites as use cases: make one, send its link again, accept it. Each decides seats under the
 * owner's seat lock (`seats.ts`) in one transaction, with the one seat rule below; the routes only
 * check access, call one of these, send the e-mail and present.
 */
import type { Database, Queryable } from '../../db/database.ts';
import { BadRequestError, ConflictError, NotFoundError, SeatLimitError } from '../../kernel/errors.ts';
import type { Role } from '../../routing/management/context.ts';
import { auditInviteAccepted, auditInviteCreated } from './member-service.ts';
import { findMember, isMemberAddress, type MemberRow } from './members-read-model.ts';
import { inviteStatus } from './presenter.ts';
import { addressCounts, seatsOf } from './seats-read-model.ts';
import { lockOwnerSeats, type Seats } from './seats.ts';
import {
  addMember,
  createInvite,
  findInvite,
  findInviteByToken,
  type InviteRow,
  markInviteAccepted,
  renewInvite,
} from './store.ts';

const INVITE_PROBLEMS = {
  accepted: 'This invitation has already been accepted',
  revoked: 'This invitation has been withdrawn',
  expired: 'This invitation has expired; ask for a new one',
} as const;

const seatLimitReached = (seats: Seats) => `Seat limit reached (${seats.used} of ${seats.limit})`;

/**
 * The seat rule: an address that already counts for the owner takes no new seat; any other needs
 * one below the limit. `address` null: nothing counts (an unverified account accepting). Call it
 * after `lockOwnerSeats` in the same transaction.
 */
async function requireSeat(
  tx: Queryable,
  ownerId: string,
  address: string | null,
  defaultSeats: number,
  refusal: (seats: Seats) => string = seatLimitReached,
): Promise<void> {
  if (address !== null && (await addressCounts(tx, ownerId, address))) return;
  const seats = await seatsOf(tx, ownerId, defaultSeats);
  if (seats.used >= seats.limit) throw new SeatLimitError(refusal(seats));
}

interface InvitingTeam {
  id: string;
  ownerAccountId: string;
}

/** Invites an address (already normalised); a new address takes a seat. The token goes in the e-mail only. */
export async function inviteToTeam(
  db: Database,
  team: InvitingTeam,
  input: { email: string; role: Role; invitedBy: string },
  defaultSeats: number,
): Promise<{ token: string; row: InviteRow }> {
  return db.transaction(async (tx) => {
    await lockOwnerSeats(tx, team.ownerAccountId);
    if (await isMemberAddress(tx, team.id, input.email))
      throw new ConflictError('This address is already a member of the team');
    await requireSeat(tx, team.ownerAccountId, input.email, defaultSeats);
    const made = await createInvite(tx, { teamId: team.id, ...input });
    await auditInviteCreated(tx, made.row);
    return made;
  });
}

/**
 * A new link for a pending or expired invite (the earlier one stops working). An expired invite
 * counts for the owner's seats again, so it needs a seat unless its address already counts.
 */
export async function renewTeamInvite(
  db: Database,
  team: InvitingTeam,
  inviteId: string,
  defaultSeats: number,
): Promise<{ token: string; row: InviteRow }> {
  return db.transaction(async (tx) => {
    await lockOwnerSeats(tx, team.ownerAccountId);
    const invite = await findInvite(tx, team.id, inviteId);
    if (!invite) throw new NotFoundError();
    const status = inviteStatus(invite);
    if (status === 'accepted' || status === 'revoked') throw new ConflictError(INVITE_PROBLEMS[status]);
    if (status === 'expired') await requireSeat(tx, team.ownerAccountId, invite.email, defaultSeats);
    const token = await renewInvite(tx, team.id, invite.id);
    if (!token) throw new NotFoundError();
    return { token, row: (await findInvite(tx, team.id, invite.id))! };
  });
}

/**
 * Joins the invite's team as the account. The account's stored address is what counts for the
 * owner's seats, and only once it is verified; joining a team the account is already in uses no
 * seat and only marks the invite accepted.
 */
export async function acceptTeamInvite(
  db: Database,
  token: string,
  account: { id: string; email: string; verified: boolean },
  defaultSeats: number,
): Promise<MemberRow> {
  return db.transaction(async (tx) => {
    const invite = await findInviteByToken(tx, token);
    if (!invite) throw new NotFoundError();
    await lockOwnerSeats(tx, invite.owner_account_id);
    const status = inviteStatus(invite);
    if (status !== 'pending') throw new BadRequestError(INVITE_PROBLEMS[status]);
    const existing = await findMember(tx, invite.team_id, account.id);
    if (!existing) {
      await requireSeat(tx, invite.owner_account_id, account.verified ? account.email : null, defaultSeats, (seats) =>
        account.verified || account.email !== invite.email
          ? `The team is at its seat limit (${seats.used} of ${seats.limit}); this invite needs an extra seat`
          : `The team is at its seat limit (${seats.used} of ${seats.limit}): verify your e-mail address, then accept again`,
      );
      await addMember(tx, invite.team_id, account.id, invite.role);
    }
    await markInviteAccepted(tx, invite.id, account.id);
    const joined = (await findMember(tx, invite.team_id, account.id))!;
    if (!existing) await auditInviteAccepted(tx, invite, joined);
    return joined;
  });
}
