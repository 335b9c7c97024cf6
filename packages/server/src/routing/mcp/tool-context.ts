import type { FastifyBaseLogger } from 'fastify';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { consumeQuota } from '../../http/quota.ts';
import { HttpError } from '../../kernel/errors.ts';
import type { ProjectRow } from '../../resources/projects/index.ts';
import type { McpPrincipal } from './principal.ts';
import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { adminScope, isReadAction, type MCP_AREA_TOOLS, scopeOfAction } from './scopes.ts';

/** The project a tool works on: every tool takes one. */
export const ProjectIdInput = z
  .string()
  .min(1, 'projectId is required')
  .max(100, 'projectId must be at most 100 characters')
  .describe('The Signpost project to work on');

const AreaProjectId = z.string().min(1, 'projectId is required').max(100, 'projectId must be at most 100 characters');

/**
 * An ISO 8601 time. Checked with Date.parse rather than z.iso.datetime, whose 450-character
 * pattern would be repeated in tools/list for every such field.
 */
export const IsoTime = z
  .string()
  .max(40)
  .refine((value) => /^\d{4}-\d{2}-\d{2}T/.test(value) && !Number.isNaN(Date.parse(value)), {
    error: 'must be an ISO 8601 time such as 2026-11-28T10:00:00Z',
  });

export interface ToolContext {
  db: Database;
  config: Config;
  principal: McpPrincipal;
  log: FastifyBaseLogger;
  /**
   * The project row by id. Handed in by the MCP surface (`mcp/plugin.ts`, from resources/projects):
   * this folder sits below the resources and imports none of their code.
   */
  findProject(projectId: string): Promise<ProjectRow | undefined>;
}

/** A rejected call: the message goes to the agent as a tool error and says what to fix. */
export class ToolError extends Error {
  override name = 'ToolError';
}

/** A successful result: structured content plus the same data as text for older clients. */
export function toolResult<T extends Record<string, unknown>>(
  summary: string,
  structured: T,
): CallToolResult & { structuredContent: T } {
  return {
    content: [{ type: 'text', text: `${summary}\n\n${JSON.stringify(structured, null, 2)}` }],
    structuredContent: structured,
  };
}

/**
 * Runs a tool body. Tool errors pass through to the agent; anything else (a database fault)
 * is logged and reported without internals, as the REST API's 500 is.
 */
export async function guarded<T>(ctx: ToolContext, tool: string, body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (error) {
    if (error instanceof ToolError) throw error;
    // A rule of a shared service refused the input (400, 404, 409, 429): its message says why.
    if (error instanceof HttpError && error.statusCode < 500) {
      throw new ToolError(
        error.statusCode === 404 ? `Not found: ${tool} found no such item in this project.` : error.message,
      );
    }
    ctx.log.error({ err: error, tool }, 'MCP tool failed');
    throw new ToolError('Internal error: the call was not carried out. Try again later.');
  }
}

/**
 * The project a call names, if these credentials reach it. A project that does not exist and
 * one that exists but is out of reach give the same error. Counts the call against the
 * project's plan quota, as every protected REST request is.
 */
export async function reachProject(ctx: ToolContext, projectId: string): Promise<ProjectRow> {
  const project = projectId === ctx.principal.projectId ? await ctx.findProject(projectId) : undefined;
  if (!project) {
    const how = ctx.principal.kind === 'api-key' ? 'this API key belongs to' : 'this connection was granted';
    throw new ToolError(
      `Project "${projectId}" not found. Use a project these credentials reach: ${how} project "${ctx.principal.projectId}".`,
    );
  }
  const quota = await consumeQuota(ctx.db, project.id, project.monthly_quota);
  if (quota && !quota.allowed) {
    throw new ToolError(
      `Quota exceeded: project "${project.id}" used its monthly request quota. Try again in ${quota.resetSeconds} seconds.`,
    );
  }
  return project;
}

/** The MCP URI of an item, which resources/read answers and clients can attach. */
export const itemUri = (projectId: string, kind: 'ideas' | 'errors' | 'releases', id: string): string =>
  `signpost://projects/${encodeURIComponent(projectId)}/${kind}/${encodeURIComponent(id)}`;

/** A field an action needs; the refusal names the field and the action. */
export function required<T>(value: T | undefined, field: string, action: string): T {
  if (value === undefined || value === null || value === '') {
    throw new ToolError(`${field} is required for action ${action}.`);
  }
  return value;
}

/**
 * The scope check inside a tool, behind the HTTP one (auth.ts): a call that reached the tool
 * without the scope (a batch, an action the pre-check could not read) is still refused. A
 * publishable key never changes anything through an area tool.
 */
