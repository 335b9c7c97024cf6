/**
 * The MCP tool `releases`: list, read and create releases through what the management API calls
 * (listReleases, getRelease, createRelease). Release health and what broke and shipped join as
 * fields of `get` when release health lands (wave 3, issue 33).
 */
import { z } from 'zod';
import semver from 'semver';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { registerAreaTool, itemUri, required, ToolError, type ToolContext } from '../../mcp/tools/context.ts';
import type { ProjectRow } from '../projects/index.ts';
import { presentRelease } from './presenter.ts';
import { createRelease } from './service.ts';
import { getRelease, listReleases, type ReleaseRow } from './store.ts';

const params = {
  version: z.string().min(1).max(100).optional().describe('get, create: SemVer such as 1.4.0'),
  title: z.string().max(200).optional().describe('create'),
  releaseNotes: z.string().max(50_000).optional().describe('create'),
  isBeta: z.boolean().optional().describe('create'),
  required: z.boolean().optional().describe('create: older clients must update'),
  gitCommit: z
    .string()
    .regex(/^[0-9a-fA-F]{7,40}$/, 'must be a commit hash')
    .optional()
    .describe('create'),
};
type Args = { [K in keyof typeof params]?: z.infer<(typeof params)[K]> };

const present = (row: ReleaseRow) => ({
  ...presentRelease(row),
  uri: itemUri(row.project_id, 'releases', row.version),
});

/** A release of the project, for action get and the release resource. */
export async function readRelease(ctx: ToolContext, project: ProjectRow, raw: string) {
  const version = semver.valid(raw);
  const row = version ? await getRelease(ctx.db, project.id, version) : undefined;
  if (!row) throw new ToolError(`Release "${raw}" not found in project "${project.id}". List them with action list.`);
  return present(row);
}

export function registerReleasesTool(server: McpServer, ctx: ToolContext): void {
  registerAreaTool(server, ctx, {
    name: 'releases',
    title: 'Releases',
    description:
      'App versions. list (highest first), get, create (new SemVer). list/get need releases:read, create releases:write.',
    params,
    actions: {
      async list(_args: Args, project) {
        const items = (await listReleases(ctx.db, project.id)).map(present);
        return { summary: `${items.length} releases.`, data: { items } };
      },
      async get(args: Args, project) {
        const item = await readRelease(ctx, project, required(args.version, 'version', 'get'));
        return { summary: `Release ${item.version}.`, data: { item } };
      },
      async create(args: Args, project) {
        const row = await createRelease(ctx.db, project.id, {
          version: required(args.version, 'version', 'create'),
          title: args.title,
          releaseNotes: args.releaseNotes,
          isBeta: args.isBeta,
          required: args.required,
          gitCommit: args.gitCommit,
        });
        return { summary: `Created release ${row.version}.`, data: { item: present(row) } };
      },
    },
  });
}
