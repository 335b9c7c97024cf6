/**
 * The MCP tool `logs`: log groups as the management API lists and reads them (listLogPage,
 * countLogGroups, getLogGroup), and log lines as its line routes page them (line-pages.ts: a
 * group's lines or a search with field filters, the lines around one line).
 */
import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { IsoTime, registerAreaTool, required, ToolError, type ToolContext } from '../../routing/mcp/tool-context.ts';
import { presentLog, presentLogSummary } from './presenter.ts';
import { LOG_LEVELS } from './schemas.ts';
import { countLogGroups, getLogGroup, listLogPage, type LogFilter } from './store.ts';
import { lineFilterOf, linePage, linesAroundLine } from './line-pages.ts';

type Row = Record<string, unknown> & { id: string; last_seen_at: string };

const params = {
  logId: z.string().min(1).max(100).optional().describe('get, lines'),
  query: z.string().max(200).optional(),
  fields: z.string().max(500).optional().describe('lines: data.key = value, data.key = prefix*, has:data.key'),
  lineId: z
    .string()
    .regex(/^\d{1,18}$/, 'must be a line id from lines')
    .optional()
    .describe('around'),
  seconds: z.number().int().min(1).max(3600).optional().describe('around'),
  cursor: z.string().max(300).optional(),
  level: z.array(z.enum(LOG_LEVELS)).max(5).optional(),
  since: IsoTime.optional(),
  until: IsoTime.optional(),
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
      'App logs. search groups (since/until); get: with last entry; lines: newest first, of logId or all, field filters; around: lines near lineId.',
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
      async lines(args: Args, project) {
        if (args.logId !== undefined) {
          const group = await getLogGroup<Row>(ctx.db, project.id, args.logId);
          if (!group || group['environment'] !== ctx.principal.environment) {
            throw new ToolError(`Log group "${args.logId}" not found in project "${project.id}".`);
          }
        }
        const filter = lineFilterOf({
          environment: ctx.principal.environment,
          q: args.query,
          fields: args.fields,
          level: args.level?.join(','),
          category: args.category,
          source: args.source,
          from: args.since,
          to: args.until,
          groupId: args.logId,
        });
        const page = await linePage(ctx.db, project.id, filter, { limit: args.limit ?? 20, cursor: args.cursor });
        // A search reads a window of lines a call: an empty page with more to read is not "none".
        const searchedOn =
          page.lines.length === 0 && page.hasMore
            ? 'No match among the lines searched so far; older lines remain: call again with nextCursor.'
            : undefined;
        return {
          summary: searchedOn ?? `${page.lines.length} log lines${page.hasMore ? ', more with nextCursor' : ''}.`,
          data: { items: page.lines, nextCursor: page.nextCursor },
        };
      },
      async around(args: Args, project) {
        const lineId = required(args.lineId, 'lineId', 'around');
        const found = await linesAroundLine(ctx.db, project.id, lineId, args.seconds ?? 60, args.limit ?? 50);
        if (!found || found.line.environment !== ctx.principal.environment) {
          throw new ToolError(`Log line "${lineId}" not found in project "${project.id}". Find ids with action lines.`);
        }
        return {
          summary: `${found.lines.length} lines within ${args.seconds ?? 60} s of line ${lineId}.`,
          data: { item: found.line, items: found.lines },
        };
      },
    },
  });
}
