/** Helpers for hosted-MCP tests: the official SDK client over HTTP, with an API key or OAuth. */
import { createServer } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startTestServer, type StartOptions, type TestServer } from './server.ts';

/** A port that was free a moment ago (the OAuth audience needs PUBLIC_URL before listen). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** A test server whose PUBLIC_URL is its real origin, so OAuth metadata and audiences line up. */
export async function startMcpTestServer(options: StartOptions = {}): Promise<TestServer> {
  for (let attempt = 0; ; attempt++) {
    const port = await freePort();
    try {
      return await startTestServer({
        ...options,
        env: { PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}`, ...options.env },
      });
    } catch (error) {
      if (attempt >= 3 || !/EADDRINUSE/.test(String(error))) throw error;
    }
  }
}

export interface Connected {
  client: Client;
  transport: StreamableHTTPClientTransport;
  close(): Promise<void>;
}

/** An SDK client connected to `<origin>/mcp` with a bearer credential or an OAuth provider. */
export async function connectMcp(
  origin: string,
  auth: { key: string } | { authProvider: OAuthClientProvider } | { headers: Record<string, string> },
): Promise<Connected> {
  const client = new Client({ name: 'signpost-tests', version: '1.0.0' });
  const url = new URL(`${origin}/mcp`);
  const transport =
    'authProvider' in auth
      ? new StreamableHTTPClientTransport(url, { authProvider: auth.authProvider })
      : new StreamableHTTPClientTransport(url, {
          requestInit: { headers: 'key' in auth ? { Authorization: `Bearer ${auth.key}` } : auth.headers },
        });
  await client.connect(transport);
  return { client, transport, close: () => client.close() };
}

/** Calls a tool; returns the result whether or not it is a tool error. */
export async function callTool(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

export function textOf(result: CallToolResult): string {
  return result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
}

/** A raw JSON-RPC POST to /mcp, for status codes and headers the SDK client hides. */
export async function postMcp(
  origin: string,
  body: unknown,
  headers: Record<string, string> = {},
  rawBody?: string,
): Promise<Response> {
  return fetch(`${origin}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
      ...headers,
    },
    body: rawBody ?? JSON.stringify(body),
  });
}
