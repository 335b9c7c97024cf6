/**
 * The hosted MCP server (POST /mcp, Streamable HTTP, stateless, JSON answers) as an agent uses it:
 * a `tools/call` of the `logs` tool searching the log explorer's groups (100,000 by default, the
 * issue-37 soak's 3,000,000 with BENCH_LOG_GROUPS), with a live API key holding `logs:read`. Each
 * request builds its McpServer and transport, checks the call's scopes and runs the same use case
 * as the management API's log list (a page and a capped count).
 */
import { MCP_LOGS_SEARCH } from './scenario-ids.ts';
import { expectStatus, fail, type Scenario } from './scenario-kit.ts';

export function mcpScenarios(mcpKey: string, logsProjectId: string): Scenario[] {
  const headers = {
    Authorization: `Bearer ${mcpKey}`,
    'Content-Type': 'application/json',
    Accept: 'application/json, text/event-stream',
  };
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'logs', arguments: { projectId: logsProjectId, action: 'search', query: 'checkout', limit: 10 } },
  });
  return [
    {
      id: MCP_LOGS_SEARCH,
      label: 'MCP tools/call logs search q=checkout (10 groups)',
      request: { method: 'POST', path: '/mcp', headers, body },
      check: async (origin) => {
        const answer = (await expectStatus(
          await fetch(`${origin}/mcp`, { method: 'POST', headers, body }),
          200,
          'MCP logs search',
        )) as { result?: { isError?: boolean; content?: { text: string }[] } };
        const result = answer.result;
        if (!result || result.isError) fail(`MCP logs search: ${JSON.stringify(answer).slice(0, 300)}`);
        const text = result.content?.[0]?.text ?? '';
        if (!/^10 of \d+ log groups/.test(text)) fail(`MCP logs search: ${text.slice(0, 200)}`);
      },
    },
  ];
}
