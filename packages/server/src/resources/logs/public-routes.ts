import { Type } from 'typebox';
import { errorResponses } from '../../http/common-schemas.ts';
import type { App, Deps } from '../../routing/public-api/context.ts';
import { scopeOf } from '../../routing/public-api/context.ts';
import { LogBatch } from './schemas.ts';
import { storeLogBatch } from './log-writer.ts';

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
