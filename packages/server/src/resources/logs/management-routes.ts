/**
 * Log groups as a team explores them: a filtered list with keyset (cursor) paging that stays fast
 * with 100,000 groups (capped counts, no sort: the indexes of migration 202611270100 hold the
 * order), a histogram by level over time, a group's full record and its triage status.
 */
import type { Static } from 'typebox';
import { errorResponses, clampLimit } from '../../http/common-schemas.ts';
import { isoOrNull } from '../../db/query.ts';
import { BadRequestError, NotFoundError } from '../../kernel/errors.ts';
import { requireProjectAccess } from '../../management/access.ts';
import type { ManagementApp, ManagementDeps } from '../../management/context.ts';
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
import { LOG_LEVELS } from './schemas.ts';
import {
  cappedLogStatusCounts,
  COUNT_CAP,
  countLogGroups,
  getLogGroup,
  listLogPage,
  logHistogramRows,
  setLogGroupStatus,
  type HistogramBucket,
  type LogCursor,
  type LogFilter,
} from './store.ts';

type Row = Record<string, unknown> & { id: string; last_seen_at: string };
type Query = Record<string, string | number | undefined>;

function parseLevels(raw: string | undefined): string[] | undefined {
  if (raw === undefined) return undefined;
  const wanted = [
    ...new Set(
      raw
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean),
    ),
  ];
  if (wanted.length === 0 || wanted.some((value) => !(LOG_LEVELS as readonly string[]).includes(value))) {
    const message = `must be a comma-separated list of: ${LOG_LEVELS.join(', ')}`;
    throw new BadRequestError(`Invalid query parameter level: ${message}`, [{ field: 'level', message }]);
  }
  return wanted;
}

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
    q: query['q'] as string | undefined,
  };
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const STEP: Record<HistogramBucket, number> = { minute: MINUTE, hour: HOUR, day: DAY };
const PREFIX: Record<HistogramBucket, number> = { minute: 16, hour: 13, day: 10 };
/** The longest range a histogram covers (731 day buckets). */
const MAX_RANGE = 731 * DAY;

/** Minutes up to 3 hours, hours up to 10 days, days beyond. */
export function bucketFor(rangeMs: number): HistogramBucket {
  if (rangeMs <= 3 * HOUR) return 'minute';
  if (rangeMs <= 10 * DAY) return 'hour';
  return 'day';
}

function zeroLevels(): Record<string, number> {
  return Object.fromEntries(LOG_LEVELS.map((level) => [level, 0]));
}

export async function logManagementRoutes(app: ManagementApp, { db }: ManagementDeps): Promise<void> {
  const tags = ['reports'];

  app.get(
    '/projects/:projectId/logs',
    {
      schema: {
        operationId: 'manageListLogGroups',
        summary:
          'List log groups with filters (level, status, environment, last seen, category, source, text), most recently seen first; page with `cursor` (role: member)',
        tags,
        params: ProjectParams,
        querystring: LogListQuery,
        response: { 200: LogPage, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { projectId } = request.params as { projectId: string };
      await requireProjectAccess(request, projectId, 'member');
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
      schema: {
        operationId: 'manageLogHistogram',
        summary:
          'Log groups per level over time (by last seen), in minute, hour or day buckets chosen from the range; the list filters apply (role: member)',
        tags,
        params: ProjectParams,
        querystring: LogHistogramQuery,
        response: { 200: LogHistogram, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { projectId } = request.params as { projectId: string };
      await requireProjectAccess(request, projectId, 'member');
      const query = request.query as Query;
      const filter = filterOf(query);
      const now = Date.now();
      let until = filter.until ? Date.parse(filter.until) : now;
      const since = filter.since ? Date.parse(filter.since) : until - DAY;
      if (!(since < until) || until - since > MAX_RANGE) {
        const message = 'must be before until, at most 731 days apart';
        throw new BadRequestError(`Invalid query parameter since: ${message}`, [{ field: 'since', message }]);
      }
      const bucket = bucketFor(until - since);
      const step = STEP[bucket];
      // Left out, the range ends with the bucket that holds now: whole buckets, and the same
      // answer for every request within it.
      if (!filter.until) until = Math.ceil((now + 1) / step) * step;
      const start = Math.floor(since / step) * step;
      const prefix = PREFIX[bucket];
      const rows = await logHistogramRows(
        db,
        projectId,
        { ...filter, since: new Date(start).toISOString(), until: new Date(until).toISOString() },
        bucket,
      );
      const buckets: { start: string; total: number; levels: Record<string, number> }[] = [];
      const byKey = new Map<string, (typeof buckets)[number]>();
      for (let at = start; at < until; at += step) {
        const iso = new Date(at).toISOString();
        const entry = { start: iso, total: 0, levels: zeroLevels() };
        buckets.push(entry);
        byKey.set(iso.slice(0, prefix), entry);
      }
      const totals = zeroLevels();
      for (const row of rows) {
        const entry = byKey.get(row.bucket);
        if (!entry || !(row.level in totals)) continue;
        entry.levels[row.level]! += row.n;
        entry.total += row.n;
        totals[row.level]! += row.n;
      }
      return {
        bucket,
        since: new Date(start).toISOString(),
        until: new Date(until).toISOString(),
        buckets,
        totals,
      };
    },
  );

  app.get(
    '/projects/:projectId/logs/:reportId',
    {
      schema: {
        operationId: 'manageGetLogGroup',
        summary: 'The full log group: occurrences, first and last seen, the last entry with its data (role: member)',
        tags,
        params: LogGroupParams,
        response: { 200: LogGroup, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      const { projectId, reportId } = request.params as { projectId: string; reportId: string };
      await requireProjectAccess(request, projectId, 'member');
      const row = await getLogGroup<Row>(db, projectId, reportId);
      if (!row) throw new NotFoundError();
      return presentLog(row) as Static<typeof LogGroup>;
    },
  );

  app.patch(
    '/projects/:projectId/logs/:reportId',
    {
      schema: {
        operationId: 'manageSetLogGroupStatus',
        summary: 'Resolve, ignore or reopen a log group (role: admin)',
        tags,
        params: LogGroupParams,
        body: LogStatusBody,
        response: { 200: LogGroup, ...errorResponses(400, 401, 403, 404, 413, 415) },
      },
    },
    async (request) => {
      const { projectId, reportId } = request.params as { projectId: string; reportId: string };
      await requireProjectAccess(request, projectId, 'admin');
      const { status } = request.body as { status: ReportStatus };
      if (!(await setLogGroupStatus(db, projectId, reportId, status))) throw new NotFoundError();
      return presentLog((await getLogGroup<Row>(db, projectId, reportId))!) as Static<typeof LogGroup>;
    },
  );
}
