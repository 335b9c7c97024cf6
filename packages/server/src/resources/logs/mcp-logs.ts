/**
 * The MCP tool `logs`: log groups as the management API lists and reads them (listLogPage,
 * countLogGroups, getLogGroup). Log lines join as actions when they land (wave 3, issue 32).
 */
import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { IsoTime, registerAreaTool, required, ToolError, type ToolContext } from '../../mcp/tools/context.ts';
import { presentLog, presentLogSummary } from './presenter.ts';
import { LOG_LEVELS } from './schemas.ts';
import { countLogGroups, getLogGroup, listLogPage, type LogFilter } from './store.ts';

type Row = Record<string, unknown> & { id: string; last_seen_at: string };

const params = {
  logId: z.string().min(1).max(100).optional().describe('get'),
  query: z.string().max(200).optional().describe('search: words'),
  level: z.array(z.enum(LOG_LEVELS)).max(5).optional(),
  since: IsoTime.optional().describe('search: last seen at or after'),
  until: IsoTime.optional().describe('search: last seen before'),
  category: z.string().max(200).optional(),
  source: z.string().max(200).optional(),
  limit: z.number().int().min(1).max(50).optional(),
  offset: z.number().int().min(0).optional(),
};
type Args = { [K in keyof typeof params]?: z.infer<(typeof params)[K]> };

export function registerLogsTool(server: McpServer, ctx: ToolContext): void {
  registerAreaTool(server, ctx, {
    name: 'logs',
    title: 'Log groups',
    description:
      'Logs the apps send, e.g. around an error. search: groups by level, text, category, source, time (last seen), newest first; get: with its last entry. Needs logs:read.',
    params,
    actions: {
      async search(args: Args, project) {
        const filter: LogFilter = {
          environment: ctx.principal.environment,
          levels: args.level,
          since: args.since ? new Date(args.since).toISOString() : undefined,
          until: args.until ? new Date(args.until).toISOString() : undefined,
          category: args.category,
          source: args.source,
          q: args.query,
        };
        const [page, total] = await Promise.all([
          listLogPage<Row>(ctx.db, project.id, filter, args.limit ?? 10, { offset: args.offset ?? 0 }),
          countLogGroups(ctx.db, project.id, filter),
        ]);
        const items = page.rows.map(presentLogSummary);
        return { summary: `${items.length} of ${total} log groups.`, data: { items, total } };
      },
      async get(args: Args, project) {
        const id = required(args.logId, 'logId', 'get');
        const row = await getLogGroup<Row>(ctx.db, project.id, id);
        if (!row || row['environment'] !== ctx.principal.environment) {
          throw new ToolError(`Log group "${id}" not found in project "${project.id}". Find ids with action search.`);
        }
        const item = presentLog(row);
        return { summary: `Log group ${id}: ${String(item.message)}.`, data: { item } };
      },
    },
  });
}
