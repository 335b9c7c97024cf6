/**
 * Log lines as a team reads them (issue 32): the explorer's lines with filters (level, text,
 * fields, source, app version, user, group, line time) and keyset paging, a group's lines and
 * chart, the lines around one line, and the live tail. Every surface calls these same functions
 * (store-line-reads.ts, histogram.ts, live-tail.ts).
 */
import type { Static } from 'typebox';
import { errorResponses } from '../../http/common-schemas.ts';
import { isoOrNull } from '../../db/query.ts';
import { BadRequestError, NotFoundError } from '../../kernel/errors.ts';
import { requireProjectAccess } from '../../management/access.ts';
import type { ManagementApp, ManagementDeps } from '../../management/context.ts';
import { ProjectParams } from '../../http/management-schemas.ts';
import { parseFieldParam, parseLogSearch } from './field-filter.ts';
import { logHistogram } from './histogram.ts';
import {
  AroundPage,
  AroundQuery,
  GroupHistogramQuery,
  GroupLineQuery,
  LineListQuery,
  LinePage,
  LineParams,
  TailQuery,
} from './line-schemas.ts';
import { LiveTails } from './live-tail.ts';
import { LogGroupParams, LogHistogram } from './management-schemas.ts';
import { presentLine } from './presenter.ts';
import { parseLevels } from './query-params.ts';
import { getLogGroup } from './store.ts';
import { linesAround, listLinePage, type LineCursor, type LineFilter } from './store-line-reads.ts';

type Query = Record<string, string | number | undefined>;
type Row = Record<string, any> & { ts: string; id: string | number };

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export function encodeLineCursor(row: { ts: string; id: string | number }): string {
  return Buffer.from(`${row.ts}|${row.id}`, 'utf8').toString('base64url');
}

function decodeLineCursor(raw: string | undefined): LineCursor | undefined {
  if (raw === undefined) return undefined;
  const text = Buffer.from(raw, 'base64url').toString('utf8');
  const bar = text.indexOf('|');
  const ts = text.slice(0, bar);
  const id = text.slice(bar + 1);
  if (bar < 0 || !ISO.test(ts) || !/^\d{1,18}$/.test(id)) {
    const message = 'must be the nextCursor of a previous page';
    throw new BadRequestError(`Invalid query parameter cursor: ${message}`, [{ field: 'cursor', message }]);
  }
  return { ts, id };
}

/** The line filters of a query string (list, tail, histogram). */
export function lineFilterOf(query: Query): LineFilter {
  const search = parseLogSearch(query['q'] as string | undefined);
  const fields = [...search.fields, ...parseFieldParam(query['fields'] as string | undefined)];
  return {
    environment: query['environment'] as 'live' | 'test' | undefined,
    status: query['status'] as LineFilter['status'],
    levels: parseLevels(query['level'] as string | undefined),
    category: query['category'] as string | undefined,
    source: query['source'] as string | undefined,
    appVersion: query['appVersion'] as string | undefined,
    userId: query['userId'] as string | undefined,
    groupId: query['groupId'] as string | undefined,
    q: search.text,
    fields,
    from: isoOrNull(query['from'] as string | undefined) ?? undefined,
    to: isoOrNull(query['to'] as string | undefined) ?? undefined,
  };
}

