/**
 * The MCP tool `errors`: error groups as the team triages them, through what the management API
 * calls: the group list (listGroups, groupCountsByEnvironment), a group's 24 h history, its
 * status (changeGroupStatus), and group-service.ts for a group's events, one event with
 * source-mapped frames, merge and unmerge. An errorId is a group's id (what search lists) or the
 * id of one of its error records (the public API's answer): every group action takes either. A
 * record from before groups existed keeps the record's own reads and status (getReport,
 * readHistory, changeErrorStatus). The project's alert rules go through alert-rules.ts's use cases
 * (alerts: list; set_alert: create, or replace by ruleId, which mutes with `mute`: 1h, 24h, 7d,
 * forever, off; delete_alert), the rule checked with the management API's schema.
 */
import Value from 'typebox/value';
import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { registerAreaTool, itemUri, required, ToolError, type ToolContext } from '../../routing/mcp/tool-context.ts';
import type { ProjectRow } from '../projects/index.ts';
import { type AlertRuleBody, createRule, listRules, removeRule, replaceRule } from './alert-rules.ts';
import { RuleBody } from './alert-schemas.ts';
import { isMuted } from './alerts.ts';
import { presentError, presentErrorSummary } from './presenter.ts';
import { changeErrorStatus, changeGroupStatus } from './service.ts';
import { readGroupHistory, readHistory } from './store-history.ts';
import { ERROR_STATUSES, type ErrorStatus } from './store-triage.ts';
import { getReport } from './store.ts';
import {
  errorGroupIdOf,
  groupEventDetail,
  groupEventPage,
  mergeErrorGroups,
  unmergeErrorGroup,
} from './group-service.ts';
import { presentGroupSummary } from './group-presenter.ts';
import { decodeCursor, getGroup, groupCountsByEnvironment, listGroupEvents, listGroups } from './store-group-reads.ts';
import { familyOf } from './store-groups.ts';

type Row = Record<string, unknown>;

const params = {
  errorId: z.string().min(1).max(100).optional().describe('group or record id'),
  eventId: z.string().min(1).max(100).optional().describe('event: id, latest, oldest'),
  mergeIds: z.array(z.string().min(1).max(100)).min(1).max(50).optional(),
  cursor: z.string().max(300).optional(),
  query: z.string().max(200).optional().describe('search: words'),
  status: z.enum(ERROR_STATUSES).optional(),
  release: z.string().max(500).optional(),
  environment: z.string().max(100).optional().describe("search: SDK's"),
  sort: z.enum(['lastSeen', 'count', 'users']).optional(),
  limit: z.number().int().min(1).max(50).optional(),
  inNextRelease: z.boolean().optional().describe('resolve: as of the next release'),
  ruleId: z.string().min(1).max(100).optional(),
  rule: z
    .record(z.string(), z.unknown())
    .optional()
    .describe(
      '{name, kind: new_group|regression|spike, spikeEvents, spikeMinutes, sdkEnvironment, levels, recipients, mute:1h|24h|7d|forever|off}',
    ),
};
type Args = { [K in keyof typeof params]?: z.infer<(typeof params)[K]> };

const withUri = <T extends { id: string; projectId: string }>(item: T) => ({
  ...item,
  uri: itemUri(item.projectId, 'errors', item.id),
});

const notFound = (id: string, project: ProjectRow) =>
  new ToolError(`Error group "${id}" not found in project "${project.id}". Find ids with action search.`);

/**
 * A group of this project and key environment, by its id or one of its records' ids: its counts,
 * releases and status, its 24 h history and its latest event (stack, breadcrumbs, contexts, tags).
 * A record without a group answers the record with its own history.
 */
