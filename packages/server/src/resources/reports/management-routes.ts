/**
 * Bugs, errors and logs as a team triages them: filtered lists with occurrence counts and first
 * and last seen, the full record (breadcrumbs, device, context), and the status of a group.
 * The three kinds share one route shape, declared once per kind below.
 */
import { Type, type TSchema } from 'typebox';
import { clampLimit, errorResponses } from '../../http/common-schemas.ts';
import { BadRequestError, NotFoundError } from '../../kernel/errors.ts';
import { LOG_LEVELS } from '../logs/public-routes.ts';
import { SEVERITIES } from './schemas.ts';
import { requireProjectAccess } from '../../management/access.ts';
import type { ManagementApp, ManagementDeps } from '../../management/context.ts';
import { isoOrNull } from '../../management/support/query.ts';
import { ProjectParams } from '../../management/support/schemas.ts';
import { presentBug, presentBugSummary, presentError, presentErrorSummary, presentLog, presentLogSummary } from './presenter.ts';
import { Bug, BugSummary, ErrorRecord, ErrorSummary, LogGroup, LogSummary, ReportPage, ReportParams, ReportQuery, StatusBody } from './management-schemas.ts';
import { getReport, listReports, setReportStatus, statusCounts, type ReportKind, type ReportStatus } from './store.ts';

interface KindRoutes {
  kind: ReportKind;
  singular: string;
  operation: string;
  gradeName: 'severity' | 'level';
  grades: readonly string[];
  summary: TSchema;
  full: TSchema;
  presentSummary: (row: Record<string, unknown>) => unknown;
  present: (row: Record<string, unknown>) => unknown;
  extraQuery?: Record<string, TSchema>;
}

const KIND_ROUTES: KindRoutes[] = [
  {
    kind: 'bugs', singular: 'bug report', operation: 'Bug', gradeName: 'severity', grades: SEVERITIES,
    summary: BugSummary, full: Bug, presentSummary: presentBugSummary, present: presentBug,
  },
  {
    kind: 'errors', singular: 'error report', operation: 'Error', gradeName: 'severity', grades: SEVERITIES,
    summary: ErrorSummary, full: ErrorRecord, presentSummary: presentErrorSummary, present: presentError,
  },
  {
    kind: 'logs', singular: 'log group', operation: 'LogGroup', gradeName: 'level', grades: LOG_LEVELS,
    summary: LogSummary, full: LogGroup, presentSummary: presentLogSummary, present: presentLog,
    extraQuery: {
      category: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
      source: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    },
  },
];

function parseGrades(raw: string | undefined, name: string, allowed: readonly string[]): string[] | undefined {
  if (raw === undefined) return undefined;
  const wanted = raw.split(',').map((part) => part.trim()).filter(Boolean);
  if (wanted.length === 0 || wanted.some((value) => !allowed.includes(value))) {
    const message = `must be a comma-separated list of: ${allowed.join(', ')}`;
    throw new BadRequestError(`Invalid query parameter ${name}: ${message}`, [{ field: name, message }]);
  }
  return wanted;
}

function kindRoutes(app: ManagementApp, { db }: ManagementDeps, spec: KindRoutes): void {
  const tags = ['reports'];
  const plural = spec.kind;
  const Query = ReportQuery(spec.gradeName, spec.grades, spec.extraQuery);
  type Query = Record<string, string | number | undefined>;

  app.get(
    `/projects/:projectId/${plural}`,
    {
      schema: {
        operationId: `manageList${spec.operation}s`,
        summary: `List ${spec.singular}s with filters (${spec.gradeName}, status, environment, time, text), most recently seen first (role: member)`,
        tags,
        params: ProjectParams,
        querystring: Query,
        response: { 200: ReportPage(plural, spec.summary), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { projectId } = request.params as { projectId: string };
      await requireProjectAccess(request, projectId, 'member');
      const query = request.query as Query;
      const limit = clampLimit(query['limit'] as number | undefined, 50, 200);
      const offset = (query['offset'] as number | undefined) ?? 0;
      const environment = query['environment'] as 'live' | 'test' | undefined;
      const [{ rows, total }, counts] = await Promise.all([
        listReports<Record<string, unknown>>(db, spec.kind, projectId, {
          environment,
          status: query['status'] as ReportStatus | undefined,
          grades: parseGrades(query[spec.gradeName] as string | undefined, spec.gradeName, spec.grades),
          since: isoOrNull(query['since'] as string | undefined) ?? undefined,
          until: isoOrNull(query['until'] as string | undefined) ?? undefined,
          q: query['q'] as string | undefined,
          category: query['category'] as string | undefined,
          source: query['source'] as string | undefined,
          sort: (query['sort'] as 'lastSeen' | 'firstSeen' | 'occurrences' | undefined) ?? 'lastSeen',
          limit,
          offset,
        }),
        statusCounts(db, spec.kind, projectId, environment),
      ]);
      return { [plural]: rows.map(spec.presentSummary), total, limit, offset, counts };
    },
  );

  app.get(
    `/projects/:projectId/${plural}/:reportId`,
    {
      schema: {
        operationId: `manageGet${spec.operation}`,
        summary: `The full ${spec.singular} (role: member)`,
        tags,
        params: ReportParams,
        response: { 200: spec.full, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      const { projectId, reportId } = request.params as { projectId: string; reportId: string };
      await requireProjectAccess(request, projectId, 'member');
      const row = await getReport<Record<string, unknown>>(db, spec.kind, projectId, reportId);
      if (!row) throw new NotFoundError();
      return spec.present(row);
    },
  );

  app.patch(
    `/projects/:projectId/${plural}/:reportId`,
    {
      schema: {
        operationId: `manageSet${spec.operation}Status`,
        summary: `Resolve, ignore or reopen a ${spec.singular} (role: admin)`,
        tags,
        params: ReportParams,
        body: StatusBody,
        response: { 200: spec.full, ...errorResponses(400, 401, 403, 404, 413, 415) },
      },
    },
    async (request) => {
      const { projectId, reportId } = request.params as { projectId: string; reportId: string };
      await requireProjectAccess(request, projectId, 'admin');
      const { status } = request.body as { status: ReportStatus };
      if (!(await setReportStatus(db, spec.kind, projectId, reportId, status))) throw new NotFoundError();
      return spec.present((await getReport<Record<string, unknown>>(db, spec.kind, projectId, reportId))!);
    },
  );
}

export async function reportManagementRoutes(app: ManagementApp, deps: ManagementDeps): Promise<void> {
  for (const spec of KIND_ROUTES) kindRoutes(app, deps, spec);
}
