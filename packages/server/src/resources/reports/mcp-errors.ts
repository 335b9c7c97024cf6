/**
 * The MCP tool `errors`: error groups as the team triages them, through what the management API
 * calls (listReports, getReport, readHistory, changeErrorStatus). Error events, their list and
 * links to ideas join as new actions when those land (wave 3, issue 31).
 */
import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { registerAreaTool, itemUri, required, ToolError, type ToolContext } from '../../mcp/tools/context.ts';
import type { ProjectRow } from '../projects/index.ts';
import { presentError, presentErrorSummary } from './presenter.ts';
import { SEVERITIES } from './schemas.ts';
import { changeErrorStatus } from './service.ts';
import { readHistory } from './store-history.ts';
import { ERROR_STATUSES, type ErrorStatus } from './store-triage.ts';
import { getReport, listReports } from './store.ts';

type Row = Record<string, unknown>;

const params = {
  errorId: z.string().min(1).max(100).optional().describe('The error group (all but search)'),
  query: z.string().max(200).optional().describe('search: words'),
  status: z.enum(ERROR_STATUSES).optional(),
  release: z.string().max(500).optional().describe('search: app version of the last report'),
  severity: z.array(z.enum(SEVERITIES)).max(4).optional(),
  sort: z.enum(['lastSeen', 'firstSeen', 'occurrences']).optional().describe('search: default lastSeen'),
  limit: z.number().int().min(1).max(50).optional(),
  offset: z.number().int().min(0).optional(),
  inNextRelease: z
    .boolean()
    .optional()
    .describe('resolve: as of the next release; reports from later releases reopen it'),
};
type Args = { [K in keyof typeof params]?: z.infer<(typeof params)[K]> };

const withUri = <T extends { id: string; projectId: string }>(item: T) => ({
  ...item,
  uri: itemUri(item.projectId, 'errors', item.id),
});

/** A group of this project and key environment with its latest report and 24 h history. */
export async function readErrorGroup(ctx: ToolContext, project: ProjectRow, id: string) {
  const row = await getReport<Row>(ctx.db, 'errors', project.id, id);
  if (!row || row['environment'] !== ctx.principal.environment) {
    throw new ToolError(`Error group "${id}" not found in project "${project.id}". Find ids with action search.`);
  }
  const history = await readHistory(
    ctx.db,
    { projectId: project.id, environment: ctx.principal.environment, fingerprint: String(row['fingerprint'] ?? '') },
    '24h',
    new Date(),
  );
  return { ...withUri(presentError(row)), history24h: history };
}

async function setStatus(
  ctx: ToolContext,
  project: ProjectRow,
  args: Args,
  action: string,
  status: ErrorStatus,
  inNextRelease = false,
) {
  const id = required(args.errorId, 'errorId', action);
  await readErrorGroup(ctx, project, id);
  await changeErrorStatus(ctx.db, project.id, id, status, inNextRelease);
  const row = (await getReport<Row>(ctx.db, 'errors', project.id, id))!;
  const item = withUri(presentErrorSummary(row));
  const release = row['resolved_in_release'] ? ` as of the release after ${String(row['resolved_in_release'])}` : '';
  return { summary: `Error group ${id} is now ${item.status}${release}.`, data: { item } };
}

export function registerErrorsTool(server: McpServer, ctx: ToolContext): void {
  registerAreaTool(server, ctx, {
    name: 'errors',
    title: 'Error groups',
    description:
      'Debug errors the apps report. search: groups, newest first; get: with stack trace, breadcrumbs, context, 24 h history; resolve, ignore, reopen. search/get need errors:read, others errors:triage.',
    params,
    actions: {
      async search(args: Args, project) {
        const { rows, total } = await listReports<Row>(ctx.db, 'errors', project.id, {
          environment: ctx.principal.environment,
          status: args.status,
          release: args.release,
          grades: args.severity,
          q: args.query,
          sort: args.sort ?? 'lastSeen',
          limit: args.limit ?? 10,
          offset: args.offset ?? 0,
        });
        const items = rows.map((row) => withUri(presentErrorSummary(row)));
        return { summary: `${items.length} of ${total} error groups.`, data: { items, total } };
      },
      async get(args: Args, project) {
        const item = await readErrorGroup(ctx, project, required(args.errorId, 'errorId', 'get'));
        return { summary: `Error group ${item.id}: ${String(item.title)} (${item.status}).`, data: { item } };
      },
      resolve: (args: Args, project) =>
        setStatus(ctx, project, args, 'resolve', 'resolved', args.inNextRelease === true),
      ignore: (args: Args, project) => setStatus(ctx, project, args, 'ignore', 'ignored'),
      reopen: (args: Args, project) => setStatus(ctx, project, args, 'reopen', 'open'),
    },
  });
}
