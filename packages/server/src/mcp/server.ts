import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
// The tools straight from their modules, not through the resources' mount.ts: this module is
// loaded with the first MCP request (plugin.ts), the mounts at start, and the tools bring zod.
import { registerFeatureTools } from '../resources/features/mcp-tools.ts';
import { registerTranslationTools } from '../resources/translations/mcp-tools.ts';
import type { ToolContext } from './tools/context.ts';

export const MCP_SERVER_NAME = 'signpost';

const INSTRUCTIONS = `Signpost is a product-feedback platform. These tools create and update feature requests and bugs, and read and write translation keys, of one Signpost project.
Every tool that takes a projectId needs the id of the project these credentials reach.
Scopes: create_feature and update_feature_status need features:write, list_translation_keys translations:read, upsert_translation_keys translations:write.`;

/** One MCP server per request (the transport is stateless), bound to the caller. */
export function buildMcpServer(ctx: ToolContext, version: string): McpServer {
  const server = new McpServer({ name: MCP_SERVER_NAME, title: 'Signpost', version }, { instructions: INSTRUCTIONS });
  registerFeatureTools(server, ctx);
  registerTranslationTools(server, ctx);
  return server;
}
