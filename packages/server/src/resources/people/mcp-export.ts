/**
 * The MCP feedback tool's `export_person` action: everything held about one person, as the
 * management API's export answers it (person-export.ts). It needs the admin-only scope
 * people:export (src/routing/mcp/scopes.ts). src/mcp/server.ts hands it to the feedback tool, so that
 * the features resource does not import the people resource's export (which reads every resource).
 */
import { required, ToolError, type ActionResult, type ToolContext } from '../../routing/mcp/tool-context.ts';
import type { ProjectRow } from '../projects/index.ts';
import { personExport } from './person-export.ts';

export async function exportPersonAction(
  args: Record<string, unknown>,
  project: ProjectRow,
  ctx: ToolContext,
): Promise<ActionResult> {
  const personId = required(args['personId'] as string | undefined, 'personId', 'export_person');
  const data = await personExport(ctx.db, project.id, personId);
  if (!data) throw new ToolError(`Person "${personId}" not found in project "${project.id}".`);
  return { summary: `Everything held about person ${personId}.`, data: { item: data } };
}
