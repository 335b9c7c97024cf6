/**
 * Invites by e-mail: owners send them (a token link that expires after 7 days); anyone may look
 * at one by its token; a signed-in account accepts it, within the seat rules of `seats.ts`.
 */
import { Type } from 'typebox';
import { Email, errorResponses } from '../../http/common-schemas.ts';
import {
  BadRequestError,
  ConflictError,
  MailFailedError,
  NotFoundError,
  SeatLimitError,
  TooManyRequestsError,
} from '../../kernel/errors.ts';
import { hitSlidingWindow, rateLimitHeaders } from '../../http/rate-limit.ts';
import { normaliseEmail } from '../../kernel/email.ts';
import { requireAccount, requireTeamAccess } from '../../management/access.ts';
import type { ManagementApp, ManagementDeps } from '../../management/context.ts';
import {
  AssignableRole,
  Invite,
  InviteParams,
  InvitePreview,
  InviteTokenParams,
  Member,
  TeamParams,
} from './schemas.ts';
import { auditInviteAccepted, auditInviteCreated, withdrawInvite } from './member-service.ts';
import { findMember, inviterLabel, isMemberAddress } from './members-read-model.ts';
import { inviteMessage } from './messages.ts';
import { inviteStatus, presentInvite, presentMember } from './presenter.ts';
import { addressCounts, seatsOf } from './seats-read-model.ts';
import { lockOwnerSeats } from './seats.ts';
import {
  addMember,
  createInvite,
  findInvite,
  findInviteByToken,
  listInvites,
  markInviteAccepted,
  renewInvite,
} from './store.ts';

const INVITE_PROBLEMS = {
  accepted: 'This invitation has already been accepted',
  revoked: 'This invitation has been withdrawn',
  expired: 'This invitation has expired; ask for a new one',
} as const;

/** Resends of one invite's e-mail: 3 an hour, so nobody can flood an inbox through it. */
const RESEND_LIMIT = { max: 3, windowMs: 60 * 60 * 1000 };

const inviteMailFailed = () =>
  new MailFailedError('The invite was saved but its e-mail could not be sent; invite again later');

