import { Type } from 'typebox';
import { errorResponses } from '../../http/common-schemas.ts';
import type { App, Deps } from '../../routing/public-api/context.ts';
import { scopeOf } from '../../routing/public-api/context.ts';
import { BugBody, ErrorBody } from './schemas.ts';
import { recordError } from './error-writer.ts';
import { prepareReportBody } from './error-event.ts';
import { reportBug } from './bug-report.ts';

const BugReceipt = Type.Object({ id: Type.String(), message: Type.String() }, { additionalProperties: false });
const ErrorReceipt = Type.Object(
  { id: Type.String(), message: Type.String(), duplicate: Type.Boolean() },
  { additionalProperties: false },
);

export async function reportRoutes(app: App, { db, config }: Deps): Promise<void> {
  app.post(
    '/bugs',
    {
      config: { permission: 'bugs:write' },
      schema: {
        operationId: 'reportBug',
        summary: 'Report a bug (repeats of the same title and message within an hour are counted, not stored again)',
        tags: ['reports'],
        body: BugBody,
        response: { 201: BugReceipt, 200: BugReceipt, ...errorResponses(400, 401, 403, 413, 415, 429) },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const scope = scopeOf(request);
      const result = await reportBug(db, scope, config.platformProjectId, body, new Date());
      return reply.code(result.duplicate ? 200 : 201).send({
        id: result.id,
        message: result.duplicate ? 'Bug report already received; occurrence counted' : 'Bug report received',
      });
    },
  );

  app.post(
    '/errors',
    {
      config: { permission: 'errors:write' },
      schema: {
        operationId: 'reportError',
        summary: 'Report an application error (repeats of the same title and errorType within an hour are counted)',
        tags: ['reports'],
        body: ErrorBody,
        response: { 201: ErrorReceipt, 200: ErrorReceipt, ...errorResponses(400, 401, 403, 413, 415, 429) },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const scope = scopeOf(request);
      const now = new Date();
      const result = await recordError(
        db,
        scope,
        body,
        now,
        config.errorHistoryRetentionDays,
        prepareReportBody(body, now),
        config.errorEventsPerGroup,
      );
      return reply.code(result.duplicate ? 200 : 201).send({
        id: result.id,
        message: result.duplicate ? 'Error already reported; occurrence counted' : 'Error report received',
        duplicate: result.duplicate,
      });
    },
  );
}
