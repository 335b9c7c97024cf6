import { Type } from 'typebox';
import { errorResponses } from '../../http/common-schemas.ts';
import type { App, Deps } from '../../public-api/context.ts';
import { keyOf, scopeOf } from '../../public-api/context.ts';
import { initialInternal, insertFeature } from '../../resources/features/index.ts';
import { fingerprintOf, recordOccurrence, reportTable } from './dedup.ts';
import { BugBody, ErrorBody } from './schemas.ts';

const BugReceipt = Type.Object({ id: Type.String(), message: Type.String() }, { additionalProperties: false });
const ErrorReceipt = Type.Object(
  { id: Type.String(), message: Type.String(), duplicate: Type.Boolean() },
  { additionalProperties: false },
);

const json = (value: unknown): string | null => (value === undefined ? null : JSON.stringify(value));

const BUGS = reportTable('bug_reports', 'bug', ['title', 'message', 'stack_trace', 'bug_type', 'severity', 'channel', 'metadata']);
const ERRORS = reportTable('error_reports', 'error', [
  'title', 'message', 'stack_trace', 'error_type', 'severity', 'breadcrumbs', 'device', 'network', 'app', 'url', 'referrer',
  'occurred_at', 'metadata',
]);

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
      const key = keyOf(request);
      const scope = scopeOf(request);
      const result = await recordOccurrence(
        db,
        scope,
        fingerprintOf(body.title, body.message),
        new Date(),
        BUGS,
        [
          body.title, body.message, body.stackTrace ?? null, body.bugType ?? null, body.severity ?? 'medium',
          body.channel ?? null, json(body.metadata),
        ],
        // A new bug with createFeature gets its linked feature request, in the same transaction.
        body.createFeature
          ? async (tx, id) => {
              const feature = await insertFeature(tx, scope, {
                title: body.title.slice(0, 120),
                description: body.message.slice(0, 1000),
                type: 'bug',
                status: 'new',
                internal: initialInternal(body.internal, body.channel, key.project.id, config.platformProjectId),
                channel: body.channel,
              });
              await tx.run('UPDATE bug_reports SET feature_id = ? WHERE id = ?', [feature.id, id]);
            }
          : undefined,
      );
      return reply
        .code(result.duplicate ? 200 : 201)
        .send({ id: result.id, message: result.duplicate ? 'Bug report already received; occurrence counted' : 'Bug report received' });
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
      const result = await recordOccurrence(db, scope, fingerprintOf(body.title, body.errorType), new Date(), ERRORS, [
        body.title, body.message, body.stackTrace ?? null, body.errorType ?? null, body.severity ?? 'medium',
        json(body.breadcrumbs), json(body.device), json(body.network), json(body.app), body.url ?? null,
        body.referrer ?? null, body.timestamp ?? null, json(body.metadata),
      ]);
      return reply.code(result.duplicate ? 200 : 201).send({
        id: result.id,
        message: result.duplicate ? 'Error already reported; occurrence counted' : 'Error report received',
        duplicate: result.duplicate,
      });
    },
  );
}
