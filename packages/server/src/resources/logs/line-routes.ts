/**
 * Log lines as a team reads them (issue 32): the explorer's lines with filters (level, text,
 * fields, source, app version, user, group, line time) and keyset paging, a group's lines and
 * chart, the lines around one line, and the live tail. Every surface calls these same functions
 * (line-pages.ts, store-line-reads.ts, histogram.ts, live-tail.ts).
 */
import { errorResponses } from '../../http/common-schemas.ts';
import { isoOrNull } from '../../db/query.ts';
import { NotFoundError } from '../../kernel/errors.ts';
import type { ManagementApp, ManagementDeps } from '../../routing/management/context.ts';
import { ProjectParams } from '../../http/management-schemas.ts';
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
import { lineFilterOf, linePage, linesAroundLine, type Query } from './line-pages.ts';
import { getLogGroup } from './store.ts';
import type { LineFilter } from './store-line-reads.ts';

export async function logLineRoutes(app: ManagementApp, { db, config }: ManagementDeps): Promise<void> {
  const tags = ['reports'];
  const tails = new LiveTails(db, config.logLines.tailMaxPerProject);
  app.addHook('preClose', async () => tails.closeAll());

  const page = (projectId: string, filter: LineFilter, query: Query) => linePage(db, projectId, filter, query);

  app.get(
    '/projects/:projectId/logs/lines',
    {
      config: { access: { project: 'member' } },
      schema: {
        operationId: 'manageListLogLines',
        summary:
          'List log lines, newest first (line time), with filters (level, text and data fields, source, app version, user, group, time range); page with `cursor`',
        tags,
        params: ProjectParams,
        querystring: LineListQuery,
        response: { 200: LinePage, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { projectId } = request.params as { projectId: string };
      const query = request.query as Query;
      return page(projectId, lineFilterOf(query), query);
    },
  );

  app.get(
    '/projects/:projectId/logs/lines/:lineId/around',
    {
      config: { access: { project: 'member' } },
      schema: {
        operationId: 'manageLogLinesAround',
        summary: 'The lines of every log group within a minute (or `seconds`) either side of one line',
        tags,
        params: LineParams,
        querystring: AroundQuery,
        response: { 200: AroundPage, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      const { projectId, lineId } = request.params as { projectId: string; lineId: string };
      const query = request.query as { seconds?: number; limit?: number };
      const found = await linesAroundLine(db, projectId, lineId, query.seconds ?? 60, query.limit ?? 500);
      if (!found) throw new NotFoundError();
      return found;
    },
  );

  app.get(
    '/projects/:projectId/logs/tail',
    {
      config: { access: { project: 'member' } },
      schema: {
        operationId: 'manageTailLogLines',
        summary:
          'Live tail: new log lines as server-sent events (`lines` events of line arrays, `skipped` when more came than one event holds, heartbeat comments), filtered like the line list',
        tags,
        params: ProjectParams,
        querystring: TailQuery,
        response: { ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request, reply) => {
      const { projectId } = request.params as { projectId: string };
      await tails.serve(request, reply, projectId, lineFilterOf(request.query as Query));
    },
  );

  app.get(
    '/projects/:projectId/logs/:reportId/lines',
    {
      config: { access: { project: 'member' } },
      schema: {
        operationId: 'manageListLogGroupLines',
        summary: "A log group's lines, newest first, with their fields; page with `cursor`",
        tags,
        params: LogGroupParams,
        querystring: GroupLineQuery,
        response: { 200: LinePage, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { projectId, reportId } = request.params as { projectId: string; reportId: string };
      if (!(await getLogGroup(db, projectId, reportId))) throw new NotFoundError();
      const query = request.query as Query;
      return page(projectId, { ...lineFilterOf({ from: query['from'], to: query['to'] }), groupId: reportId }, query);
    },
  );

  app.get(
    '/projects/:projectId/logs/:reportId/histogram',
    {
      config: { access: { project: 'member' } },
      schema: {
        operationId: 'manageLogGroupHistogram',
        summary: "A log group's lines per level over time (its chart), buckets as the explorer's",
        tags,
        params: LogGroupParams,
        querystring: GroupHistogramQuery,
        response: { 200: LogHistogram, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { projectId, reportId } = request.params as { projectId: string; reportId: string };
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
