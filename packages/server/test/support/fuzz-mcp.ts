/**
 * JSON-RPC requests for the fuzz test's /mcp part: tools/call of every tool the server lists,
 * each argument broken in turn (NUL, deep nesting, odd numbers, wrong types), and broken
 * envelopes around otherwise fine calls.
 */
import {
  badValuesFor,
  deepObject,
  fieldsOf,
  NUL_TEXT,
  Raw,
  sample,
  toJson,
  withValue,
  type Schema,
} from './fuzz-values.ts';

export interface McpTool {
  name: string;
  inputSchema: Schema;
}

export interface McpFuzzRequest {
  label: string;
  body: string;
}

function call(tool: string, args: unknown, id: unknown = 1): unknown {
  return { jsonrpc: '2.0', id, method: 'tools/call', params: { name: tool, arguments: args } };
}

/** The arguments a tool accepts, with the caller's project filled in. */
export function sampleArguments(tool: McpTool, projectId: string): Record<string, unknown> {
  const args = sample(tool.inputSchema, tool.inputSchema) as Record<string, unknown>;
  if ('projectId' in (tool.inputSchema['properties'] ?? {})) args['projectId'] = projectId;
  return args;
}

export function mcpRequests(tools: McpTool[], projectId: string, next?: () => number, count = 0): McpFuzzRequest[] {
  const requests: McpFuzzRequest[] = [];
  const add = (label: string, body: unknown) =>
    requests.push({ label, body: typeof body === 'string' ? body : toJson(body) });
  for (const tool of tools) {
    const args = sampleArguments(tool, projectId);
    add(`${tool.name} valid`, call(tool.name, args));
    const fields = fieldsOf(tool.inputSchema, tool.inputSchema);
    const mutations: { label: string; args: unknown }[] = [];
    for (const { path, schema } of fields) {
      for (const value of badValuesFor(schema)) {
        const shown = value instanceof Raw ? value.text.slice(0, 12) : JSON.stringify(value)?.slice(0, 12);
        mutations.push({ label: `${tool.name} ${path.join('.')}=${shown}`, args: withValue(args, path, value) });
      }
    }
    mutations.push({ label: `${tool.name} extra deep argument`, args: { ...args, metadata: deepObject(5000) } });
    mutations.push({ label: `${tool.name} NUL argument name`, args: { ...args, [NUL_TEXT]: 1 } });
    mutations.push({ label: `${tool.name} arguments deep`, args: deepObject(5000) });
    mutations.push({ label: `${tool.name} arguments array`, args: [args] });
    for (const mutation of mutations) add(mutation.label, call(tool.name, mutation.args));
    add(`${tool.name} id NUL`, call(tool.name, args, NUL_TEXT));
    add(`${tool.name} id 1e400`, call(tool.name, args, new Raw('1e400')));
    add(`${tool.name} id deep`, call(tool.name, args, deepObject(5000)));
    add(`${tool.name} params deep`, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: deepObject(5000) });
    add(`${tool.name} name NUL`, call(`${tool.name}\u0000`, args));
    add(`${tool.name} batch`, [call(tool.name, args, 1), call(tool.name, { ...args, title: NUL_TEXT }, 2)]);
    if (next) {
      for (let i = 0; i < count && mutations.length > 0; i++) {
        let combined: unknown = args;
        for (let picks = 1 + Math.floor(next() * 3); picks > 0; picks--) {
          const { path, schema } = fields[Math.floor(next() * fields.length)] ?? { path: ['x'], schema: {} };
          const values = badValuesFor(schema, true);
          combined = withValue(combined, path, values[Math.floor(next() * values.length)]);
        }
        add(`${tool.name} random ${i}`, call(tool.name, combined, i));
      }
    }
  }
  for (const text of [
    '',
    'null',
    '[]',
    '"x"',
    '1e400',
    deepObject(5000).text,
    `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":${deepObject(5000).text}}`,
  ]) {
    add(`raw ${text.slice(0, 16)}`, text);
  }
  add('method NUL', { jsonrpc: '2.0', id: 1, method: 'tools/\u0000list' });
  return requests;
}
