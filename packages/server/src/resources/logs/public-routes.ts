import { Type, type Static } from 'typebox';
import { errorResponses, StringEnum } from '../../http/common-schemas.ts';
import type { App, Deps } from '../../public-api/context.ts';
import { scopeOf } from '../../public-api/context.ts';
import { storeLogBatch } from './store.ts';

export const LOG_LEVELS = ['error', 'warn', 'info', 'debug', 'trace'] as const;

const LogEntry = Type.Object({
  level: StringEnum(LOG_LEVELS),
  message: Type.String({ maxLength: 5000 }),
  category: Type.Optional(Type.String({ maxLength: 200 })),
  source: Type.Optional(Type.String({ maxLength: 200 })),
  data: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  userId: Type.Optional(Type.String({ maxLength: 200 })),
  appVersion: Type.Optional(Type.String({ maxLength: 100 })),
  fingerprint: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  timestamp: Type.Optional(Type.String({ format: 'date-time' })),
});
export type LogEntry = Static<typeof LogEntry>;

const LogBatch = Type.Object({ logs: Type.Array(LogEntry, { maxItems: 100 }) });

export async function logRoutes(app: App, { db }: Deps): Promise<void> {
  app.post(
    '/logs',
    {
      config: { permission: 'logs:write' },
      schema: {
        operationId: 'sendLogs',
        summary: 'Store up to 100 log entries; repeats of a fingerprint are counted on one row',
        tags: ['logs'],
        body: LogBatch,
        response: {
          200: Type.Object({ accepted: Type.Integer() }, { additionalProperties: false }),
          ...errorResponses(400, 401, 403, 413, 415, 429),
        },
      },
    },
    async (request) => {
      // The schema has already validated the whole batch: one bad entry rejects all of it.
      await storeLogBatch(db, scopeOf(request), request.body.logs, new Date());
      return { accepted: request.body.logs.length };
    },
  );
}
