/**
 * The reports resource's management routes: the triage routes of bugs and errors
 * (management-routes.ts), an error group's occurrence history, and an idea made from a bug report.
 * Kept apart from management-routes.ts, which other resources reuse (logs), because it uses the
 * features resource.
 */
import { errorResponses } from '../../http/common-schemas.ts';
import { NotFoundError } from '../../kernel/errors.ts';
import type { ManagementApp, ManagementDeps } from '../../routing/management/context.ts';
import { openFeatureForBug } from './bug-report.ts';
import { type HistoryRange, readHistory } from './store-history.ts';
import { BugFeature, ErrorHistory, HistoryQuery, ReportParams } from './management-schemas.ts';
import { KIND_ROUTES, triageRoutes } from './management-routes.ts';
import { errorAlertRoutes } from './alert-routes.ts';
import { errorFeedbackRoutes } from './feedback-routes.ts';
import { errorGroupRoutes } from './group-routes.ts';
import { errorGroupOf } from './store.ts';

export async function reportManagementRoutes(app: ManagementApp, deps: ManagementDeps): Promise<void> {
  for (const spec of KIND_ROUTES) triageRoutes(app, deps, spec);
  await errorGroupRoutes(app, deps);
  await errorAlertRoutes(app, deps);
  await errorFeedbackRoutes(app, deps);
  const { db, config } = deps;

  app.get(
    '/projects/:projectId/errors/:reportId/history',
    {
      config: { access: { project: 'member' } },
      schema: {
        operationId: 'manageErrorHistory',
        summary:
          "Occurrences of an error's group (its fingerprint across dedup records) over the last 24 hours by hour or 14 days by day, UTC, zero-filled",
        tags: ['reports'],
        params: ReportParams,
        querystring: HistoryQuery,
        response: { 200: ErrorHistory, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { projectId, reportId } = request.params as { projectId: string; reportId: string };
      const range = ((request.query as { range?: HistoryRange }).range ?? '24h') as HistoryRange;
      const group = await errorGroupOf(db, projectId, reportId);
      if (!group) throw new NotFoundError();
      // Records from before fingerprints were stored have no history.
      const fingerprint = group.fingerprint ?? '';
      const history = await readHistory(
        db,
        { projectId, environment: group.environment, fingerprint },
        range,
        new Date(),
      );
      return { range, ...history };
    },
  );

  app.post(
    '/projects/:projectId/bugs/:reportId/feature',
    {
      config: { access: { project: 'admin' } },
      schema: {
        operationId: 'manageCreateFeatureFromBug',
        summary:
          'Create an idea (a feature of type bug, in the inbox) from a bug report and link them both ways; a linked report answers its feature',
        tags: ['reports'],
        params: ReportParams,
        response: { 200: BugFeature, 201: BugFeature, ...errorResponses(401, 403, 404) },
      },
    },
    async (request, reply) => {
      const { projectId, reportId } = request.params as { projectId: string; reportId: string };
      const result = await openFeatureForBug(db, projectId, config.platformProjectId, reportId);
      if (!result) throw new NotFoundError();
      return reply.code(result.created ? 201 : 200).send(result);
    },
  );
}
