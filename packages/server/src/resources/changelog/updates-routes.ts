/**
 * The public "What's new" routes (issue 35): GET /updates (newest entries, unread count) and
 * PUT /updates/seen (the identified reader's marker). The reader is identified by the host app's
 * signed token in the `X-Signpost-User` header (the board's SSO format); without it the
 * browser keeps its own marker and sends it as `since`.
 */
import { Type } from 'typebox';
import { clampLimit, errorResponses, Timestamp } from '../../http/common-schemas.ts';
import type { App, Deps } from '../../routing/public-api/context.ts';
import { keyOf } from '../../routing/public-api/context.ts';
import { UnauthorizedError } from '../../kernel/errors.ts';
import { IDENTITY_HEADER, IDENTITY_TOKEN_MAX_LENGTH } from '../board/index.ts';
import { listUpdates, markUpdatesSeen } from './updates.ts';

export const USER_TOKEN_HEADER = IDENTITY_HEADER;

const TokenHeaders = Type.Object({
  [USER_TOKEN_HEADER]: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: IDENTITY_TOKEN_MAX_LENGTH,
      description:
        "The host app's HS256 JWT for its signed-in user (claims sub, iat, exp; at most 24 hours old), signed with the project's board SSO secret",
    }),
  ),
});

const Update = Type.Object(
  {
    id: Type.String(),
    summary: Type.String(),
    statusKey: Type.String(),
    statusLabel: Type.String(),
    publishedAt: Timestamp,
    announcement: Type.Boolean({ description: 'The team asks for a one-time popup' }),
    unread: Type.Boolean({ description: 'Published after the reader’s marker' }),
    url: Type.String({ description: 'The entry’s permalink on the board' }),
  },
  { additionalProperties: false },
);

const SeenThrough = Type.Union([Timestamp, Type.Null()], {
  description: 'The publication time up to which the reader has seen the changelog; null: nothing yet',
});

/** Marking is a write per reader; a shared publishable key serves many readers at once. */
const SEEN_LIMIT = { name: 'updates:seen', max: 600, windowMs: 60_000 };

export async function updatesRoutes(app: App, deps: Deps): Promise<void> {
  app.get(
    '/updates',
    {
      config: { permission: 'features:read' },
      schema: {
        operationId: 'getUpdates',
        summary: "What's new: the newest published changelog entries and the reader's unread count",
        tags: ['changelog'],
        headers: TokenHeaders,
        querystring: Type.Object({
          since: Type.Optional({
            ...Timestamp,
            description:
              "An anonymous reader's marker, kept by its browser; ignored when the token identifies the reader",
          }),
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, default: 20 })),
        }),
        response: {
          200: Type.Object(
            {
              entries: Type.Array(Update),
              unread: Type.Integer({ description: 'Entries published after the marker (at most 100)' }),
              seenThrough: SeenThrough,
              identified: Type.Boolean({ description: 'The marker is the identified reader’s, kept by the server' }),
            },
            { additionalProperties: false },
          ),
          ...errorResponses(400, 401, 403, 429),
        },
      },
    },
    async (request) => {
      const { project } = keyOf(request);
      return listUpdates(deps, project, {
        since: request.query.since,
        limit: clampLimit(request.query.limit, 20, 50),
        userToken: request.headers[USER_TOKEN_HEADER],
      });
    },
  );

  app.put(
    '/updates/seen',
    {
      config: { permission: 'features:read', rateLimit: SEEN_LIMIT },
      schema: {
        operationId: 'markUpdatesSeen',
        summary: "Marks the identified reader's changelog seen (the token header is required)",
        tags: ['changelog'],
        headers: TokenHeaders,
        body: Type.Object(
          {
            through: Type.Optional({
              ...Timestamp,
              description: 'Seen up to this publication time; default the newest entry. The marker never moves back.',
            }),
          },
          { additionalProperties: false },
        ),
        response: {
          200: Type.Object({ seenThrough: SeenThrough }, { additionalProperties: false }),
          ...errorResponses(400, 401, 403, 429),
        },
      },
    },
    async (request) => {
      const token = request.headers[USER_TOKEN_HEADER];
      if (!token) throw new UnauthorizedError('Missing user token');
      return markUpdatesSeen(deps, keyOf(request).project, token, request.body?.through);
    },
  );
}
