/**
 * The MCP tool `translations_status`: what is left to translate. missing: keys the apps
 * reported missing at run time (listMissing, as the management API lists them); progress:
 * translated keys per locale (translationProgress). Reading and writing the keys themselves are
 * the spec's list_translation_keys and upsert_translation_keys.
 */
import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { isTrue } from '../../db/database.ts';
import { canonicalLocale } from '../../http/locale.ts';
import { registerAreaTool, ToolError, type ToolContext } from '../../routing/mcp/tool-context.ts';
import { translationProgress } from './service.ts';
import { listMissing } from './store-missing.ts';

const params = {
  locale: z.string().min(1).max(35).optional().describe('missing: only this locale (BCP 47)'),
  limit: z.number().int().min(1).max(200).optional(),
  offset: z.number().int().min(0).optional(),
};
type Args = { [K in keyof typeof params]?: z.infer<(typeof params)[K]> };

export function registerTranslationStatusTool(server: McpServer, ctx: ToolContext): void {
  registerAreaTool(server, ctx, {
    name: 'translations_status',
    title: 'Translation status',
    description:
      'What is left to translate. missing: keys the apps found without text, most reported first (fill with upsert_translation_keys); progress: per locale.',
    params,
    actions: {
      async missing(args: Args, project) {
        const locale = args.locale === undefined ? undefined : canonicalLocale(args.locale);
        if (args.locale !== undefined && !locale)
          throw new ToolError('locale must be a BCP 47 code such as de or pt-BR.');
        const { rows, total } = await listMissing(ctx.db, project.id, {
          environment: ctx.principal.environment,
          locale,
          includeResolved: false,
          limit: args.limit ?? 50,
          offset: args.offset ?? 0,
        });
        const items = rows.map((row) => ({
          key: row.key,
          locale: row.locale,
          occurrences: Number(row.occurrences),
          lastSeenAt: row.last_seen_at,
          keyExists: isTrue(row.key_exists),
        }));
        return { summary: `${items.length} of ${total} missing keys.`, data: { items, total } };
      },
      async progress(_args: Args, project) {
        const progress = (await translationProgress(ctx.db, project.id))!;
        return { summary: `${progress.totalKeys} keys in ${progress.locales.length} locales.`, data: progress };
      },
    },
  });
}
