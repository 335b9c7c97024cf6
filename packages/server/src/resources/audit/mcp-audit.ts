/**
 * The MCP tool `audit`: the project's audit log (its own entries and its team's), as the
 * management API pages it (audit-page.ts). Admins only: it needs `audit:read`, which only the
 * consent page's "Read and write" (the admin role) or an API key given it grants.
 */
import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { IsoTime, registerAreaTool, type ToolContext } from '../../routing/mcp/tool-context.ts';
import type { ProjectRow } from '../projects/index.ts';
import { auditPageOf } from './audit-page.ts';

const params = {
  actor: z.string().min(1).max(320).optional().describe('id or e-mail'),
  auditAction: z.string().min(1).max(100).optional().describe('e.g. flag.updated'),
  targetType: z.string().min(1).max(100).optional().describe('e.g. feature, flag'),
  targetId: z.string().min(1).max(200).optional(),
  since: IsoTime.optional(),
  until: IsoTime.optional(),
  limit: z.number().int().min(1).max(50).optional(),
  cursor: z.string().max(300).optional().describe('nextCursor'),
};
type Args = { [K in keyof typeof params]?: z.infer<(typeof params)[K]> };

export function registerAuditTool(server: McpServer, ctx: ToolContext): void {
  registerAreaTool(server, ctx, {
    name: 'audit',
    title: 'Audit log',
    description:
      'Who did what, newest first (MCP calls: via mcp). list by actor, auditAction, target, time. Admins only (audit:read).',
    params,
    actions: {
      async list(args: Args, project: ProjectRow) {
        const teamId = (project as ProjectRow & { team_id?: string | null }).team_id ?? '';
        const page = await auditPageOf(
          ctx.db,
          { projectId: project.id, teamId },
          {
            actor: args.actor,
            action: args.auditAction,
            targetType: args.targetType,
            targetId: args.targetId,
            since: args.since,
            until: args.until,
            cursor: args.cursor,
            limit: args.limit ?? 20,
          },
        );
        return {
          summary: `${page.entries.length} audit entries, newest first.`,
          data: { items: page.entries, nextCursor: page.nextCursor },
        };
      },
    },
  });
}
