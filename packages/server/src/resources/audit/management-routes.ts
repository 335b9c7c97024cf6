/**
 * The audit log in the management API: a project's entries (its own and its team's), filtered and
 * keyset-paged; the same as a streamed CSV or JSON lines export; the retention setting. Admins and
 * owners only: the log names colleagues, keys and settings a member's role does not manage.
 */
import { Readable } from 'node:stream';
import { errorResponses } from '../../http/common-schemas.ts';
import { ProjectParams } from '../../http/management-schemas.ts';
import { isoOrNull } from '../../db/query.ts';
import { BadRequestError } from '../../kernel/errors.ts';
import { requireProjectAccess } from '../../management/access.ts';
import type { ManagementApp, ManagementDeps } from '../../management/context.ts';
import { CSV_COLUMNS, csvLine, jsonLine, presentEntry } from './presenter.ts';
import { AuditExportQuery, AuditPage, AuditQuery, AuditSettings } from './schemas.ts';
import {
  type AuditCursor,
  type AuditFilter,
  auditEntries,
  auditPage,
  auditRetention,
  setAuditRetention,
} from './service.ts';

const tags = ['audit'];
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export function encodeCursor(cursor: AuditCursor): string {
  return Buffer.from(`${cursor.at}|${cursor.id}`, 'utf8').toString('base64url');
}

function decodeCursor(raw: string): AuditCursor {
  const text = Buffer.from(raw, 'base64url').toString('utf8');
  const bar = text.indexOf('|');
  const at = text.slice(0, bar);
  const id = text.slice(bar + 1);
  if (bar < 0 || !ISO.test(at) || id.length === 0 || id.length > 100) {
    const message = 'must be the nextCursor of a previous page';
    throw new BadRequestError(`Invalid query parameter cursor: ${message}`, [{ field: 'cursor', message }]);
  }
  return { at, id };
}

function filterOf(query: AuditFilter): AuditFilter {
  return {
    actor: query.actor,
    action: query.action,
    targetType: query.targetType,
    targetId: query.targetId,
    since: isoOrNull(query.since) ?? undefined,
    until: isoOrNull(query.until) ?? undefined,
  };
}

const TYPES = { csv: 'text/csv; charset=utf-8', jsonl: 'application/x-ndjson; charset=utf-8' } as const;

export async function auditManagementRoutes(app: ManagementApp, { db }: ManagementDeps): Promise<void> {
  app.get(
    '/projects/:projectId/audit',
    {
      schema: {
        operationId: 'listAuditEntries',
        summary: 'Who did what, newest first: the project’s actions and its team’s (role: admin)',
        tags,
        params: ProjectParams,
        querystring: AuditQuery,
        response: { 200: AuditPage, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const project = await requireProjectAccess(request, request.params.projectId, 'admin');
      const { cursor, limit } = request.query;
      const page = await auditPage(
        db,
        { projectId: project.id, teamId: project.team_id },
        filterOf(request.query),
        cursor === undefined ? undefined : decodeCursor(cursor),
        limit ?? 50,
      );
      return { entries: page.rows.map(presentEntry), nextCursor: page.next ? encodeCursor(page.next) : null };
    },
  );

  app.get(
    '/projects/:projectId/audit/export',
    {
      schema: {
        operationId: 'exportAuditEntries',
        summary: 'The filtered audit log as CSV or JSON lines, streamed, newest first (role: admin)',
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
      const project = await requireProjectAccess(request, request.params.projectId, 'admin');
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
      schema: {
        operationId: 'getAuditSettings',
        summary: 'How long the audit log is kept (role: admin)',
        tags,
        params: ProjectParams,
        response: { 200: AuditSettings, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      const project = await requireProjectAccess(request, request.params.projectId, 'admin');
      return { retentionDays: await auditRetention(db, project.id) };
    },
  );

  app.put(
    '/projects/:projectId/audit/settings',
    {
      schema: {
        operationId: 'putAuditSettings',
        summary: 'Set how long the audit log is kept, in days (role: admin); the change is itself logged',
        tags,
        params: ProjectParams,
        body: AuditSettings,
        response: { 200: AuditSettings, ...errorResponses(400, 401, 403, 404, 413, 415) },
      },
    },
    async (request) => {
      const project = await requireProjectAccess(request, request.params.projectId, 'admin');
      return { retentionDays: await setAuditRetention(db, project.id, request.body.retentionDays) };
    },
  );
}
