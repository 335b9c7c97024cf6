import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { AreaAction, ToolContext } from '../../routing/mcp/tool-context.ts';
import { registerCreateFeature } from './mcp-create-feature.ts';
import { registerUpdateFeatureStatus } from './mcp-update-feature-status.ts';
import { registerFeedbackTool } from './mcp-feedback.ts';

/** The resource's hosted MCP tools: create_feature, update_feature_status and feedback. */
export function registerFeatureTools(server: McpServer, ctx: ToolContext, exportPerson: AreaAction): void {
  registerCreateFeature(server, ctx);
  registerUpdateFeatureStatus(server, ctx);
  registerFeedbackTool(server, ctx, exportPerson);
}
