/** Personal access tokens of the signed-in account: create (shown once), list by prefix, revoke. */
import { Type } from 'typebox';
import { errorResponses, Timestamp } from '../../http/common-schemas.ts';
import { ForbiddenError, NotFoundError } from '../../kernel/errors.ts';
import { requireAccount } from '../../routing/management/access.ts';
import type { ManagementApp, ManagementDeps } from '../../routing/management/context.ts';
import { createToken, listTokens, presentToken, revokeToken } from './store.ts';

const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()]);

export const TokenSummary = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    prefix: Type.String({ description: 'sp_pat_ and the public part of the token; the rest is never shown again' }),
    createdAt: Timestamp,
    expiresAt: Nullable(Timestamp),
    lastUsedAt: Nullable(Timestamp),
    revokedAt: Nullable(Timestamp),
  },
  { additionalProperties: false },
);

const CreatedToken = Type.Object(
  {
    token: Type.String({ description: 'The whole token. Shown only in this response.' }),
    tokenInfo: TokenSummary,
  },
  { additionalProperties: false },
);

const TokenParams = Type.Object({ tokenId: Type.String() });

export async function tokenManagementRoutes(app: ManagementApp, { db }: ManagementDeps): Promise<void> {
  const tags = ['tokens'];

  app.post(
    '/me/tokens',
    {
      schema: {
        operationId: 'createPersonalAccessToken',
        summary: 'Create a personal access token (signed in with a session); the token is shown once',
        tags,
        body: Type.Object({
          name: Type.String({ minLength: 1, maxLength: 100 }),
          expiresInDays: Type.Optional(Type.Integer({ minimum: 1, maximum: 3650 })),
        }),
        response: { 201: CreatedToken, ...errorResponses(400, 401, 403, 413, 415) },
      },
    },
    async (request, reply) => {
      const account = requireAccount(request);
      // A leaked token must not be able to mint fresh ones that outlive its revocation.
      if (account.via !== 'session')
        throw new ForbiddenError('Sign in with a session to create personal access tokens');
      const { token, row } = await createToken(db, account.id, request.body.name.trim(), request.body.expiresInDays);
      return reply.code(201).send({ token, tokenInfo: presentToken(row) });
    },
  );

  app.get(
    '/me/tokens',
    {
      schema: {
        operationId: 'listPersonalAccessTokens',
        summary: 'The personal access tokens of the signed-in account, newest first, by prefix',
        tags,
        response: {
          200: Type.Object({ tokens: Type.Array(TokenSummary) }, { additionalProperties: false }),
          ...errorResponses(401),
        },
      },
    },
    async (request) => ({ tokens: (await listTokens(db, requireAccount(request).id)).map(presentToken) }),
  );

  app.delete(
    '/me/tokens/:tokenId',
    {
      schema: {
        operationId: 'revokePersonalAccessToken',
        summary: 'Revoke a token; it stops working at once',
        tags,
        params: TokenParams,
        response: { 200: TokenSummary, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      const row = await revokeToken(db, requireAccount(request).id, request.params.tokenId);
      if (!row) throw new NotFoundError();
      return presentToken(row);
    },
  );
}
