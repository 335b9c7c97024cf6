/**
 * MCP resources: an idea, an error group and a release, at the URIs the tools return
 * (signpost://projects/{projectId}/ideas/{id}, …/errors/{id}, …/releases/{version}), so a client
 * can attach one to a conversation. Each read needs the read scope of its area.
 */
import { type McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { readIdea } from '../resources/features/mcp-feedback.ts';
import { readRelease } from '../resources/releases/mcp-releases.ts';
import { readErrorGroup } from '../resources/reports/mcp-errors.ts';
import type { ProjectRow } from '../resources/projects/index.ts';
import { guarded, reachProject, requireScope, ToolError, type ToolContext } from '../routing/mcp/tool-context.ts';

const KINDS = [
  {
    kind: 'ideas',
    name: 'idea',
    title: 'An idea or bug with its comments',
    scope: 'feedback:read',
    read: (ctx: ToolContext, project: ProjectRow, id: string) => readIdea(ctx, project, id),
  },
  {
    kind: 'errors',
    name: 'error-group',
    title: 'An error group with its latest report',
    scope: 'errors:read',
    read: (ctx: ToolContext, project: ProjectRow, id: string) => readErrorGroup(ctx, project, id),
  },
  {
    kind: 'releases',
    name: 'release',
    title: 'A release',
    scope: 'releases:read',
    read: (ctx: ToolContext, project: ProjectRow, id: string) => readRelease(ctx, project, id),
  },
] as const;

const one = (value: string | string[] | undefined): string => decodeURIComponent(String(value ?? ''));

export function registerResources(server: McpServer, ctx: ToolContext): void {
  for (const spec of KINDS) {
    server.registerResource(
      spec.name,
      new ResourceTemplate(`signpost://projects/{projectId}/${spec.kind}/{id}`, { list: undefined }),
      { title: spec.title, mimeType: 'application/json' },
      async (uri, variables) => {
        try {
          const item = await guarded(ctx, `resource ${spec.name}`, async () => {
            requireScope(ctx, spec.scope, `reading ${spec.name} resources`, false);
            const project = await reachProject(ctx, one(variables['projectId']));
            return spec.read(ctx, project, one(variables['id']));
          });
          return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(item, null, 2) }] };
        } catch (error) {
          if (error instanceof ToolError) throw new McpError(ErrorCode.InvalidParams, error.message);
          throw error;
        }
      },
    );
  }
}