export function requireScope(ctx: ToolContext, scope: string, what: string, writes: boolean): void {
  if (!ctx.principal.scopes.has(scope)) {
    const who = ctx.principal.kind === 'api-key' ? 'This API key' : 'This access token';
    throw new ToolError(`${who} lacks the ${scope} scope, which ${what} needs.`);
  }
  if (writes && ctx.principal.publishable) {
    throw new ToolError(`Publishable keys cannot change anything through ${what}; use a secret API key.`);
  }
}

/**
 * An area tool: one MCP tool per area of the team's work (feedback, errors, …) whose `action`
 * says what to do. Few tools keep `tools/list` small; each action is a thin call of the service
 * the management API uses. New actions (error events, log lines, release health, team replies)
 * are new entries in `actions` and in scopes.ts, without changing the tool's shape.
 */
type AreaName = keyof typeof MCP_AREA_TOOLS;

/** What an action answers: one sentence for the agent and the structured content. */
export interface ActionResult {
  summary: string;
  data: Record<string, unknown>;
}

/** An action of an area tool that another resource supplies (src/mcp/server.ts hands it in). */
export type AreaAction = (
  args: Record<string, unknown>,
  project: ProjectRow,
  ctx: ToolContext,
) => Promise<ActionResult>;

export interface AreaTool<Shape extends z.ZodRawShape> {
  name: AreaName;
  title: string;
  description: string;
  /** The action's parameters besides projectId and action; all optional, each action checks its own. */
  params: Shape;
  actions: Record<
    string,
    (args: z.infer<z.ZodObject<Shape>>, project: ProjectRow, ctx: ToolContext) => Promise<ActionResult>
  >;
}

/** What every area tool answers: a list (items, total) or one item, plus fields of its own. */
const AREA_OUTPUT = z.looseObject({
  action: z.string(),
  items: z.array(z.unknown()).optional(),
  total: z.number().optional(),
  item: z.looseObject({}).optional(),
});

/**
 * Each area tool's input schema, made once per tool: a server is built for every stateless
 * request (mcp/plugin.ts), and making a zod object of some twenty fields for each of eight tools
 * per request was garbage that outlived the request's young generation under load.
 */
const areaInputs = new WeakMap<z.ZodRawShape, Map<string, z.ZodObject<z.ZodRawShape>>>();
function areaInputSchema(params: z.ZodRawShape, names: [string, ...string[]]): z.ZodObject<z.ZodRawShape> {
  let byActions = areaInputs.get(params);
  if (!byActions) {
    byActions = new Map();
    areaInputs.set(params, byActions);
  }
  const key = names.join();
  let input = byActions.get(key);
  if (!input) {
    input = z.object({
      // The server's instructions say what projectId is; the spec's tools keep its description.
      projectId: AreaProjectId,
      action: z.enum(names, { error: `action must be one of: ${names.join(', ')}` }),
      ...params,
    }) as unknown as z.ZodObject<z.ZodRawShape>;
    byActions.set(key, input);
  }
  return input;
}

export function registerAreaTool<Shape extends z.ZodRawShape>(
  server: McpServer,
  ctx: ToolContext,
  tool: AreaTool<Shape>,
): void {
  const names = Object.keys(tool.actions) as [string, ...string[]];
  const input = areaInputSchema(tool.params, names);
  const output = AREA_OUTPUT;
  const writes = names.some((name) => !isReadAction(tool.name, name));
  server.registerTool(
    tool.name,
    {
      title: tool.title,
      description: tool.description,
      inputSchema: input,
      outputSchema: output,
      annotations: { readOnlyHint: !writes, destructiveHint: false, openWorldHint: false },
    },
    // The SDK has checked the arguments against `input`.
    async (parsed: Record<string, unknown>) =>
      guarded(ctx, tool.name, async () => {
        const args = parsed as { projectId: string; action: string };
        const action = args.action;
        const reads = isReadAction(tool.name, action);
        requireScope(ctx, scopeOfAction(tool.name, action)!, `${tool.name} (action ${action})`, !reads);
        // Admin-only reads (a person's export) hand out personal data: never to a key embedded in a page.
        if (ctx.principal.publishable && adminScope(tool.name, action)) {
          throw new ToolError(`Publishable keys cannot use ${tool.name} (action ${action}); use a secret API key.`);
        }
        const project = await reachProject(ctx, args.projectId);
        const run = tool.actions[action]!;
        const { summary, data } = await run(parsed as z.infer<z.ZodObject<Shape>>, project, ctx);
        return toolResult(summary, { action, ...data });
      }),
  );
}
