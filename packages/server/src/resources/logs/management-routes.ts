/** Log groups as a team triages them: the reports' triage routes, over log_groups. */
import { Type } from 'typebox';
import type { ManagementApp, ManagementDeps } from '../../management/context.ts';
import { triageRoutes } from '../reports/index.ts';
import { LogGroup, LogSummary } from './management-schemas.ts';
import { presentLog, presentLogSummary } from './presenter.ts';
import { LOG_LEVELS } from './schemas.ts';
import { getLogGroup, listLogGroups, logGroupStatusCounts, setLogGroupStatus } from './store.ts';

type Row = Record<string, unknown>;

export async function logManagementRoutes(app: ManagementApp, deps: ManagementDeps): Promise<void> {
  triageRoutes(app, deps, {
    kind: 'logs',
    store: {
      list: (db, projectId, filter) => listLogGroups<Row>(db, projectId, filter),
      get: (db, projectId, id) => getLogGroup<Row>(db, projectId, id),
      setStatus: setLogGroupStatus,
      counts: logGroupStatusCounts,
    },
    singular: 'log group',
    operation: 'LogGroup',
    gradeName: 'level',
    grades: LOG_LEVELS,
    summary: LogSummary,
    full: LogGroup,
    presentSummary: presentLogSummary,
    present: presentLog,
    extraQuery: {
      category: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
      source: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    },
  });
}