export async function readErrorGroup(ctx: ToolContext, project: ProjectRow, id: string) {
  const groupId = await errorGroupIdOf(ctx.db, project.id, ctx.principal.environment, id);
  if (groupId) {
    const group = (await getGroup(ctx.db, project.id, groupId))!;
    const family = await familyOf(ctx.db, groupId);
    const [history, events] = await Promise.all([
      readGroupHistory(ctx.db, family, '24h', new Date()),
      listGroupEvents(ctx.db, groupId, undefined, 1),
    ]);
    const latestEvent = events?.rows.length ? await groupEventDetail(ctx.db, project.id, groupId, 'latest') : null;
    return { ...withUri(presentGroupSummary(group)), history24h: history, latestEvent };
  }
  const row = await getReport<Row>(ctx.db, 'errors', project.id, id);
  if (!row || row['environment'] !== ctx.principal.environment) throw notFound(id, project);
  const history = await readHistory(
    ctx.db,
    { projectId: project.id, environment: ctx.principal.environment, fingerprint: String(row['fingerprint'] ?? '') },
    '24h',
    new Date(),
  );
  return { ...withUri(presentError(row)), history24h: history };
}

/** Resolves, ignores or reopens the group an errorId names (a record without a group: the record). */
async function setStatus(
  ctx: ToolContext,
  project: ProjectRow,
  args: Args,
  action: string,
  status: ErrorStatus,
  inNextRelease = false,
) {
  const id = required(args.errorId, 'errorId', action);
  const groupId = await errorGroupIdOf(ctx.db, project.id, ctx.principal.environment, id);
  if (groupId) {
    if (!(await changeGroupStatus(ctx.db, project.id, groupId, status, inNextRelease))) {
      const into = (await getGroup(ctx.db, project.id, groupId))?.merged_into;
      throw new ToolError(`Error group ${groupId} was merged into ${into ?? 'another group'}: change that group.`);
    }
    const item = await groupSummary(ctx, project, groupId);
    const release = item.resolvedInRelease ? ` as of the release after ${item.resolvedInRelease}` : '';
    return { summary: `Error group ${groupId} is now ${item.status}${release}.`, data: { item } };
  }
  await readErrorGroup(ctx, project, id);
  await changeErrorStatus(ctx.db, project.id, id, status, inNextRelease);
  const row = (await getReport<Row>(ctx.db, 'errors', project.id, id))!;
  const item = withUri(presentErrorSummary(row));
  const release = row['resolved_in_release'] ? ` as of the release after ${String(row['resolved_in_release'])}` : '';
  return { summary: `Error record ${id} is now ${item.status}${release}.`, data: { item } };
}

/** The group an errorId names in this key environment, or a tool error saying how to find one. */
async function groupIdOf(ctx: ToolContext, project: ProjectRow, args: Args, action: string): Promise<string> {
  const id = required(args.errorId, 'errorId', action);
  const groupId = await errorGroupIdOf(ctx.db, project.id, ctx.principal.environment, id);
  if (!groupId) throw notFound(id, project);
  return groupId;
}

async function groupSummary(ctx: ToolContext, project: ProjectRow, groupId: string) {
  const group = (await getGroup(ctx.db, project.id, groupId))!;
  return { ...presentGroupSummary(group), uri: itemUri(project.id, 'errors', group.id) };
}

/** The rule of set_alert, checked with the management API's body schema. */
function ruleBody(args: Args): AlertRuleBody {
  const rule = required(args.rule, 'rule', 'set_alert');
  if (!Value.Check(RuleBody, rule)) {
    const [first] = Value.Errors(RuleBody, rule);
    const where = first?.instancePath ? `rule${first.instancePath.replaceAll('/', '.')}` : 'rule';
    throw new ToolError(`Invalid ${where}: ${first?.message ?? 'not a rule'}.`);
  }
  return rule as unknown as AlertRuleBody;
}

