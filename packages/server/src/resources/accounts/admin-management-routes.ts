/** Instance administration: the seat limit of an owner (their plan). Only the instance administrator. */
import { Type } from 'typebox';
import { errorResponses } from '../../http/common-schemas.ts';
import { NotFoundError } from '../../kernel/errors.ts';
import { requireInstanceAdmin } from '../../routing/management/access.ts';
import type { ManagementApp, ManagementDeps } from '../../routing/management/context.ts';
import { SeatsSchema, seatsOf } from '../teams/index.ts';
import { setOwnerSeatLimit } from './service.ts';
import { findAccount } from './store.ts';

const AccountSeats = Type.Object(
  {
    accountId: Type.String(),
    email: Type.String(),
    seatLimit: Type.Union([Type.Integer(), Type.Null()], { description: 'null: DEFAULT_TEAM_SEATS applies' }),
    seats: SeatsSchema,
  },
  { additionalProperties: false },
);

export async function adminManagementRoutes(app: ManagementApp, { db, config }: ManagementDeps): Promise<void> {
  const tags = ['administration'];
  const load = async (accountId: string) => {
    const row = await findAccount(db, accountId);
    if (!row) throw new NotFoundError();
    return {
      accountId: row.id,
      email: row.email,
      seatLimit: row.seat_limit,
      seats: await seatsOf(db, row.id, config.accounts.defaultTeamSeats),
    };
  };

  app.get(
    '/admin/accounts/:accountId/seats',
    {
      schema: {
        operationId: 'getAccountSeats',
        summary: 'An owner’s seat limit and use (instance administrator)',
        tags,
        params: Type.Object({ accountId: Type.String() }),
        response: { 200: AccountSeats, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      requireInstanceAdmin(request);
      return load(request.params.accountId);
    },
  );

  app.put(
    '/admin/accounts/:accountId/seats',
    {
      schema: {
        operationId: 'setAccountSeats',
        summary: 'Set an owner’s seat limit over all their teams, or null for the default (instance administrator)',
        tags,
        params: Type.Object({ accountId: Type.String() }),
        body: Type.Object({ seatLimit: Type.Union([Type.Integer({ minimum: 1, maximum: 100_000 }), Type.Null()]) }),
        response: { 200: AccountSeats, ...errorResponses(400, 401, 403, 404, 413, 415) },
      },
    },
    async (request) => {
      requireInstanceAdmin(request);
      const { accountId } = request.params;
      const found = await setOwnerSeatLimit(db, accountId, request.body.seatLimit);
      if (!found) throw new NotFoundError();
      return load(request.params.accountId);
    },
  );
}