export async function inviteManagementRoutes(
  app: ManagementApp,
  { db, config, mailer }: ManagementDeps,
): Promise<void> {
  const tags = ['teams'];
  const seatsDefault = config.accounts.defaultTeamSeats;
  /** The invite e-mail; its link opens the dashboard's invite page, which accepts through the API. */
  const sendInvite = (email: string, token: string, teamName: string, inviter: string, role: string) =>
    mailer.send(inviteMessage(email, `${config.publicUrl}/app/invites/${token}`, teamName, inviter, role));

  app.get(
    '/teams/:teamId/invites',
    {
      schema: {
        operationId: 'listTeamInvites',
        summary: 'Invites of a team, newest first, in every status (admin)',
        tags,
        params: TeamParams,
        response: {
          200: Type.Object({ invites: Type.Array(Invite) }, { additionalProperties: false }),
          ...errorResponses(401, 403, 404),
        },
      },
    },
    async (request) => {
      const team = await requireTeamAccess(request, request.params.teamId, 'admin');
      return { invites: (await listInvites(db, team.id)).map(presentInvite) };
    },
  );

  app.post(
    '/teams/:teamId/invites',
    {
      schema: {
        operationId: 'createTeamInvite',
        summary: 'Invite an address by e-mail (owner); a new address takes a seat, refused at the limit',
        tags,
        params: TeamParams,
        body: Type.Object({ email: Email, role: Type.Optional(AssignableRole) }),
        response: { 201: Invite, ...errorResponses(400, 401, 403, 404, 409, 413, 415, 503) },
      },
    },
    async (request, reply) => {
      const account = requireAccount(request);
      const team = await requireTeamAccess(request, request.params.teamId, 'owner');
      const email = normaliseEmail(request.body.email);
      const { token, row } = await db.transaction(async (tx) => {
        await lockOwnerSeats(tx, team.ownerAccountId);
        if (await isMemberAddress(tx, team.id, email))
          throw new ConflictError('This address is already a member of the team');
        if (!(await addressCounts(tx, team.ownerAccountId, email))) {
          const seats = await seatsOf(tx, team.ownerAccountId, seatsDefault);
          if (seats.used >= seats.limit)
            throw new SeatLimitError(`Seat limit reached (${seats.used} of ${seats.limit})`);
        }
        const made = await createInvite(tx, {
          teamId: team.id,
          email,
          role: request.body.role ?? 'member',
          invitedBy: account.id,
        });
        await auditInviteCreated(tx, made.row);
        return made;
      });
      try {
        await sendInvite(email, token, team.name, account.name || account.email, row.role);
      } catch (error) {
        request.log.error({ err: error }, 'invite e-mail not sent');
        throw inviteMailFailed();
      }
      return reply.code(201).send(presentInvite(row));
    },
  );

  app.post(
    '/teams/:teamId/invites/:inviteId/resend',
    {
      schema: {
        operationId: 'resendTeamInvite',
        summary: 'Send a pending or expired invite’s e-mail again with a new link valid 7 days (admin; 3 an hour)',
        description:
          'The earlier link stops working. An expired invite counts for the owner’s seats again, so it is refused at the seat ' +
          'limit unless its address already counts. Accepted and withdrawn invites cannot be resent (409).',
        tags,
        params: InviteParams,
        response: { 200: Invite, ...errorResponses(401, 403, 404, 409, 429, 503) },
      },
    },
    async (request) => {
      const account = requireAccount(request);
      const team = await requireTeamAccess(request, request.params.teamId, 'admin');
      const { inviteId } = request.params;
      const existing = await findInvite(db, team.id, inviteId);
      if (!existing) throw new NotFoundError();
      const limit = await hitSlidingWindow(db, `invite-resend:${existing.id}`, RESEND_LIMIT.max, RESEND_LIMIT.windowMs);
      if (!limit.allowed)
        throw new TooManyRequestsError('Too many resends of this invite; try again later', rateLimitHeaders(limit));
      const { token, row } = await db.transaction(async (tx) => {
        await lockOwnerSeats(tx, team.ownerAccountId);
        const invite = await findInvite(tx, team.id, inviteId);
        if (!invite) throw new NotFoundError();
        const status = inviteStatus(invite);
        if (status === 'accepted' || status === 'revoked') throw new ConflictError(INVITE_PROBLEMS[status]);
        if (status === 'expired' && !(await addressCounts(tx, team.ownerAccountId, invite.email))) {
          const seats = await seatsOf(tx, team.ownerAccountId, seatsDefault);
          if (seats.used >= seats.limit)
            throw new SeatLimitError(`Seat limit reached (${seats.used} of ${seats.limit})`);
        }
        const renewed = await renewInvite(tx, team.id, invite.id);
        if (!renewed) throw new NotFoundError();
        return { token: renewed, row: (await findInvite(tx, team.id, invite.id))! };
      });
      try {
        await sendInvite(row.email, token, team.name, account.name || account.email, row.role);
      } catch (error) {
        request.log.error({ err: error }, 'invite e-mail not sent');
        throw inviteMailFailed();
      }
      return presentInvite(row);
    },
  );

  app.delete(
    '/teams/:teamId/invites/:inviteId',
    {
      schema: {
        operationId: 'revokeTeamInvite',
        summary: 'Withdraw a pending invite (owner); its seat frees at once',
        tags,
        params: InviteParams,
        response: { 200: Invite, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      const team = await requireTeamAccess(request, request.params.teamId, 'owner');
      const row = await withdrawInvite(db, team.id, request.params.inviteId);
      if (!row) throw new NotFoundError();
      return presentInvite(row);
    },
  );

  app.get(
    '/invites/:token',
    {
      config: { anonymous: true },
      schema: {
        operationId: 'getInvite',
        summary:
          'The invite behind an e-mail link: team, address, role, status. Accept it with POST …/accept once signed in',
        tags,
        params: InviteTokenParams,
        response: { 200: InvitePreview, ...errorResponses(404) },
      },
    },
    async (request) => {
      const invite = await findInviteByToken(db, request.params.token);
      if (!invite) throw new NotFoundError();
      return {
        teamId: invite.team_id,
        teamName: invite.team_name,
        email: invite.email,
        role: invite.role,
        status: inviteStatus(invite),
        expiresAt: invite.expires_at,
        invitedBy: await inviterLabel(db, invite.invited_by),
      };
    },
  );

  app.post(
    '/invites/:token/accept',
    {
      schema: {
        operationId: 'acceptInvite',
        summary: 'Join the team of an invite as the signed-in account',
        description:
          'At the owner’s seat limit, an invite that needs an extra seat is accepted only when the signed-in account has a verified ' +
          'e-mail address that already counts for the owner (a member of another of their teams, or a pending invite to it). An ' +
          'unverified address never counts.',
        tags,
        params: InviteTokenParams,
        response: { 200: Member, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const account = requireAccount(request);
      const member = await db.transaction(async (tx) => {
        const invite = await findInviteByToken(tx, request.params.token);
        if (!invite) throw new NotFoundError();
        await lockOwnerSeats(tx, invite.owner_account_id);
        const status = inviteStatus(invite);
        if (status !== 'pending') throw new BadRequestError(INVITE_PROBLEMS[status]);
        const existing = await findMember(tx, invite.team_id, account.id);
        if (!existing) {
          // The account's stored address is what counts, and only once it is verified.
          const counts = account.verified && (await addressCounts(tx, invite.owner_account_id, account.email));
          if (!counts) {
            const seats = await seatsOf(tx, invite.owner_account_id, seatsDefault);
            if (seats.used >= seats.limit) {
              throw new SeatLimitError(
                account.verified || account.email !== invite.email
                  ? `The team is at its seat limit (${seats.used} of ${seats.limit}); this invite needs an extra seat`
                  : `The team is at its seat limit (${seats.used} of ${seats.limit}): verify your e-mail address, then accept again`,
              );
            }
          }
          await addMember(tx, invite.team_id, account.id, invite.role);
        }
        await markInviteAccepted(tx, invite.id, account.id);
        const joined = (await findMember(tx, invite.team_id, account.id))!;
        if (!existing) await auditInviteAccepted(tx, invite, joined);
        return joined;
      });
      return presentMember(member);
    },
  );
}
