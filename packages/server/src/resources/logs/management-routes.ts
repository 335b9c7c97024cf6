/**
 * Log groups as a team explores them: a filtered list with keyset (cursor) paging that stays fast
 * with 100,000 groups (capped counts, no sort: the indexes of migration 202611270100 hold the
 * order), a histogram by level over time, a group's full record and its triage status.
 */
import type { Static } from 'typebox';
import { errorResponses, clampLimit } from '../../http/common-schemas.ts';
import { isoOrNull } from '../../db/query.ts';
import { BadRequestError, NotFoundError } from '../../kernel/errors.ts';
import type { ManagementApp, ManagementDeps } from '../../routing/management/context.ts';
import { ProjectParams } from '../../http/management-schemas.ts';
import type { ReportStatus } from '../reports/index.ts';
import {
  LogGroup,
  LogGroupParams,
  LogHistogram,
  LogHistogramQuery,
  LogListQuery,
  LogPage,
  LogStatusBody,
  type LogSummary,
} from './management-schemas.ts';
import { presentLog, presentLogSummary } from './presenter.ts';
import { parseLevels } from './query-params.ts';
import { logHistogram } from './histogram.ts';
import { parseLogSearch } from './field-filter.ts';
import { groupAttributes } from './store-count-reads.ts';
import {
  cappedLogStatusCounts,
  COUNT_CAP,
  countLogGroups,
  getLogGroup,
  listLogPage,
  setLogGroupStatus,
  type LogCursor,
  type LogFilter,
} from './store.ts';

type Row = Record<string, unknown> & { id: string; last_seen_at: string };
type Query = Record<string, string | number | undefined>;

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export function encodeCursor(row: { last_seen_at: string; id: string }): string {
  return Buffer.from(`${row.last_seen_at}|${row.id}`, 'utf8').toString('base64url');
}

function decodeCursor(raw: string): LogCursor {
  const text = Buffer.from(raw, 'base64url').toString('utf8');
  const bar = text.indexOf('|');
  const lastSeenAt = text.slice(0, bar);
  const id = text.slice(bar + 1);
  if (bar < 0 || !ISO.test(lastSeenAt) || id.length === 0 || id.length > 100) {
    const message = 'must be the nextCursor of a previous page';
    throw new BadRequestError(`Invalid query parameter cursor: ${message}`, [{ field: 'cursor', message }]);
  }
  return { lastSeenAt, id };
}

function filterOf(query: Query): LogFilter {
  return {
    environment: query['environment'] as 'live' | 'test' | undefined,
    status: query['status'] as ReportStatus | undefined,
    levels: parseLevels(query['level'] as string | undefined),
    since: isoOrNull(query['since'] as string | undefined) ?? undefined,
    until: isoOrNull(query['until'] as string | undefined) ?? undefined,
    category: query['category'] as string | undefined,
    source: query['source'] as string | undefined,
    appVersion: query['appVersion'] as string | undefined,
    userId: query['userId'] as string | undefined,
    q: query['q'] as string | undefined,
  };
}

export async function logManagementRoutes(app: ManagementApp, { db }: ManagementDeps): Promise<void> {
  const tags = ['reports'];
  const attributionOf = async (groupId: string) => {
    const found = await groupAttributes(db, groupId, 50);
    return { sources: found.source, appVersions: found.app_version, users: found.user_id };
  };

  app.get(
    '/projects/:projectId/logs',
    {
      config: { access: { project: 'member' } },
      schema: {
        operationId: 'manageListLogGroups',
        summary:
          'List log groups with filters (level, status, environment, last seen, category, source, text), most recently seen first; page with `cursor`',
        tags,
        params: ProjectParams,
        querystring: LogListQuery,
        response: { 200: LogPage, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { projectId } = request.params as { projectId: string };
      const query = request.query as Query;
      const limit = clampLimit(query['limit'] as number | undefined, 50, 200);
      const offset = (query['offset'] as number | undefined) ?? 0;
      const cursorText = query['cursor'] as string | undefined;
      if (cursorText !== undefined && offset > 0) {
        const message = 'give cursor or offset, not both';
        throw new BadRequestError(`Invalid query parameter offset: ${message}`, [{ field: 'offset', message }]);
      }
      const filter = filterOf(query);
      const after = cursorText === undefined ? { offset } : { cursor: decodeCursor(cursorText) };
      const [page, total, counts] = await Promise.all([
        listLogPage<Row>(db, projectId, filter, limit, after),
        countLogGroups(db, projectId, filter),
        cappedLogStatusCounts(db, projectId, filter.environment),
      ]);
      const last = page.rows.at(-1);
      return {
        logs: page.rows.map((row) => presentLogSummary(row) as Static<typeof LogSummary>),
        total,
        totalCapped: total > COUNT_CAP,
        limit,
        offset,
        hasMore: page.hasMore,
        nextCursor: page.hasMore && last ? encodeCursor(last) : null,
        counts,
      };
    },
  );

  app.get(
    '/projects/:projectId/logs/histogram',
    {
      config: { access: { project: 'member' } },
      schema: {
        operationId: 'manageLogHistogram',
        summary:
          'Log lines per level over time (line time), in minute, hour or day buckets chosen from the range; the list filters apply',
        tags,
        params: ProjectParams,
        querystring: LogHistogramQuery,
        response: { 200: LogHistogram, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { projectId } = request.params as { projectId: string };
      const query = request.query as Query;
      const filter = filterOf(query);
      // The explorer's search box: field filters count lines, the text matches groups.
      const search = parseLogSearch(filter.q);
      return logHistogram(
        db,
        projectId,
        {
          environment: filter.environment,
          status: filter.status,
          levels: filter.levels,
          category: filter.category,
          source: filter.source,
          appVersion: filter.appVersion,
          userId: filter.userId,
          q: search.text,
          fields: search.fields,
        },
        filter.since,
        filter.until,
      );
    },
  );

  app.get(
    '/projects/:projectId/logs/:reportId',
    {
      config: { access: { project: 'member' } },
      schema: {
        operationId: 'manageGetLogGroup',
        summary: 'The full log group: occurrences, first and last seen, the last entry with its data',
        tags,
        params: LogGroupParams,
        response: { 200: LogGroup, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      const { projectId, reportId } = request.params as { projectId: string; reportId: string };
      const row = await getLogGroup<Row>(db, projectId, reportId);
      if (!row) throw new NotFoundError();
      return { ...presentLog(row), attribution: await attributionOf(reportId) } as Static<typeof LogGroup>;
    },
  );

  app.patch(
    '/projects/:projectId/logs/:reportId',
    {
      config: { access: { project: 'admin' } },
      schema: {
        operationId: 'manageSetLogGroupStatus',
        summary: 'Resolve, ignore or reopen a log group',
        tags,
        params: LogGroupParams,
        body: LogStatusBody,
        response: { 200: LogGroup, ...errorResponses(400, 401, 403, 404, 413, 415) },
      },
    },
    async (request) => {
      const { projectId, reportId } = request.params as { projectId: string; reportId: string };
      const { status } = request.body as { status: ReportStatus };
      if (!(await setLogGroupStatus(db, projectId, reportId, status))) throw new NotFoundError();
      const row = (await getLogGroup<Row>(db, projectId, reportId))!;
      return { ...presentLog(row), attribution: await attributionOf(reportId) } as Static<typeof LogGroup>;
    },
  );
}
