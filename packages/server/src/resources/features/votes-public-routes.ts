import { Type } from 'typebox';
import { errorResponses } from '../../http/common-schemas.ts';
import { NotFoundError } from '../../kernel/errors.ts';
import type { App, Deps } from '../../routing/public-api/context.ts';
import { scopeOf } from '../../routing/public-api/context.ts';
import { addVote, removeVote } from './store-votes.ts';

const VoteParams = Type.Object({
  featureId: Type.String({ minLength: 1, maxLength: 100 }),
  voterId: Type.String({ minLength: 1, maxLength: 200 }),
});

const VoteState = Type.Object(
  { featureId: Type.String(), voteCount: Type.Integer(), voted: Type.Boolean() },
  { additionalProperties: false },
);

export async function voteRoutes(app: App, { db }: Deps): Promise<void> {
  const schema = (operationId: string, summary: string) => ({
    operationId,
    summary,
    tags: ['votes'],
    params: VoteParams,
    response: { 200: VoteState, ...errorResponses(400, 401, 403, 404, 429) },
  });

  app.put(
    '/features/:featureId/votes/:voterId',
    {
      config: { permission: 'features:write' },
      schema: schema('addVote', "Add a voter's vote (once; a repeat changes nothing)"),
    },
    async (request) => {
      const { featureId, voterId } = request.params;
      const voteCount = await addVote(db, scopeOf(request), featureId, voterId);
      if (voteCount === undefined) throw new NotFoundError();
      return { featureId, voteCount, voted: true };
    },
  );

  app.delete(
    '/features/:featureId/votes/:voterId',
    { config: { permission: 'features:write' }, schema: schema('removeVote', "Remove a voter's vote") },
    async (request) => {
      const { featureId, voterId } = request.params;
      const voteCount = await removeVote(db, scopeOf(request), featureId, voterId);
      if (voteCount === undefined) throw new NotFoundError();
      return { featureId, voteCount, voted: false };
    },
  );
}
