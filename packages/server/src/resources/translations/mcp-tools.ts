/** The translation tools of the hosted MCP server, in the order clients list them. */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ToolContext } from '../../routing/mcp/tool-context.ts';
import { registerListTranslationKeys } from './mcp-list-keys.ts';
import { registerUpsertTranslationKeys } from './mcp-upsert-keys.ts';
import { registerTranslationStatusTool } from './mcp-status.ts';

export function registerTranslationTools(server: McpServer, ctx: ToolContext): void {
  registerListTranslationKeys(server, ctx);
  registerUpsertTranslationKeys(server, ctx);
  registerTranslationStatusTool(server, ctx);
}
