/**
 * Invites by e-mail: owners send them (a token link that expires after 7 days); anyone may look
 * at one by its token; a signed-in account accepts it, within the seat rules of `seats.ts`.
 */
import { Type } from 'typebox';
import { Email, errorResponses } from '../../http/common-schemas.ts';
import { MailFailedError, NotFoundError, TooManyRequestsError } from '../../kernel/errors.ts';
import { hitSlidingWindow, rateLimitHeaders } from '../../http/rate-limit.ts';
import { normaliseEmail } from '../../kernel/email.ts';
import { teamAccess } from '../../routing/management/declared-access.ts';
import { requireAccount } from '../../routing/management/access.ts';
import type { ManagementApp, ManagementDeps } from '../../routing/management/context.ts';
import {
  AssignableRole,
  Invite,
  InviteParams,
  InvitePreview,
  InviteTokenParams,
  Member,
  TeamParams,
} from './schemas.ts';
import { acceptTeamInvite, inviteToTeam, renewTeamInvite } from './invites.ts';
import { withdrawInvite } from './member-service.ts';
import { inviterLabel } from './members-read-model.ts';
import { inviteMessage } from './messages.ts';
import { inviteStatus, presentInvite, presentMember } from './presenter.ts';
import { findInvite, findInviteByToken, listInvites } from './store.ts';

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
      config: { access: { team: 'admin' } },
      schema: {
        operationId: 'listTeamInvites',
        summary: 'Invites of a team, newest first, in every status',
        tags,
        params: TeamParams,
        response: {
          200: Type.Object({ invites: Type.Array(Invite) }, { additionalProperties: false }),
          ...errorResponses(401, 403, 404),
        },
      },
    },
    async (request) => {
      const team = teamAccess(request);
      return { invites: (await listInvites(db, team.id)).map(presentInvite) };
    },
  );

  app.post(
    '/teams/:teamId/invites',
    {
      config: { access: { team: 'owner' } },
      schema: {
        operationId: 'createTeamInvite',
        summary: 'Invite an address by e-mail; a new address takes a seat, refused at the limit',
        tags,
        params: TeamParams,
        body: Type.Object({ email: Email, role: Type.Optional(AssignableRole) }),
        response: { 201: Invite, ...errorResponses(400, 401, 403, 404, 409, 413, 415, 503) },
      },
    },
    async (request, reply) => {
      const account = requireAccount(request);
      const team = teamAccess(request);
      const { token, row } = await inviteToTeam(
        db,
        team,
        { email: normaliseEmail(request.body.email), role: request.body.role ?? 'member', invitedBy: account.id },
        seatsDefault,
      );
      try {
        await sendInvite(row.email, token, team.name, account.name || account.email, row.role);
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
      config: { access: { team: 'admin' } },
      schema: {
        operationId: 'resendTeamInvite',
        summary: 'Send a pending or expired invite’s e-mail again with a new link valid 7 days, 3 an hour',
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
      const team = teamAccess(request);
      const { inviteId } = request.params;
      const existing = await findInvite(db, team.id, inviteId);
      if (!existing) throw new NotFoundError();
      const limit = await hitSlidingWindow(db, `invite-resend:${existing.id}`, RESEND_LIMIT.max, RESEND_LIMIT.windowMs);
      if (!limit.allowed)
        throw new TooManyRequestsError('Too many resends of this invite; try again later', rateLimitHeaders(limit));
      const { token, row } = await renewTeamInvite(db, team, inviteId, seatsDefault);
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
      config: { access: { team: 'owner' } },
      schema: {
        operationId: 'revokeTeamInvite',
        summary: 'Withdraw a pending invite; its seat frees at once',
        tags,
        params: InviteParams,
        response: { 200: Invite, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      const team = teamAccess(request);
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
      const member = await acceptTeamInvite(db, request.params.token, account, seatsDefault);
      return presentMember(member);
    },
  );
}
