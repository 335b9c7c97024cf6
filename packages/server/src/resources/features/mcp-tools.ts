import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ToolContext } from '../../mcp/tools/context.ts';
import { registerCreateFeature } from './mcp-create-feature.ts';
import { registerUpdateFeatureStatus } from './mcp-update-feature-status.ts';

/** The resource's hosted MCP tools: create_feature and update_feature_status. */
export function registerFeatureTools(server: McpServer, ctx: ToolContext): void {
  registerCreateFeature(server, ctx);
  registerUpdateFeatureStatus(server, ctx);
}
