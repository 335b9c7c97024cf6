import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { TooManyRequestsError } from '../../kernel/errors.ts';
import { presentFullFeature } from './presenter.ts';
import { DESCRIPTION_LENGTH, TITLE_LENGTH } from './schemas.ts';
import { createFeature } from './service.ts';
import { FeatureOutput, ProjectIdInput, TypeInput } from './mcp-schemas.ts';
import { guarded, reachProject, ToolError, toolResult, type ToolContext } from '../../routing/mcp/tool-context.ts';

const input = z.object({
  projectId: ProjectIdInput,
  title: z
    .string({ error: `title is required: a string of ${TITLE_LENGTH.min} to ${TITLE_LENGTH.max} characters` })
    .min(TITLE_LENGTH.min, `title must be at least ${TITLE_LENGTH.min} characters`)
    .max(TITLE_LENGTH.max, `title must be at most ${TITLE_LENGTH.max} characters`)
    .describe(`Short summary, ${TITLE_LENGTH.min} to ${TITLE_LENGTH.max} characters`),
  description: z
    .string({
      error: `description is required: a string of ${DESCRIPTION_LENGTH.min} to ${DESCRIPTION_LENGTH.max} characters`,
    })
    .min(DESCRIPTION_LENGTH.min, `description must be at least ${DESCRIPTION_LENGTH.min} characters`)
    .max(DESCRIPTION_LENGTH.max, `description must be at most ${DESCRIPTION_LENGTH.max} characters`)
    .describe(`What is wanted or what goes wrong, ${DESCRIPTION_LENGTH.min} to ${DESCRIPTION_LENGTH.max} characters`),
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
        const row = await createFeature(
          ctx.db,
          {
            scope: { projectId: project.id, environment: ctx.principal.environment },
            platformProjectId: ctx.config.platformProjectId,
            limitedCaller: { db: ctx.db, callerId: ctx.principal.callerId },
          },
          { title: args.title, description: args.description, type: args.type, internal: args.internal },
        ).catch((error: unknown) => {
          // The limit's message already says what to do; the agent gets it as a tool error.
          throw error instanceof TooManyRequestsError ? new ToolError(error.message) : error;
        });
        const feature = presentFullFeature(row);
        const visibility = feature.internal ? 'internal (hidden from the public board)' : 'public';
        return toolResult(
          `Created ${feature.type} ${feature.id} with status ${feature.status}, ${visibility}.`,
          feature,
        );
      }),
  );
}
