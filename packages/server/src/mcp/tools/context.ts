import type { FastifyBaseLogger } from 'fastify';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { consumeQuota } from '../../http/quota.ts';
import { findProject, type ProjectRow } from '../../resources/projects/index.ts';
import type { McpPrincipal } from '../principal.ts';
import { z } from 'zod';

/** The project a tool works on: every tool takes one. */
export const ProjectIdInput = z
  .string()
  .min(1, 'projectId is required')
  .max(100, 'projectId must be at most 100 characters')
  .describe('The Signpost project to work on');

export interface ToolContext {
  db: Database;
  config: Config;
  principal: McpPrincipal;
  log: FastifyBaseLogger;
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
  const project = projectId === ctx.principal.projectId ? await findProject(ctx.db, projectId) : undefined;
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
