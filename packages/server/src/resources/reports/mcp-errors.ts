/**
 * The MCP tool `errors`: error groups as the team triages them, through what the management API
 * calls (listReports, getReport, readHistory, changeErrorStatus; group-service.ts for a group's
 * events, one event with source-mapped frames, merge and unmerge). An errorId is an error's id from
 * search or its groupId: the group actions take either. The project's alert rules go
 * through alert-rules.ts's use cases (alerts: list; set_alert: create, or replace by ruleId, which
 * mutes with enabled false; delete_alert), the rule checked with the management API's schema.
 */
import Value from 'typebox/value';
import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { registerAreaTool, itemUri, required, ToolError, type ToolContext } from '../../mcp/tools/context.ts';
import type { ProjectRow } from '../projects/index.ts';
import { type AlertRuleBody, createRule, listRules, removeRule, replaceRule } from './alert-rules.ts';
import { RuleBody } from './alert-schemas.ts';
import { presentError, presentErrorSummary } from './presenter.ts';
import { SEVERITIES } from './schemas.ts';
import { changeErrorStatus } from './service.ts';
import { readHistory } from './store-history.ts';
import { ERROR_STATUSES, type ErrorStatus } from './store-triage.ts';
import { getReport, listReports } from './store.ts';
import {
  errorGroupIdOf,
  groupEventDetail,
  groupEventPage,
  mergeErrorGroups,
  unmergeErrorGroup,
} from './group-service.ts';
import { presentGroupSummary } from './group-presenter.ts';
import { getGroup } from './store-group-reads.ts';

type Row = Record<string, unknown>;

const params = {
  errorId: z.string().min(1).max(100).optional().describe('error id or groupId'),
  eventId: z.string().min(1).max(100).optional().describe('event: id, latest, oldest'),
  mergeIds: z.array(z.string().min(1).max(100)).min(1).max(50).optional(),
  cursor: z.string().max(300).optional(),
  query: z.string().max(200).optional().describe('search: words'),
  status: z.enum(ERROR_STATUSES).optional(),
  release: z.string().max(500).optional().describe('search'),
  severity: z.array(z.enum(SEVERITIES)).max(4).optional(),
  sort: z.enum(['lastSeen', 'firstSeen', 'occurrences']).optional().describe('search: default lastSeen'),
  limit: z.number().int().min(1).max(50).optional(),
  offset: z.number().int().min(0).optional(),
  inNextRelease: z.boolean().optional().describe('resolve: as of the next release'),
  ruleId: z.string().min(1).max(100).optional(),
  rule: z
    .record(z.string(), z.unknown())
    .optional()
    .describe(
      '{name, kind: new_group|regression|spike, spikeEvents, spikeMinutes, sdkEnvironment, levels, recipients, enabled}',
    ),
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

/** The group an errorId names in this key environment, or a tool error saying how to find one. */
async function groupIdOf(ctx: ToolContext, project: ProjectRow, args: Args, action: string): Promise<string> {
  const id = required(args.errorId, 'errorId', action);
  const groupId = await errorGroupIdOf(ctx.db, project.id, ctx.principal.environment, id);
  if (!groupId) {
    throw new ToolError(`Error group "${id}" not found in project "${project.id}". Find ids with action search.`);
  }
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
      'Debug app errors. search groups; get: stack, breadcrumbs, context, 24 h history; events; event: one, source-mapped; resolve, ignore, reopen; merge mergeIds into errorId; unmerge; alerts, set_alert (ruleId: edit), delete_alert.',
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
        const items = rows.map((row) => ({
          ...withUri(presentErrorSummary(row)),
          groupId: (row['group_id'] as string | null) ?? null,
        }));
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
        const state = item.enabled ? '' : ' (muted)';
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
