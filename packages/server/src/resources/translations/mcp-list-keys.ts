import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { canonicalLocale } from '../../http/locale.ts';
import { presentMcpKey } from './presenter.ts';
import { listKeys } from './store.ts';
import { LocaleList, MAX_PAGE, projectLocales, TranslationKeyOutput } from './mcp-schemas.ts';
import {
  guarded,
  ProjectIdInput,
  reachProject,
  ToolError,
  toolResult,
  type ToolContext,
} from '../../routing/mcp/tool-context.ts';

const input = z.object({
  projectId: ProjectIdInput,
  namespace: z
    .string()
    .min(1)
    .max(100, 'namespace must be at most 100 characters')
    .optional()
    .describe('Only keys of this namespace'),
  query: z
    .string()
    .min(1)
    .max(200, 'query must be at most 200 characters')
    .optional()
    .describe('Only keys whose key or default text contains this text (case-insensitive)'),
  missingLocale: z
    .string()
    .min(1)
    .max(35, 'missingLocale must be a BCP 47 locale code such as de or pt-BR')
    .optional()
    .describe('Only keys that have no value for this locale (BCP 47, e.g. de or pt-BR)'),
  limit: z
    .number({ error: 'limit must be an integer from 1 to 200' })
    .int('limit must be an integer from 1 to 200')
    .min(1, 'limit must be an integer from 1 to 200')
    .optional()
    .describe(`Page size, default 50, max ${MAX_PAGE}; a larger value is clamped (the result shows the value used)`),
  offset: z
    .number({ error: 'offset must be an integer of 0 or more' })
    .int('offset must be an integer of 0 or more')
    .min(0, 'offset must be an integer of 0 or more')
    .optional()
    .describe('Keys to skip, default 0'),
});

const output = z.object({
  projectId: z.string(),
  defaultLocale: z.string(),
  supportedLocales: LocaleList,
  keys: z.array(TranslationKeyOutput),
  total: z.number().int().describe('Keys matching the filters, over all pages'),
  limit: z.number().int(),
  offset: z.number().int(),
});

export function registerListTranslationKeys(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    'list_translation_keys',
    {
      title: 'List translation keys',
      description:
        "Lists a project's translation keys, ordered by key, with default text and every locale's value, plus the project's default and supported locales. Filters: namespace, query, missingLocale. Needs the translations:read scope.",
      inputSchema: input,
      outputSchema: output,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (args) =>
      guarded(ctx, 'list_translation_keys', async () => {
        const project = await reachProject(ctx, args.projectId);
        let missingLocale: string | undefined;
        if (args.missingLocale !== undefined) {
          missingLocale = canonicalLocale(args.missingLocale);
          if (!missingLocale) {
            throw new ToolError(
              `missingLocale "${args.missingLocale}" is not a BCP 47 locale code; use a code such as de, fr or pt-BR.`,
            );
          }
        }
        const limit = Math.min(args.limit ?? 50, MAX_PAGE);
        const offset = args.offset ?? 0;
        const { rows, total } = await listKeys(ctx.db, project.id, {
          namespace: args.namespace,
          q: args.query,
          missingLocale,
          limit,
          offset,
        });
        const keys = rows.map(presentMcpKey);
        const result = { projectId: project.id, ...projectLocales(project), keys, total, limit, offset };
        const more = offset + keys.length < total ? ` Call again with offset ${offset + keys.length} for more.` : '';
        return toolResult(`${keys.length} of ${total} matching keys.${more}`, result);
      }),
  );
}
