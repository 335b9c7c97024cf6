import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { hitSlidingWindow } from '../../http/rate-limit.ts';
import { presentFullFeature } from './presenter.ts';
import { insertFeature } from './store.ts';
import { initialInternal, storedKind } from './visibility.ts';
import { FeatureOutput, ProjectIdInput, TypeInput } from './mcp-schemas.ts';
import { guarded, reachProject, ToolError, toolResult, type ToolContext } from '../../mcp/tools/context.ts';

/** The same limit as POST /features: 50 per 5 minutes per API key (or OAuth grant). */
const CREATE_LIMIT = { max: 50, windowMs: 5 * 60 * 1000 };

const input = z.object({
  projectId: ProjectIdInput,
  title: z
    .string({ error: 'title is required: a string of 4 to 120 characters' })
    .min(4, 'title must be at least 4 characters')
    .max(120, 'title must be at most 120 characters')
    .describe('Short summary, 4 to 120 characters'),
  description: z
    .string({ error: 'description is required: a string of 12 to 1000 characters' })
    .min(12, 'description must be at least 12 characters')
    .max(1000, 'description must be at most 1000 characters')
    .describe('What is wanted or what goes wrong, 12 to 1000 characters'),
  type: TypeInput.optional(),
  internal: z
    .boolean({ error: 'internal must be true or false' })
    .optional()
    .describe(
      "true hides the item from the public board. Omitted: internal for the platform's own project, public for every other project.",
    ),
});

export function registerCreateFeature(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    'create_feature',
    {
      title: 'Create a feature request or bug',
      description:
        'Creates a feature request (status open) or a bug (status new) on a Signpost project. Needs the features:write scope.',
      inputSchema: input,
      outputSchema: FeatureOutput,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    async (args) =>
      guarded(ctx, 'create_feature', async () => {
        const project = await reachProject(ctx, args.projectId);
        const limit = await hitSlidingWindow(
          ctx.db,
          `features:create:${ctx.principal.callerId}`,
          CREATE_LIMIT.max,
          CREATE_LIMIT.windowMs,
        );
        if (!limit.allowed) {
          throw new ToolError(
            `Rate limit exceeded: at most ${CREATE_LIMIT.max} features per 5 minutes. Try again in ${Math.max(1, limit.resetSeconds)} seconds.`,
          );
        }
        const row = await insertFeature(
          ctx.db,
          { projectId: project.id, environment: ctx.principal.environment },
          {
            ...storedKind(args.type),
            title: args.title,
            description: args.description,
            internal: initialInternal(args.internal, undefined, project.id, ctx.config.platformProjectId),
          },
        );
        const feature = presentFullFeature(row);
        const visibility = feature.internal ? 'internal (hidden from the public board)' : 'public';
        return toolResult(`Created ${feature.type} ${feature.id} with status ${feature.status}, ${visibility}.`, feature);
      }),
  );
}
