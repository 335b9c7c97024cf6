/**
 * The hosted MCP server at /mcp: Streamable HTTP in stateless mode. Every POST gets a fresh
 * McpServer and transport bound to the caller, so any server process behind a load balancer
 * can answer any request; nothing lives in memory between requests.
 */
import { readFileSync } from 'node:fs';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { authenticateMcp, checkToolScopes, type AccessTokenVerifier } from './auth.ts';
import { protectedResourceMetadata, resourceMetadataUrl } from './metadata.ts';
import { refuseBadMcpInput } from './input-guard.ts';
import type { McpPrincipal } from '../routing/mcp/principal.ts';
import { findProject } from '../resources/projects/index.ts';
import { type Actor, runAs } from '../kernel/actor.ts';
import { readOffThreadHook } from '../db/read-context.ts';

export const MCP_PATH = '/mcp';
/** Upserts of 200 keys with several locales exceed the API's 1 MiB body limit. */
const MCP_BODY_LIMIT = 8 * 1024 * 1024;

const VERSION = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

/**
 * The MCP SDK, the tools and their zod schemas, loaded with the first MCP request: about 30 MB
 * that a server whose clients never speak MCP need not hold.
 */
let runtime: Promise<McpRuntime> | undefined;
interface McpRuntime {
  buildMcpServer: typeof import('./server.ts').buildMcpServer;
  Transport: typeof import('@modelcontextprotocol/sdk/server/streamableHttp.js').StreamableHTTPServerTransport;
}
function loadRuntime(): Promise<McpRuntime> {
  runtime ??= Promise.all([import('./server.ts'), import('@modelcontextprotocol/sdk/server/streamableHttp.js')]).then(
    ([server, transport]) => ({
      buildMcpServer: server.buildMcpServer,
      Transport: transport.StreamableHTTPServerTransport,
    }),
  );
  return runtime;
}

export interface McpDeps {
  db: Database;
  config: Config;
  /** Verifies OAuth access tokens; without it only API keys are accepted. */
  tokens?: AccessTokenVerifier;
}

/**
 * Browser-based MCP clients call from other origins. Credentials travel in the Authorization
 * header, never in cookies, so any origin may call.
 */
export const MCP_CORS_HEADERS: Record<string, string> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, POST, DELETE, OPTIONS',
  'Access-Control-Allow-Headers':
    'Authorization, X-API-Key, Content-Type, Accept, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID, X-Request-Id',
  'Access-Control-Expose-Headers': 'Mcp-Session-Id, Mcp-Protocol-Version, WWW-Authenticate, X-Request-Id',
  'Access-Control-Max-Age': '86400',
};

export async function mcpRoutes(app: FastifyInstance, { db, config, tokens }: McpDeps): Promise<void> {
  app.addHook('onRequest', async (_request, reply) => {
    reply.headers(MCP_CORS_HEADERS);
  });
  // The tools read as the management API does (lists, searches and counts over a project's
  // groups and lines), so, as there, every read runs off the event loop where the database
  // allows (db/read-context.ts). On the event loop, a logs search's capped count over 100,000
  // groups held it 4–6 ms a call: 12 MCP calls at once took the loop-delay soak's p99 from 18 to 49 ms.
  app.addHook('onRequest', readOffThreadHook);

  // RFC 9728: the metadata of the /mcp resource, at its path-suffixed and at the root location.
  for (const path of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']) {
    app.get(path, { schema: { hide: true } }, async () => protectedResourceMetadata(config));
    app.options(path, { schema: { hide: true } }, async (_request, reply) => reply.code(204).send());
  }

  app.options(MCP_PATH, { schema: { hide: true } }, async (_request, reply) => reply.code(204).send());

  // Stateless: no standalone SSE stream (GET) and no session to end (DELETE).
  const notAllowed = async (_request: unknown, reply: FastifyReply) =>
    reply
      .code(405)
      .header('Allow', 'POST, OPTIONS')
      .send({
        jsonrpc: '2.0',
        error: { code: -32000, message: 'Method not allowed: this MCP server is stateless; send requests with POST' },
        id: null,
      });
  app.get(MCP_PATH, { schema: { hide: true } }, notAllowed);
  app.delete(MCP_PATH, { schema: { hide: true } }, notAllowed);

  app.post(
    MCP_PATH,
    { schema: { hide: true }, bodyLimit: MCP_BODY_LIMIT, config: { guardsOwnBody: true } },
    async (request, reply) => {
      const metadataUrl = resourceMetadataUrl(config);
      const principal = await authenticateMcp(request, db, tokens, metadataUrl);
      checkToolScopes(request.body, principal, metadataUrl);
      const refusal = refuseBadMcpInput(request.body);
      if (refusal)
        return reply.code(refusal.status).header('content-type', 'application/json').send(JSON.stringify(refusal.body));

      const { buildMcpServer, Transport } = await loadRuntime();
      // From here the SDK transport writes the response to the raw socket.
      reply.hijack();
      const raw = reply.raw;
      for (const [name, value] of Object.entries(reply.getHeaders())) {
        if (value !== undefined) raw.setHeader(name, value);
      }
      raw.setHeader('x-request-id', request.id);
      const server = buildMcpServer(
        { db, config, principal, log: request.log, findProject: (projectId) => findProject(db, projectId) },
        VERSION,
      );
      const transport = new Transport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      raw.on('close', () => {
        void transport.close();
        void server.close();
      });
      try {
        await server.connect(transport);
        // Tools' writes are recorded in the audit log as this key or grant (kernel/actor.ts).
        await runAs(mcpActor(principal), () => transport.handleRequest(request.raw, raw, request.body));
      } catch (error) {
        request.log.error({ err: error }, 'MCP request failed');
        if (!raw.headersSent) {
          raw.writeHead(500, { 'content-type': 'application/json' });
          raw.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal error' }, id: null }));
        }
      }
    },
  );
}

function mcpActor(principal: McpPrincipal): Actor {
  return {
    type: principal.kind === 'api-key' ? 'api_key' : 'oauth',
    id: principal.callerId,
    label: principal.callerId,
    via: 'mcp',
  };
}
