/**
 * The MCP tool `changelog`: entries as the management API lists, writes and publishes them
 * (listEntries, getEntry, createEntry, editEntry, publishEntry).
 */
import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { registerAreaTool, required, ToolError, type ToolContext } from '../../routing/mcp/tool-context.ts';
import type { ProjectRow } from '../projects/index.ts';
import { presentManagedEntry } from './presenter.ts';
import { getEntry, linkedFeaturesOf, listEntries } from './read-model.ts';
import { createEntry, editEntry, publishEntry } from './service.ts';

const params = {
  entryId: z.string().min(1).max(100).optional().describe('The entry (all but list, draft)'),
  summary: z.string().min(1).max(200).optional().describe('One line'),
  description: z.string().max(50_000).optional().describe('HTML'),
  featureId: z.string().min(1).max(100).optional().describe('The idea it ships'),
  statusKey: z.enum(['new', 'improved', 'fixed']).optional().describe('Without featureId'),
  state: z.enum(['draft', 'scheduled', 'published']).optional(),
  limit: z.number().int().min(1).max(50).optional(),
  offset: z.number().int().min(0).optional(),
};
type Args = { [K in keyof typeof params]?: z.infer<(typeof params)[K]> };

async function entry(ctx: ToolContext, project: ProjectRow, id: string) {
  const row = await getEntry(ctx.db, project.id, id);
  if (!row)
    throw new ToolError(`Changelog entry "${id}" not found in project "${project.id}". List them with action list.`);
  const links = await linkedFeaturesOf(ctx.db, [row.id]);
  return presentManagedEntry(row, links.get(row.id));
}

async function publishing(ctx: ToolContext, project: ProjectRow, args: Args, action: string, published: boolean) {
  const id = required(args.entryId, 'entryId', action);
  if (!(await publishEntry(ctx.db, project.id, id, published))) await entry(ctx, project, id);
  const item = await entry(ctx, project, id);
  return { summary: `Entry ${id} is ${item.state}.`, data: { item } };
}

export function registerChangelogTool(server: McpServer, ctx: ToolContext): void {
  registerAreaTool(server, ctx, {
    name: 'changelog',
    title: 'Changelog',
    description:
      'The public changelog. list (drafts too), get, draft (with featureId: its followers e-mailed on publish), edit, publish, unpublish.',
    params,
    actions: {
      async list(args: Args, project) {
        const { rows, total } = await listEntries(ctx.db, project.id, {
          state: args.state,
          limit: args.limit ?? 10,
          offset: args.offset ?? 0,
        });
        const links = await linkedFeaturesOf(
          ctx.db,
          rows.map((row) => row.id),
        );
        const items = rows.map((row) => presentManagedEntry(row, links.get(row.id)));
        return { summary: `${items.length} of ${total} entries.`, data: { items, total } };
      },
      async get(args: Args, project) {
        const item = await entry(ctx, project, required(args.entryId, 'entryId', 'get'));
        return { summary: `Entry ${item.id} (${item.state}).`, data: { item } };
      },
      async draft(args: Args, project) {
        const id = await createEntry(ctx.db, project.id, {
          summary: required(args.summary, 'summary', 'draft'),
          description: args.description,
          featureId: args.featureId,
          statusKey: args.statusKey,
        });
        const item = await entry(ctx, project, id);
        return { summary: `Drafted entry ${id}; publish it with action publish.`, data: { item } };
      },
      async edit(args: Args, project) {
        const id = required(args.entryId, 'entryId', 'edit');
        const changes = {
          summary: args.summary,
          description: args.description,
          featureId: args.featureId,
          statusKey: args.statusKey,
        };
        if (Object.values(changes).every((value) => value === undefined)) {
          throw new ToolError('edit needs at least one of summary, description, featureId, statusKey.');
        }
        if (!(await editEntry(ctx.db, project.id, id, changes))) await entry(ctx, project, id);
        return { summary: `Edited entry ${id}.`, data: { item: await entry(ctx, project, id) } };
      },
      publish: (args: Args, project) => publishing(ctx, project, args, 'publish', true),
      unpublish: (args: Args, project) => publishing(ctx, project, args, 'unpublish', false),
    },
  });
}
