/**
 * The MCP tool `releases`: list, read and create releases through what the management API calls
 * (listReleases, getRelease, createRelease), a release's page (the release hub's releaseOverview:
 * health, what broke, what shipped, the change from the previous release) and resolving an idea,
 * bug or error group in a release (resolveInRelease).
 */
import { z } from 'zod';
import semver from 'semver';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { registerAreaTool, itemUri, required, ToolError, type ToolContext } from '../../routing/mcp/tool-context.ts';
import type { ProjectRow } from '../projects/index.ts';
import { presentRelease } from './presenter.ts';
import { createRelease } from './service.ts';
import { getRelease, listReleases, type ReleaseRow } from './store.ts';
import { presentResolution, releaseOverview, resolveInRelease } from '../release-hub/index.ts';
import { errorGroupIdOf } from '../reports/index.ts';

const params = {
  version: z.string().min(1).max(100).optional().describe('SemVer such as 1.4.0'),
  days: z.number().int().min(1).max(90).optional().describe('overview, default 14'),
  featureId: z.string().min(1).max(100).optional(),
  errorId: z.string().min(1).max(100).optional(),
  notify: z.boolean().optional().describe('resolve: false: no e-mail'),
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
      'App versions. list, get; overview: health, what broke and shipped, vs previous; create (SemVer); resolve featureId or errorId in version (default next).',
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
      async overview(args: Args, project) {
        const version = required(args.version, 'version', 'overview');
        const item = await releaseOverview(ctx.db, {
          projectId: project.id,
          version,
          environment: ctx.principal.environment,
          days: args.days ?? 14,
        });
        if (!item) throw new ToolError(`Release "${version}" is unknown to project "${project.id}".`);
        return { summary: `Release ${version}: health, what broke and what shipped.`, data: { item } };
      },
      async resolve(args: Args, project) {
        const input = { release: args.version, notify: args.notify };
        let row: Awaited<ReturnType<typeof resolveInRelease>>;
        if (args.errorId !== undefined) {
          const groupId = await errorGroupIdOf(ctx.db, project.id, ctx.principal.environment, args.errorId);
          if (!groupId) throw new ToolError(`Error group "${args.errorId}" not found in project "${project.id}".`);
          row = await resolveInRelease(ctx.db, project.id, 'error_group', groupId, input);
        } else {
          const featureId = required(args.featureId, 'featureId or errorId', 'resolve');
          row = await resolveInRelease(ctx.db, project.id, 'feature', featureId, input);
        }
        const item = presentResolution(row)!;
        const when = item.release
          ? `in ${item.release}`
          : `in the release after ${item.afterRelease ?? 'the newest one'}`;
        return { summary: `${item.itemId} is resolved ${when}.`, data: { item } };
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
