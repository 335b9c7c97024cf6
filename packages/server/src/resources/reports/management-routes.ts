/**
 * Bugs and errors as a team triages them: filtered lists with occurrence counts and first and
 * last seen, the full record (breadcrumbs, device, context), and the status of a group. Every
 * grouped-report kind shares one route shape, `triageRoutes`; resources/logs declares its own.
 */
import { Type, type TSchema } from 'typebox';
import type { Database, Queryable } from '../../db/database.ts';
import type { KeyEnvironment } from '../../kernel/api-keys.ts';
import { clampLimit, errorResponses } from '../../http/common-schemas.ts';
import { BadRequestError, NotFoundError } from '../../kernel/errors.ts';
import { SEVERITIES } from './schemas.ts';
import type { ManagementApp, ManagementDeps } from '../../routing/management/context.ts';
import { isoOrNull } from '../../db/query.ts';
import { ProjectParams } from '../../http/management-schemas.ts';
import { presentBug, presentBugSummary, presentError, presentErrorSummary } from './presenter.ts';
import {
  Bug,
  BugSummary,
  ErrorRecord,
  ErrorStatus,
  ErrorStatusBody,
  ErrorStatusCounts,
  ErrorSummary,
  ReportPage,
  ReportParams,
  ReportQuery,
  StatusBody,
} from './management-schemas.ts';
import { getReport, listReports, setReportStatus, statusCounts, type ReportKind } from './store.ts';
import { changeErrorStatus } from './service.ts';
import type { ReportFilter, ReportStatus } from './store-triage.ts';

type Row = Record<string, unknown>;

/** The reads and the status change of one grouped-report table, from its own store. */
export interface TriageStore {
  list(db: Queryable, projectId: string, filter: ReportFilter): Promise<{ rows: Row[]; total: number }>;
  get(db: Queryable, projectId: string, id: string): Promise<Row | undefined>;
  /** `body`: the whole PATCH body, for options of a kind (errors: inNextRelease). */
  setStatus(
    db: Database,
    projectId: string,
    id: string,
    status: ReportStatus,
    body?: Record<string, unknown>,
  ): Promise<boolean>;
  counts(
    db: Queryable,
    projectId: string,
    environment: KeyEnvironment | undefined,
  ): Promise<Record<ReportStatus, number>>;
}

/** One kind's routes: its plural is the path segment, `store` reads and changes its table. */
export interface KindRoutes {
  kind: string;
  store: TriageStore;
  singular: string;
  operation: string;
  gradeName: 'severity' | 'level';
  grades: readonly string[];
  summary: TSchema;
  full: TSchema;
  presentSummary: (row: Record<string, unknown>) => unknown;
  present: (row: Record<string, unknown>) => unknown;
  extraQuery?: Record<string, TSchema>;
  /** The status enum of the list filter (default open, resolved, ignored). */
  statusFilter?: TSchema;
  counts?: TSchema;
  statusBody?: TSchema;
}

const reportStore = (kind: ReportKind): TriageStore => ({
  list: (db, projectId, filter) => listReports<Row>(db, kind, projectId, filter),
  get: (db, projectId, id) => getReport<Row>(db, kind, projectId, id),
  setStatus: async (db, projectId, id, status, body) => {
    if (kind !== 'errors') return setReportStatus(db, kind, projectId, id, status);
    return changeErrorStatus(db, projectId, id, status, body?.['inNextRelease'] === true);
  },
  counts: (db, projectId, environment) => statusCounts(db, kind, projectId, environment),
});

export const KIND_ROUTES: KindRoutes[] = [
  {
    kind: 'bugs',
    store: reportStore('bugs'),
    singular: 'bug report',
    operation: 'Bug',
    gradeName: 'severity',
    grades: SEVERITIES,
    summary: BugSummary,
    full: Bug,
    presentSummary: presentBugSummary,
    present: presentBug,
    extraQuery: {
      featureId: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 100,
          description:
            'Only the reports linked to this feature (created with createFeature, or moved there by a merge)',
        }),
      ),
    },
  },
  {
    kind: 'errors',
    store: reportStore('errors'),
    singular: 'error report',
    operation: 'Error',
    gradeName: 'severity',
    grades: SEVERITIES,
    summary: ErrorSummary,
    full: ErrorRecord,
    presentSummary: presentErrorSummary,
    present: presentError,
    statusFilter: ErrorStatus,
    counts: ErrorStatusCounts,
    statusBody: ErrorStatusBody,
    extraQuery: {
      release: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 500,
          description: 'Only groups whose last report is of this app.version',
        }),
      ),
    },
  },
];