export async function logLineRoutes(app: ManagementApp, { db, config }: ManagementDeps): Promise<void> {
  const tags = ['reports'];
  const tails = new LiveTails(db, config.logLines.tailMaxPerProject);
  app.addHook('preClose', async () => tails.closeAll());

  const page = async (projectId: string, filter: LineFilter, query: Query) => {
    const limit = (query['limit'] as number | undefined) ?? 100;
    const result = await listLinePage<Row>(db, projectId, filter, limit, decodeLineCursor(query['cursor'] as string));
    const last = result.rows.at(-1);
    return {
      lines: result.rows.map((row) => presentLine(row) as Static<typeof LinePage>['lines'][number]),
      hasMore: result.hasMore,
      // A search's window may end before its page fills: the next page searches on from there.
      nextCursor: result.next ? encodeLineCursor(result.next) : result.hasMore && last ? encodeLineCursor(last) : null,
    };
  };

  app.get(
    '/projects/:projectId/logs/lines',
    {
      schema: {
        operationId: 'manageListLogLines',
        summary:
          'List log lines, newest first (line time), with filters (level, text and data fields, source, app version, user, group, time range); page with `cursor` (role: member)',
        tags,
        params: ProjectParams,
        querystring: LineListQuery,
        response: { 200: LinePage, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { projectId } = request.params as { projectId: string };
      await requireProjectAccess(request, projectId, 'member');
      const query = request.query as Query;
      return page(projectId, lineFilterOf(query), query);
    },
  );

  app.get(
    '/projects/:projectId/logs/lines/:lineId/around',
    {
      schema: {
        operationId: 'manageLogLinesAround',
        summary: 'The lines of every log group within a minute (or `seconds`) either side of one line (role: member)',
        tags,
        params: LineParams,
        querystring: AroundQuery,
        response: { 200: AroundPage, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      const { projectId, lineId } = request.params as { projectId: string; lineId: string };
      await requireProjectAccess(request, projectId, 'member');
      const query = request.query as { seconds?: number; limit?: number };
      const found = await linesAround<Row>(db, projectId, lineId, (query.seconds ?? 60) * 1000, query.limit ?? 500);
      if (!found) throw new NotFoundError();
      return {
        line: presentLine(found.line) as Static<typeof AroundPage>['line'],
        lines: found.rows.map((row) => presentLine(row) as Static<typeof AroundPage>['line']),
      };
    },
  );

  app.get(
    '/projects/:projectId/logs/tail',
    {
      schema: {
        operationId: 'manageTailLogLines',
        summary:
          'Live tail: new log lines as server-sent events (`lines` events of line arrays, `skipped` when more came than one event holds, heartbeat comments), filtered like the line list (role: member)',
        tags,
        params: ProjectParams,
        querystring: TailQuery,
        response: { ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request, reply) => {
      const { projectId } = request.params as { projectId: string };
      await requireProjectAccess(request, projectId, 'member');
      await tails.serve(request, reply, projectId, lineFilterOf(request.query as Query));
    },
  );

  app.get(
    '/projects/:projectId/logs/:reportId/lines',
    {
      schema: {
        operationId: 'manageListLogGroupLines',
        summary: "A log group's lines, newest first, with their fields; page with `cursor` (role: member)",
        tags,
        params: LogGroupParams,
        querystring: GroupLineQuery,
        response: { 200: LinePage, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { projectId, reportId } = request.params as { projectId: string; reportId: string };
      await requireProjectAccess(request, projectId, 'member');
      if (!(await getLogGroup(db, projectId, reportId))) throw new NotFoundError();
      const query = request.query as Query;
      return page(projectId, { ...lineFilterOf({ from: query['from'], to: query['to'] }), groupId: reportId }, query);
    },
  );

  app.get(
    '/projects/:projectId/logs/:reportId/histogram',
    {
      schema: {
        operationId: 'manageLogGroupHistogram',
        summary: "A log group's lines per level over time (its chart), buckets as the explorer's (role: member)",
        tags,
        params: LogGroupParams,
        querystring: GroupHistogramQuery,
        response: { 200: LogHistogram, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { projectId, reportId } = request.params as { projectId: string; reportId: string };
      await requireProjectAccess(request, projectId, 'member');
      if (!(await getLogGroup(db, projectId, reportId))) throw new NotFoundError();
      const query = request.query as Query;
      return logHistogram(
        db,
        projectId,
        { groupId: reportId },
        isoOrNull(query['since'] as string | undefined) ?? undefined,
        isoOrNull(query['until'] as string | undefined) ?? undefined,
      );
    },
  );
}
