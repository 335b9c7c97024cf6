/**
 * A flag's change history in the management API (issue 33): who changed it, when, in which key
 * environment, from what to what, and the project's error rate before and after each change.
 * The CLI's `signpost flags history` and the dashboard's history panel read it.
 */
import { errorResponses } from '../../http/common-schemas.ts';
import { NotFoundError } from '../../kernel/errors.ts';
import type { ManagementApp, ManagementDeps } from '../../routing/management/context.ts';
import { flagHistory } from './flag-history.ts';
import { FlagHistory, FlagHistoryQuery } from './flag-history-schemas.ts';
import { FlagParams } from './schemas.ts';

export async function flagHistoryRoutes(app: ManagementApp, { db }: ManagementDeps): Promise<void> {
  app.get(
    '/projects/:projectId/site-config/flags/:flagKey/history',
    {
      config: { access: { project: 'member' } },
      schema: {
        operationId: 'manageFlagHistory',
        summary:
          "A flag's changes, newest first, by cursor: who, when, key environment, old and new value, and the error rate before and after",
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
      const { cursor, limit } = request.query;
      const page = await flagHistory(db, projectId, flagKey, cursor, limit ?? 25);
      if (!page) throw new NotFoundError();
      return page;
    },
  );
}
