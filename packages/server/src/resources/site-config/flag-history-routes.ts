/**
 * A flag's change history in the management API (issue 33): who changed it, when, in which key
 * environment, from what to what, and the project's error rate before and after each change.
 * The CLI's `signpost flags history` and the dashboard's history panel read it.
 */
import { errorResponses } from '../../http/common-schemas.ts';
import { NotFoundError } from '../../kernel/errors.ts';
import { requireProjectAccess } from '../../management/access.ts';
import type { ManagementApp, ManagementDeps } from '../../management/context.ts';
import { errorRatesAround } from '../reports/index.ts';
import { FlagHistory, FlagHistoryQuery } from './flag-history-schemas.ts';
import { presentFlagChange } from './presenter-flag-change.ts';
import { FlagParams } from './schemas.ts';
import { getFlag } from './store.ts';
import { listFlagChanges } from './store-flag-changes.ts';

export async function flagHistoryRoutes(app: ManagementApp, { db }: ManagementDeps): Promise<void> {
  app.get(
    '/projects/:projectId/site-config/flags/:flagKey/history',
    {
      schema: {
        operationId: 'manageFlagHistory',
        summary:
          "A flag's changes, newest first, by cursor: who, when, key environment, old and new value, and the error rate before and after (role: member)",
        description:
          'Every create, change and delete through any surface (dashboard, API, CLI, MCP). A deleted flag keeps its history. errorRate counts error events per hour of the key environment changed (live when both).',
        tags: ['site configuration'],
        params: FlagParams,
        querystring: FlagHistoryQuery,
        response: { 200: FlagHistory, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { projectId, flagKey } = request.params;
      await requireProjectAccess(request, projectId, 'member');
      const { cursor, limit } = request.query;
      const page = await listFlagChanges(db, projectId, flagKey, cursor, limit ?? 25);
      // A flag with no change recorded (made before history was kept) answers an empty page.
      if (page.rows.length === 0 && cursor === undefined && !(await getFlag(db, projectId, flagKey)))
        throw new NotFoundError();
      const now = new Date();
      // One read per key environment for the whole page.
      const environmentOf = (environment: string | null) => (environment === 'test' ? 'test' : 'live');
      const rates = new Map<string, Awaited<ReturnType<typeof errorRatesAround>>[number]>();
      for (const environment of ['live', 'test'] as const) {
        const rows = page.rows.filter((row) => environmentOf(row.environment) === environment);
        const found = await errorRatesAround(
          db,
          projectId,
          environment,
          rows.map((row) => row.created_at),
          now,
        );
        for (const [i, row] of rows.entries()) rates.set(row.id, found[i]!);
      }
      return {
        changes: page.rows.map((row) =>
          presentFlagChange(row, { environment: environmentOf(row.environment), ...rates.get(row.id)! }),
        ),
        nextCursor: page.nextCursor,
      };
    },
  );
}
