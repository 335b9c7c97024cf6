import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
// The tools straight from their modules, not through the resources' mount.ts: this module is
// loaded with the first MCP request (plugin.ts), the mounts at start, and the tools bring zod.
import { registerFeatureTools } from '../resources/features/mcp-tools.ts';
import { registerTranslationTools } from '../resources/translations/mcp-tools.ts';
import { registerReportTools } from '../resources/reports/mcp-tools.ts';
import { registerLogsTool } from '../resources/logs/mcp-logs.ts';
import { registerChangelogTool } from '../resources/changelog/mcp-changelog.ts';
import { registerReleasesTool } from '../resources/releases/mcp-releases.ts';
import { registerSiteConfigTool } from '../resources/site-config/mcp-site-config.ts';
import { registerAuditTool } from '../resources/audit/mcp-audit.ts';
import { exportPersonAction } from '../resources/people/mcp-export.ts';
import { registerResources } from './resources.ts';
import type { ToolContext } from '../routing/mcp/tool-context.ts';
import { MCP_AREA_TOOLS } from '../routing/mcp/scopes.ts';

export const MCP_SERVER_NAME = 'signpost';

const INSTRUCTIONS = `Signpost is a product-feedback and project-operations platform. These tools do a team member's work on one Signpost project: every tool takes the projectId these credentials reach.
Area tools take an action (each tool's description lists them): feedback (ideas and bugs), errors, logs, changelog, releases, site_config, translations_status, audit.
Also: create_feature, update_feature_status, list_translation_keys, upsert_translation_keys, and send_feedback to report a problem with these tools.
Items come with a uri (signpost://projects/{projectId}/ideas|errors|releases/{id}), readable as a resource.
Reading needs the area's read scope (feedback:read, errors:read, logs:read, changelog:read, releases:read, config:read, translations:read); changing needs its write scope (feedback:write, errors:triage, changelog:write, releases:write, config:write, translations:write; features:write for create_feature and update_feature_status; bugs:write for send_feedback). Admins only: people:export, audit:read. A refusal names the missing scope.`;

/**
 * The SDK's JSON Schema validator (for answers to elicitation, which these tools never ask for),
 * made once: by default each McpServer builds an Ajv instance of its own, 4 % of the CPU of a
 * stateless tools/call under load (a profile of the loop-delay bench's MCP scenario).
 */
const jsonSchemaValidator = new AjvJsonSchemaValidator();

/** One MCP server per request (the transport is stateless), bound to the caller. */
export function buildMcpServer(ctx: ToolContext, version: string): McpServer {
  const server = new McpServer(
    { name: MCP_SERVER_NAME, title: 'Signpost', version },
    { instructions: INSTRUCTIONS, jsonSchemaValidator },
  );
  registerFeatureTools(server, ctx, exportPersonAction);
  registerTranslationTools(server, ctx);
  registerReportTools(server, ctx);
  registerLogsTool(server, ctx);
  registerChangelogTool(server, ctx);
  registerReleasesTool(server, ctx);
  registerSiteConfigTool(server, ctx);
  registerAuditTool(server, ctx);
  registerResources(server, ctx);
  compactToolList(server);
  return server;
}

const SAFE_INTEGER_BOUNDS = new Set([Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER]);

const isEmptyObject = (value: unknown): boolean =>
  !!value && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0;

/** Length and count bounds: the area tools check them and a refusal names the bound (see below). */
const AREA_UNLISTED = new Set(['maxLength', 'minLength', 'maxItems', 'minItems']);

/**
 * A JSON Schema without what says nothing to a client: `$schema`, integer bounds that are the
 * number type's own, empty `properties` and `additionalProperties` (allowing anything, as absent ones do).
 * For the area tools (`area`), also without length and count bounds and without `type` beside an
 * `enum` (which says it): the server still checks every bound and its refusal says which one was
 * crossed ("must be at most 200 characters"), so an agent learns it when it matters. That keeps
 * tools/list within about 5,000 tokens with every action listed (docs/mcp.md).
 */
function compactSchema(value: unknown, area = false): unknown {
  if (Array.isArray(value)) return value.map((inner) => compactSchema(inner, area));
  if (!value || typeof value !== 'object') return value;
  const result: Record<string, unknown> = {};
  const hasEnum = Object.hasOwn(value, 'enum');
  for (const [key, inner] of Object.entries(value)) {
    if (key === '$schema') continue;
    if ((key === 'maximum' || key === 'minimum') && SAFE_INTEGER_BOUNDS.has(inner as number)) continue;
    // An empty schema allows anything, as an absent one does.
    if ((key === 'additionalProperties' || key === 'properties') && isEmptyObject(inner)) continue;
    if (area && (AREA_UNLISTED.has(key) || (key === 'type' && hasEnum))) continue;
    result[key] = compactSchema(inner, area);
  }
  return result;
}

/**
 * tools/list as the SDK builds it, with compacted schemas: about 1,500 characters less of an
 * agent's context. The SDK keeps its handlers in a private map; the tools/list size test
 * notices if that changes.
 */
function compactToolList(server: McpServer): void {
  type Handler = (request: unknown, extra: unknown) => Promise<{ tools: Record<string, unknown>[] }>;
  const handlers = (server.server as unknown as { _requestHandlers?: Map<string, Handler> })._requestHandlers;
  const list = handlers?.get('tools/list');
  if (!handlers || !list) return;
  handlers.set('tools/list', async (request, extra) => {
    const result = await list(request, extra);
    return {
      ...result,
      // Tasks are not supported: `forbidden` is also what an absent taskSupport means.
      tools: result.tools.map(({ execution, ...tool }) => ({
        ...tool,
        ...(execution && (execution as { taskSupport?: string }).taskSupport !== 'forbidden' ? { execution } : {}),
        inputSchema: compactSchema(tool['inputSchema'], Object.hasOwn(MCP_AREA_TOOLS, tool['name'] as string)),
        ...(tool['outputSchema'] ? { outputSchema: compactSchema(tool['outputSchema']) } : {}),
      })),
    };
  });
}
