/**
 * The public POST /sessions: session starts, updates and ends from Signpost's own error tracker
 * (packages/error-tracker), counted by the same rules as Sentry's `session` items (service.ts):
 * a session counts once by its worst status, updates are taken for 5 days after it started.
 */
import { Type } from 'typebox';
import { errorResponses, StringEnum } from '../../http/common-schemas.ts';
import type { App, Deps } from '../../routing/public-api/context.ts';
import { scopeOf } from '../../routing/public-api/context.ts';
import { recordSessionItems } from './service.ts';

const SessionBody = Type.Object(
  {
    sessions: Type.Array(
      Type.Object(
        {
          sid: Type.String({ minLength: 1, maxLength: 100, description: 'The session id, the same in every update' }),
          did: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'The user (id or e-mail)' })),
          status: StringEnum(['ok', 'exited', 'errored', 'unhandled', 'abnormal', 'crashed'] as const),
          errors: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
          started: Type.String({ format: 'date-time' }),
          release: Type.String({ minLength: 1, maxLength: 200, description: '`<package>@` prefixes are dropped' }),
          environment: Type.Optional(Type.String({ maxLength: 200, description: 'The SDK environment' })),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 100 },
    ),
  },
  { additionalProperties: false },
);

const SessionReceipt = Type.Object(
  {
    counted: Type.Integer({ description: 'Updates counted' }),
    ignored: Type.Integer({ description: 'Updates of sessions started more than 5 days ago (or ahead of time)' }),
  },
  { additionalProperties: false },
);

export async function sessionRoutes(app: App, { db }: Deps): Promise<void> {
  app.post(
    '/sessions',
    {
      config: { permission: 'errors:write' },
      schema: {
        operationId: 'reportSessions',
        summary: 'Report session starts, updates and ends for release health (crash-free sessions and users)',
        tags: ['reports'],
        body: SessionBody,
        response: { 200: SessionReceipt, ...errorResponses(400, 401, 403, 413, 415, 429) },
      },
    },
    async (request) => {
      const items = request.body.sessions.map((session) => ({
        type: 'session' as const,
        payload: {
          sid: session.sid,
          did: session.did,
          status: session.status,
          errors: session.errors ?? 0,
          started: session.started,
          attrs: { release: session.release, environment: session.environment },
        },
      }));
      return recordSessionItems(db, scopeOf(request), items);
    },
  );
}
