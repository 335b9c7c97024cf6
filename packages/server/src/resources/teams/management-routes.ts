/** Teams and their members. Members read; owners rename, change roles and remove members. */
import { Type } from 'typebox';
import type { Queryable } from '../../db/database.ts';
import { errorResponses } from '../../http/common-schemas.ts';
import { BadRequestError, ForbiddenError, NotFoundError } from '../../kernel/errors.ts';
import { teamAccess } from '../../routing/management/declared-access.ts';
import { requireAccount, requireRole, requireTeamAccess, type TeamAccess } from '../../routing/management/access.ts';
import type { ManagementApp, ManagementDeps } from '../../routing/management/context.ts';
import { AssignableRole, Member, MemberParams, Team, TeamParams } from './schemas.ts';
import { findMember, listMembers } from './members-read-model.ts';
import { presentMember } from './presenter.ts';
import { seatsOf } from './seats-read-model.ts';
import { changeMemberRole, createOwnedTeam, dropMember } from './member-service.ts';
import { listTeamsOf, renameTeam, type TeamRow } from './store.ts';

const TeamName = Type.String({ minLength: 1, maxLength: 100 });

export async function teamManagementRoutes(app: ManagementApp, { db, config }: ManagementDeps): Promise<void> {
  const tags = ['teams'];
  const present = async (q: Queryable, team: TeamAccess) => ({
    id: team.id,
    name: team.name,
    ownerAccountId: team.ownerAccountId,
    role: team.role,
    seats: await seatsOf(q, team.ownerAccountId, config.accounts.defaultTeamSeats),
    createdAt: team.createdAt,
  });
  const fromRow = (row: TeamRow): TeamAccess => ({
    id: row.id,
    name: row.name,
    ownerAccountId: row.owner_account_id,
    createdAt: row.created_at,
    role: row.role,
  });

  app.get(
    '/teams',
    {
      schema: {
        operationId: 'listTeams',
        summary: 'Teams the signed-in account belongs to, with its role in each',
        tags,
        response: {
          200: Type.Object({ teams: Type.Array(Team) }, { additionalProperties: false }),
          ...errorResponses(401),
        },
      },
    },
    async (request) => {
      const teams = await listTeamsOf(db, requireAccount(request).id);
      return { teams: await Promise.all(teams.map((team) => present(db, fromRow(team)))) };
    },
  );

  app.post(
    '/teams',
    {
      schema: {
        operationId: 'createTeam',
        summary: 'Create another team owned by the signed-in account (its seats count with its other teams)',
        tags,
        body: Type.Object({ name: TeamName }),
        response: { 201: Team, ...errorResponses(400, 401, 403, 413, 415) },
      },
    },
    async (request, reply) => {
      const account = requireAccount(request);
      const teamId = await createOwnedTeam(db, account.id, request.body.name);
      // By hand: the team was created just now; this reads it back with the caller's role.
      return reply.code(201).send(await present(db, await requireTeamAccess(request, teamId, 'owner')));
    },
  );

  app.get(
    '/teams/:teamId',
    {
      config: { access: { team: 'member' } },
      schema: {
        operationId: 'getTeam',
        summary: 'A team, with the owner’s seats',
        tags,
        params: TeamParams,
        response: { 200: Team, ...errorResponses(401, 404) },
      },
    },
    async (request) => present(db, teamAccess(request)),
  );

  app.patch(
    '/teams/:teamId',
    {
      config: { access: { team: 'owner' } },
      schema: {
        operationId: 'updateTeam',
        summary: 'Rename a team',
        tags,
        params: TeamParams,
        body: Type.Object({ name: TeamName }),
        response: { 200: Team, ...errorResponses(400, 401, 403, 404, 413, 415) },
      },
    },
    async (request) => {
      const team = teamAccess(request);
      await renameTeam(db, team.id, request.body.name.trim());
      return present(db, { ...team, name: request.body.name.trim() });
    },
  );

  app.get(
    '/teams/:teamId/members',
    {
      config: { access: { team: 'member' } },
      schema: {
        operationId: 'listTeamMembers',
        summary: 'Members of a team with their roles',
        tags,
        params: TeamParams,
        response: {
          200: Type.Object({ members: Type.Array(Member) }, { additionalProperties: false }),
          ...errorResponses(401, 404),
        },
      },
    },
    async (request) => {
      const team = teamAccess(request);
      return { members: (await listMembers(db, team.id)).map(presentMember) };
    },
  );

  app.patch(
    '/teams/:teamId/members/:accountId',
    {
      config: { access: { team: 'owner' } },
      schema: {
        operationId: 'updateTeamMember',
        summary: 'Change a member’s role to admin or member',
        tags,
        params: MemberParams,
        body: Type.Object({ role: AssignableRole }),
        response: { 200: Member, ...errorResponses(400, 401, 403, 404, 413, 415) },
      },
    },
    async (request) => {
      const team = teamAccess(request);
      const member = await findMember(db, team.id, request.params.accountId);
      if (!member) throw new NotFoundError();
      if (member.role === 'owner') throw new BadRequestError('The owner’s role cannot change');
      // Removed meanwhile: the change landed nowhere, so it must not be answered as made.
      if (!(await changeMemberRole(db, team.id, member, request.body.role))) throw new NotFoundError();
      return presentMember({ ...member, role: request.body.role });
    },
  );

  app.delete(
    '/teams/:teamId/members/:accountId',
    {
      config: { access: { team: 'member' } },
      schema: {
        operationId: 'removeTeamMember',
        summary: 'Leave a team (any member but the owner), or remove another member (the owner only)',
        tags,
        params: MemberParams,
        response: { 204: Type.Null({ description: 'Removed' }), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const account = requireAccount(request);
      const leaving = request.params.accountId === account.id;
      const team = teamAccess(request);
      // Any member may leave; removing someone else needs the owner role.
      if (!leaving) requireRole(team.role, 'owner');
      const member = await findMember(db, team.id, request.params.accountId);
      if (!member) throw new NotFoundError();
      if (member.role === 'owner') throw new ForbiddenError('The owner cannot leave or be removed from their team');
      await dropMember(db, team.id, member);
      return reply.code(204).send(null);
    },
  );
}
