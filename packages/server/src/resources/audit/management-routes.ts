/**
 * The audit log in the management API: a project's entries (its own and its team's), filtered and
 * keyset-paged; the same as a streamed CSV or JSON lines export; the retention setting. Admins and
 * owners only: the log names colleagues, keys and settings a member's role does not manage.
 */
import { Readable } from 'node:stream';
import { errorResponses } from '../../http/common-schemas.ts';
import { ProjectParams } from '../../http/management-schemas.ts';
import { projectAccess } from '../../routing/management/declared-access.ts';
import type { ManagementApp, ManagementDeps } from '../../routing/management/context.ts';
import { auditPageOf, filterOf } from './audit-page.ts';
import { CSV_COLUMNS, csvLine, jsonLine } from './presenter.ts';
import { AuditExportQuery, AuditPage, AuditQuery, AuditSettings } from './schemas.ts';
import { auditEntries, auditRetention, setAuditRetention } from './service.ts';

const tags = ['audit'];

const TYPES = { csv: 'text/csv; charset=utf-8', jsonl: 'application/x-ndjson; charset=utf-8' } as const;

export async function auditManagementRoutes(app: ManagementApp, { db }: ManagementDeps): Promise<void> {
  app.get(
    '/projects/:projectId/audit',
    {
      config: { access: { project: 'admin' } },
      schema: {
        operationId: 'listAuditEntries',
        summary: 'Who did what, newest first: the project’s actions and its team’s',
        tags,
        params: ProjectParams,
        querystring: AuditQuery,
        response: { 200: AuditPage, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const project = projectAccess(request);
      return auditPageOf(db, { projectId: project.id, teamId: project.team_id }, request.query);
    },
  );

  app.get(
    '/projects/:projectId/audit/export',
    {
      config: { access: { project: 'admin' } },
      schema: {
        operationId: 'exportAuditEntries',
        summary: 'The filtered audit log as CSV or JSON lines, streamed, newest first',
        tags,
        params: ProjectParams,
        querystring: AuditExportQuery,
        response: {
          200: {
            description: 'One entry a line (JSON lines), or a header row and one row an entry (CSV)',
            content: {
              'application/x-ndjson': { schema: { type: 'string' } },
              'text/csv': { schema: { type: 'string' } },
            },
          },
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request, reply) => {
      const project = projectAccess(request);
      const format = request.query.format ?? 'jsonl';
      const entries = auditEntries(db, { projectId: project.id, teamId: project.team_id }, filterOf(request.query));
      async function* lines() {
        if (format === 'csv') yield `${CSV_COLUMNS.join(',')}\r\n`;
        for await (const row of entries) yield format === 'csv' ? csvLine(row) : jsonLine(row);
      }
      const extension = format === 'csv' ? 'csv' : 'jsonl';
      return (
        reply
          .type(TYPES[format])
          .header('content-disposition', `attachment; filename="audit-${project.slug}.${extension}"`)
          .header('cache-control', 'no-store')
          // The schema types the body as the text it becomes; Fastify pipes the stream as it comes.
          .send(Readable.from(lines()) as unknown as string)
      );
    },
  );

  app.get(
    '/projects/:projectId/audit/settings',
    {
      config: { access: { project: 'admin' } },
      schema: {
        operationId: 'getAuditSettings',
        summary: 'How long the audit log is kept',
        tags,
        params: ProjectParams,
        response: { 200: AuditSettings, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      const project = projectAccess(request);
      return { retentionDays: await auditRetention(db, project.id) };
    },
  );

  app.put(
    '/projects/:projectId/audit/settings',
    {
      config: { access: { project: 'admin' } },
      schema: {
        operationId: 'putAuditSettings',
        summary: 'Set how long the audit log is kept, in days; the change is itself logged',
        tags,
        params: ProjectParams,
        body: AuditSettings,
        response: { 200: AuditSettings, ...errorResponses(400, 401, 403, 404, 413, 415) },
      },
    },
    async (request) => {
      const project = projectAccess(request);
      return { retentionDays: await setAuditRetention(db, project.id, request.body.retentionDays) };
    },
  );
}
