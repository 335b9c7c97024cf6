/**
 * The MCP tool `send_feedback`: an agent (or another MCP server) reports a problem it hit. It is
 * recorded as POST /bugs records a bug (recordBug), so repeats group by the bug rule: the same
 * title and message within an hour count an occurrence on one report instead of a new one.
 */
import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { guarded, ProjectIdInput, reachProject, toolResult, type ToolContext } from '../../routing/mcp/tool-context.ts';
import { recordBug } from './store.ts';

const ISSUE_TYPES = ['tool_error', 'unsupported_action', 'unexpected_result'] as const;
const Word = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[\w.:/@-]+$/, 'letters, digits and . _ : / @ - only');

const input = z.object({
  projectId: ProjectIdInput,
  issueType: z.enum(ISSUE_TYPES, { error: `issueType must be one of: ${ISSUE_TYPES.join(', ')}` }),
  tool: Word.describe('e.g. feedback.merge'),
  errorCode: Word.optional().describe('The error code, if any'),
  summary: z
    .string()
    .min(10, 'summary must be at least 10 characters')
    .max(2000)
    .describe('What you tried and what went wrong; no personal data or secrets'),
  clientName: Word.optional().describe('Your MCP client'),
  clientVersion: Word.optional(),
});

const output = z.object({
  reportId: z.string(),
  duplicate: z.boolean().describe('true: the same problem was reported within the hour; counted on that report'),
});

export function registerSendFeedback(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    'send_feedback',
    {
      title: 'Report a problem with these tools',
      description:
        'Report a problem you hit while using these tools or the app (a tool error, an action you needed that is missing, a surprising result). It becomes a bug report in the team inbox; repeats are grouped. Needs bugs:write.',
      inputSchema: input,
      outputSchema: output,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    async (args) =>
      guarded(ctx, 'send_feedback', async () => {
        const project = await reachProject(ctx, args.projectId);
        // A stateless server sees the client's initialize only on that request; arguments fill in.
        const known = server.server.getClientVersion();
        const client = {
          name: args.clientName ?? known?.name ?? 'unknown',
          version: args.clientVersion ?? known?.version ?? 'unknown',
        };
        const code = args.errorCode ? ` (${args.errorCode})` : '';
        const result = await recordBug(
          ctx.db,
          { projectId: project.id, environment: ctx.principal.environment },
          {
            title: `Agent feedback: ${args.issueType} in ${args.tool}${code}`.slice(0, 200),
            message: args.summary,
            bugType: `mcp_${args.issueType}`,
            severity: args.issueType === 'tool_error' ? 'high' : 'medium',
            metadata: {
              source: 'mcp',
              issueType: args.issueType,
              tool: args.tool,
              errorCode: args.errorCode ?? null,
              client,
            },
          },
          new Date(),
        );
        const what = result.duplicate ? 'Counted on the existing report' : 'Reported';
        return toolResult(`${what} ${result.id}. Thank you.`, { reportId: result.id, duplicate: result.duplicate });
      }),
  );
}