export function registerErrorsTool(server: McpServer, ctx: ToolContext): void {
  registerAreaTool(server, ctx, {
    name: 'errors',
    title: 'Error groups',
    description:
      'App errors. search; get: stack, breadcrumbs, context, 24h history; events; event: one, source-mapped; resolve, ignore, reopen; merge mergeIds into errorId; unmerge; alerts, set_alert (ruleId: edit), delete_alert.',
    params,
    actions: {
      async search(args: Args, project) {
        const sort = args.sort ?? 'lastSeen';
        if (args.cursor !== undefined && !decodeCursor(args.cursor, sort)) {
          throw new ToolError('cursor is not a nextCursor of a search with this sort.');
        }
        const filter = {
          environment: ctx.principal.environment,
          status: args.status,
          release: args.release,
          q: args.query,
        };
        const [page, environments] = await Promise.all([
          listGroups(ctx.db, project.id, {
            ...filter,
            sdkEnvironment: args.environment,
            sort,
            cursor: args.cursor,
            limit: args.limit ?? 10,
          }),
          groupCountsByEnvironment(ctx.db, project.id, filter),
        ]);
        const total = environments
          .filter((counts) => args.environment === undefined || counts.environment === args.environment)
          .reduce((sum, counts) => sum + counts.groups, 0);
        const items = page.rows.map((row) => withUri(presentGroupSummary(row)));
        return {
          summary: `${items.length} of ${total} error groups, by ${sort}${page.nextCursor ? '; more with nextCursor' : ''}.`,
          data: { items, total, nextCursor: page.nextCursor },
        };
      },
      async get(args: Args, project) {
        const item = await readErrorGroup(ctx, project, required(args.errorId, 'errorId', 'get'));
        return { summary: `Error group ${item.id}: ${String(item.title)} (${String(item.status)}).`, data: { item } };
      },
      resolve: (args: Args, project) =>
        setStatus(ctx, project, args, 'resolve', 'resolved', args.inNextRelease === true),
      ignore: (args: Args, project) => setStatus(ctx, project, args, 'ignore', 'ignored'),
      reopen: (args: Args, project) => setStatus(ctx, project, args, 'reopen', 'open'),
      async events(args: Args, project) {
        const groupId = await groupIdOf(ctx, project, args, 'events');
        const page = await groupEventPage(ctx.db, project.id, groupId, args.cursor, args.limit ?? 10);
        return {
          summary: `${page.events.length} of ${page.kept} kept events of group ${groupId}.`,
          data: { items: page.events, total: page.kept, nextCursor: page.nextCursor },
        };
      },
      async event(args: Args, project) {
        const groupId = await groupIdOf(ctx, project, args, 'event');
        const item = await groupEventDetail(ctx.db, project.id, groupId, args.eventId ?? 'latest');
        return {
          summary: `Event ${item.eventId} of group ${groupId} (${item.position} of ${item.kept}).`,
          data: { item },
        };
      },
      async merge(args: Args, project) {
        const groupId = await groupIdOf(ctx, project, args, 'merge');
        const ids = required(args.mergeIds, 'mergeIds', 'merge');
        const sources = [];
        for (const id of ids) sources.push(await groupIdOf(ctx, project, { errorId: id }, 'merge'));
        await mergeErrorGroups(ctx.db, project.id, groupId, sources);
        return {
          summary: `Merged ${sources.length} group(s) into ${groupId}.`,
          data: { item: await groupSummary(ctx, project, groupId), mergedIds: sources },
        };
      },
      async unmerge(args: Args, project) {
        const groupId = await groupIdOf(ctx, project, args, 'unmerge');
        await unmergeErrorGroup(ctx.db, project.id, groupId);
        return {
          summary: `Group ${groupId} stands alone again.`,
          data: { item: await groupSummary(ctx, project, groupId) },
        };
      },
      async alerts(_args: Args, project) {
        const items = await listRules(ctx.db, project.id);
        return { summary: `${items.length} alert rules.`, data: { items, total: items.length } };
      },
      async set_alert(args: Args, project) {
        const body = ruleBody(args);
        const item = args.ruleId
          ? await replaceRule(ctx.db, project.id, args.ruleId, body)
          : await createRule(ctx.db, project.id, body);
        const state = !item.enabled ? ' (muted)' : isMuted(item, new Date()) ? ` (muted until ${item.mutedUntil})` : '';
        return {
          summary: `Alert rule ${item.id} "${item.name}" ${args.ruleId ? 'saved' : 'created'}${state}.`,
          data: { item },
        };
      },
      async delete_alert(args: Args, project) {
        const id = required(args.ruleId, 'ruleId', 'delete_alert');
        await removeRule(ctx.db, project.id, id);
        return { summary: `Alert rule ${id} deleted.`, data: { deleted: id } };
      },
    },
  });
}
