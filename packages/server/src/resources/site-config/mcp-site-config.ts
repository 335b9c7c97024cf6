/**
 * The MCP tool `site_config`: what the app reads from Signpost (flags, maintenance, messages),
 * through what the management API calls (the store's reads; setFlag, changeMaintenance,
 * createMessage of service.ts; flagHistory of flag-history.ts).
 */
import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { IsoTime, registerAreaTool, required, ToolError, type ToolContext } from '../../routing/mcp/tool-context.ts';
import type { ProjectRow } from '../projects/index.ts';
import { presentFlag, presentMaintenance, presentMessage } from './presenter.ts';
import { MAINTENANCE_TYPES, MESSAGE_TYPES } from './public-schemas.ts';
import { FLAG_KEY } from './schemas.ts';
import { changeMaintenance, setFlag } from './service.ts';
import { createMessage } from './service-content.ts';
import { getFlag, listFlags, listMessages, readMaintenance } from './store.ts';
import { flagHistory } from './flag-history.ts';

const params = {
  flagKey: z
    .string()
    .regex(new RegExp(FLAG_KEY), 'must be 1 to 100 letters, digits and . _ : -')
    .optional()
    .describe('set_flag (created if new), flag_history'),
  cursor: z.string().max(300).optional(),
  enabled: z.boolean().optional().describe('set_flag: on/off everywhere; set_maintenance'),
  environment: z.enum(['live', 'test']).optional().describe('set_flag: only for live or test keys'),
  value: z
    .union([z.boolean(), z.string().max(10_000), z.number()])
    .optional()
    .describe('set_flag: value (false: off)'),
  maintenanceType: z.enum(MAINTENANCE_TYPES).optional().describe('set_maintenance'),
  expectedRestoration: IsoTime.optional().describe('set_maintenance'),
  messageType: z.enum(MESSAGE_TYPES).optional().describe('set_message'),
  text: z.string().min(1).max(2000).optional().describe('set_message'),
};
type Args = { [K in keyof typeof params]?: z.infer<(typeof params)[K]> };

async function readConfig(ctx: ToolContext, project: ProjectRow) {
  const [maintenance, messages, flags] = await Promise.all([
    readMaintenance(ctx.db, project.id),
    listMessages(ctx.db, project.id),
    listFlags(ctx.db, project.id),
  ]);
  const now = new Date().toISOString();
  return {
    maintenance: presentMaintenance(maintenance),
    messages: messages.map((row) => presentMessage(row, now)),
    featureFlags: flags.map(presentFlag),
  };
}

export function registerSiteConfigTool(server: McpServer, ctx: ToolContext): void {
  registerAreaTool(server, ctx, {
    name: 'site_config',
    title: 'Site configuration',
    description:
      'What apps read at run time. get: flags, maintenance, messages; set_flag: on/off, or a live/test value; set_maintenance; set_message; flag_history (with error rates).',
    params,
    actions: {
      async get(_args: Args, project) {
        const config = await readConfig(ctx, project);
        return { summary: `${config.featureFlags.length} flags, ${config.messages.length} messages.`, data: config };
      },
      async flag_history(args: Args, project) {
        const flagKey = required(args.flagKey, 'flagKey', 'flag_history');
        const page = await flagHistory(ctx.db, project.id, flagKey, args.cursor, 10);
        if (!page) throw new ToolError(`Flag "${flagKey}" not found in project "${project.id}".`);
        return {
          summary: `${page.changes.length} changes of flag ${flagKey}, newest first.`,
          data: { items: page.changes, nextCursor: page.nextCursor },
        };
      },
      async set_flag(args: Args, project) {
        const flagKey = required(args.flagKey, 'flagKey', 'set_flag');
        const current = await getFlag(ctx.db, project.id, flagKey);
        const existing = current ? presentFlag(current) : undefined;
        const enabled = args.enabled ?? existing?.enabled ?? true;
        const environmentValues =
          args.environment === undefined
            ? undefined
            : { ...existing?.environmentValues, [args.environment]: args.value ?? false };
        const { row, created } = await setFlag(ctx.db, project.id, flagKey, {
          enabled,
          ...(environmentValues ? { environmentValues } : args.value === undefined ? {} : { value: args.value }),
        });
        const item = presentFlag(row);
        const where = args.environment
          ? ` (${args.environment}: ${JSON.stringify(item.environmentValues[args.environment])})`
          : '';
        return {
          summary: `${created ? 'Created' : 'Changed'} flag ${flagKey}: ${item.enabled ? 'on' : 'off'}${where}.`,
          data: { item },
        };
      },
      async set_maintenance(args: Args, project) {
        await changeMaintenance(ctx.db, project.id, {
          enabled: required(args.enabled, 'enabled', 'set_maintenance'),
          type: args.maintenanceType,
          expectedRestoration: args.expectedRestoration,
        });
        const item = presentMaintenance(await readMaintenance(ctx.db, project.id));
        return { summary: `Maintenance is ${item.enabled ? `on (${item.type})` : 'off'}.`, data: { item } };
      },
      async set_message(args: Args, project) {
        const row = await createMessage(ctx.db, project.id, {
          type: required(args.messageType, 'messageType', 'set_message'),
          text: required(args.text, 'text', 'set_message'),
        });
        return { summary: `Added message ${row.id}.`, data: { item: presentMessage(row) } };
      },
    },
  });
}
