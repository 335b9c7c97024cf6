/** The reports resource's hosted MCP tools: errors and send_feedback. */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ToolContext } from '../../routing/mcp/tool-context.ts';
import { registerErrorsTool } from './mcp-errors.ts';
import { registerSendFeedback } from './mcp-send-feedback.ts';

export function registerReportTools(server: McpServer, ctx: ToolContext): void {
  registerErrorsTool(server, ctx);
  registerSendFeedback(server, ctx);
}