function parseGrades(raw: string | undefined, name: string, allowed: readonly string[]): string[] | undefined {
  if (raw === undefined) return undefined;
  const wanted = raw
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  if (wanted.length === 0 || wanted.some((value) => !allowed.includes(value))) {
    const message = `must be a comma-separated list of: ${allowed.join(', ')}`;
    throw new BadRequestError(`Invalid query parameter ${name}: ${message}`, [{ field: name, message }]);
  }
  return wanted;
}

/** The list, read and status routes of one grouped-report kind. */
export function triageRoutes(app: ManagementApp, { db }: ManagementDeps, spec: KindRoutes): void {
  const tags = ['reports'];
  const plural = spec.kind;
  const Query = ReportQuery(spec.gradeName, spec.grades, spec.extraQuery, spec.statusFilter);
  type Query = Record<string, string | number | undefined>;

  app.get(
    `/projects/:projectId/${plural}`,
    {
      config: { access: { project: 'member' } },
      schema: {
        operationId: `manageList${spec.operation}s`,
        summary: `List ${spec.singular}s with filters (${spec.gradeName}, status, environment, time, text), most recently seen first`,
        tags,
        params: ProjectParams,
        querystring: Query,
        response: { 200: ReportPage(plural, spec.summary, spec.counts), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { projectId } = request.params as { projectId: string };
      const query = request.query as Query;
      const limit = clampLimit(query['limit'] as number | undefined, 50, 200);
      const offset = (query['offset'] as number | undefined) ?? 0;
      const environment = query['environment'] as 'live' | 'test' | undefined;
      const [{ rows, total }, counts] = await Promise.all([
        spec.store.list(db, projectId, {
          environment,
          status: query['status'] as ReportStatus | undefined,
          grades: parseGrades(query[spec.gradeName] as string | undefined, spec.gradeName, spec.grades),
          since: isoOrNull(query['since'] as string | undefined) ?? undefined,
          until: isoOrNull(query['until'] as string | undefined) ?? undefined,
          q: query['q'] as string | undefined,
          category: query['category'] as string | undefined,
          source: query['source'] as string | undefined,
          featureId: query['featureId'] as string | undefined,
          release: query['release'] as string | undefined,
          sort: (query['sort'] as 'lastSeen' | 'firstSeen' | 'occurrences' | undefined) ?? 'lastSeen',
          limit,
          offset,
        }),
        spec.store.counts(db, projectId, environment),
      ]);
      return { [plural]: rows.map(spec.presentSummary), total, limit, offset, counts };
    },
  );

  app.get(
    `/projects/:projectId/${plural}/:reportId`,
    {
      config: { access: { project: 'member' } },
      schema: {
        operationId: `manageGet${spec.operation}`,
        summary: `The full ${spec.singular}`,
        tags,
        params: ReportParams,
        response: { 200: spec.full, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      const { projectId, reportId } = request.params as { projectId: string; reportId: string };
      const row = await spec.store.get(db, projectId, reportId);
      if (!row) throw new NotFoundError();
      return spec.present(row);
    },
  );

  app.patch(
    `/projects/:projectId/${plural}/:reportId`,
    {
      config: { access: { project: 'admin' } },
      schema: {
        operationId: `manageSet${spec.operation}Status`,
        summary: `Resolve, ignore or reopen a ${spec.singular}`,
        tags,
        params: ReportParams,
        body: spec.statusBody ?? StatusBody,
        response: { 200: spec.full, ...errorResponses(400, 401, 403, 404, 413, 415) },
      },
    },
    async (request) => {
      const { projectId, reportId } = request.params as { projectId: string; reportId: string };
      const body = request.body as { status: ReportStatus };
      if (!(await spec.store.setStatus(db, projectId, reportId, body.status, body))) throw new NotFoundError();
      return spec.present((await spec.store.get(db, projectId, reportId))!);
    },
  );
}
