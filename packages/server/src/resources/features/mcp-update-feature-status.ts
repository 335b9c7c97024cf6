import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { presentFullFeature } from './presenter.ts';
import { PUBLISHABLE_PATCH_REFUSAL } from './schemas.ts';
import { findFeature, updateFeature } from './store.ts';
import { FeatureOutput, StatusInput } from './mcp-schemas.ts';
import { guarded, reachProject, ToolError, toolResult, type ToolContext } from '../../routing/mcp/tool-context.ts';

const input = z.object({
  featureId: z
    .string({ error: 'featureId is required' })
    .min(1, 'featureId is required')
    .max(100, 'featureId must be at most 100 characters')
    .describe('Id of the feature or bug, as create_feature returned it'),
  status: StatusInput,
  internal: z
    .boolean({ error: 'internal must be true or false' })
    .optional()
    .describe('false shows the item on the public board again, true hides it, omitted leaves visibility unchanged'),
  developerNotes: z
    .string({ error: 'developerNotes must be a string' })
    .max(10000, 'developerNotes must be at most 10000 characters')
    .optional()
    .describe('Notes for the team, never shown publicly; replaces earlier notes'),
});

export function registerUpdateFeatureStatus(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    'update_feature_status',
    {
      title: 'Update the status of a feature',
      description:
        'Sets the status of a feature or bug (internal ones included), and optionally its visibility and developer notes. Needs the features:write scope.',
      inputSchema: input,
      outputSchema: FeatureOutput,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    async (args) =>
      guarded(ctx, 'update_feature_status', async () => {
        if (ctx.principal.publishable) throw new ToolError(PUBLISHABLE_PATCH_REFUSAL);
        const scope = { projectId: ctx.principal.projectId, environment: ctx.principal.environment };
        const notFound = () =>
          new ToolError(
            `Feature "${args.featureId}" not found in project "${scope.projectId}". Use an id that create_feature returned for this project.`,
          );
        const existing = await findFeature(ctx.db, scope, args.featureId);
        if (!existing) throw notFound();
        await reachProject(ctx, existing.project_id);
        const updated = await updateFeature(ctx.db, scope, existing.id, {
          status: args.status,
          internal: args.internal,
          developerNotes: args.developerNotes,
        });
        // Deleted meanwhile: the same answer as for a feature that was never there.
        if (!updated) throw notFound();
        const feature = presentFullFeature(updated);
        const visibility = feature.internal ? 'internal' : 'public';
        return toolResult(`Feature ${feature.id} is now ${feature.status} and ${visibility}.`, feature);
      }),
  );
}
