/**
 * The input rules of the REST APIs (no U+0000, free-form values at most 32 levels deep) for
 * /mcp, checked on the JSON-RPC body before the SDK or a tool sees it. A tool call with a bad
 * argument gets a tool error naming the argument, as the tools answer any other bad argument;
 * anything else bad in the message is a JSON-RPC "Invalid params" error.
 */
import { findInputProblem } from '../http/input-guard.ts';

/** Each tool argument counts as its own free-form value, named by the argument's name. */
const FREE_FORM = {};
const MESSAGE = {
  properties: {
    params: {
      properties: { arguments: { properties: {}, additionalProperties: FREE_FORM } },
      additionalProperties: FREE_FORM,
    },
  },
  additionalProperties: FREE_FORM,
};
const ARGUMENTS_PREFIX = 'params.arguments.';

export interface McpRefusal {
  status: number;
  body: unknown;
}

export function refuseBadMcpInput(body: unknown): McpRefusal | undefined {
  const messages = Array.isArray(body) ? body : [body];
  for (const message of messages) {
    const problem = findInputProblem(message, MESSAGE);
    if (!problem) continue;
    const { id, method, params } = (message ?? {}) as { id?: unknown; method?: unknown; params?: { name?: unknown } };
    const replyId = typeof id === 'string' || typeof id === 'number' ? id : null;
    if (
      !Array.isArray(body) &&
      method === 'tools/call' &&
      replyId !== null &&
      problem.field.startsWith(ARGUMENTS_PREFIX)
    ) {
      const argument = problem.field.slice(ARGUMENTS_PREFIX.length);
      const text = `Invalid arguments for tool ${String(params?.name)}: ${argument} ${problem.message}`;
      return {
        status: 200,
        body: { jsonrpc: '2.0', id: replyId, result: { content: [{ type: 'text', text }], isError: true } },
      };
    }
    return {
      status: 400,
      body: {
        jsonrpc: '2.0',
        id: replyId,
        error: {
          code: -32602,
          message: `Invalid params: ${problem.field} ${problem.message}`,
          data: { details: [problem] },
        },
      },
    };
  }
  return undefined;
}
