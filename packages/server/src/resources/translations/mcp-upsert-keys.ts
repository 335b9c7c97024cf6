import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { canonicalLocale } from '../../http/locale.ts';
import { upsertKeys, type KeyInput } from './store-upsert.ts';
import { LocaleList, MAX_KEYS_PER_CALL, projectLocales } from './mcp-schemas.ts';
import {
  guarded,
  ProjectIdInput,
  reachProject,
  ToolError,
  toolResult,
  type ToolContext,
} from '../../routing/mcp/tool-context.ts';

const KEY_RULE = 'letters, digits, dots, underscores and hyphens, 1 to 200 characters';

const keyItem = z.object({
  key: z
    .string({ error: `key is required: ${KEY_RULE}` })
    .min(1, `key must be ${KEY_RULE}`)
    .max(200, 'key must be at most 200 characters')
    .regex(/^[A-Za-z0-9._-]+$/, `key may only contain ${KEY_RULE}`)
    .describe(`The key, e.g. checkout.button.pay (${KEY_RULE})`),
  defaultText: z
    .string({ error: 'defaultText is required: the source text, at most 5000 characters' })
    .max(5000, 'defaultText must be at most 5000 characters')
    .describe('Source text shown when no locale has a value, at most 5000 characters'),
  namespace: z
    .string()
    .max(100, 'namespace must be at most 100 characters')
    .optional()
    .describe('Namespace for lazy-loaded bundles'),
  category: z.string().max(100, 'category must be at most 100 characters').optional().describe('Free-form category'),
  translations: z
    .record(z.string(), z.string().max(5000, 'a translation must be at most 5000 characters'))
    .optional()
    .describe('Locale code (BCP 47, e.g. de, pt-BR) to translated text'),
});

const input = z.object({
  projectId: ProjectIdInput,
  keys: z
    .array(keyItem, { error: 'keys is required: a list of translation keys' })
    .min(1, 'keys must hold at least one key')
    .max(
      MAX_KEYS_PER_CALL,
      `keys may hold at most ${MAX_KEYS_PER_CALL} keys per call; split the list into several calls`,
    ),
  overwrite: z
    .boolean({ error: 'overwrite must be true or false' })
    .optional()
    .describe(
      'false (default): existing keys are only filled in. true: given default text, namespace, category and locale values replace stored ones',
    ),
});

const output = z.object({
  projectId: z.string(),
  created: z.array(z.string()).describe('Keys that did not exist and were created'),
  updated: z.array(z.string()).describe('Existing keys that changed'),
  unchanged: z.array(z.string()).describe('Existing keys left as they were'),
  unsupportedLocales: LocaleList.describe(
    'Locales given that the project does not enable; their values were stored anyway',
  ),
  defaultLocale: z.string(),
  supportedLocales: LocaleList,
});

export function registerUpsertTranslationKeys(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    'upsert_translation_keys',
    {
      title: 'Create or fill in translation keys',
      description:
        'Creates missing translation keys and fills in existing ones (up to 200 per call, all or nothing). Values already set are kept unless overwrite is true; locale values merge per locale, so sending one locale never removes another. Needs the translations:write scope.',
      inputSchema: input,
      outputSchema: output,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    async (args) =>
      guarded(ctx, 'upsert_translation_keys', async () => {
        const keys = normalise(args.keys);
        const project = await reachProject(ctx, args.projectId);
        const locales = projectLocales(project);
        const given = new Set(keys.flatMap((key) => Object.keys(key.translations ?? {})));
        const unsupportedLocales = [...given].filter((locale) => !locales.supportedLocales.includes(locale)).sort();
        const outcome = await upsertKeys(ctx.db, project.id, keys, args.overwrite ?? false);
        const result = { projectId: project.id, ...outcome, unsupportedLocales, ...locales };
        let summary = `Created ${outcome.created.length}, updated ${outcome.updated.length}, unchanged ${outcome.unchanged.length}.`;
        if (unsupportedLocales.length > 0) {
          summary += ` Locales ${unsupportedLocales.join(', ')} are not enabled for this project (supported: ${locales.supportedLocales.join(', ')}); their values were stored anyway.`;
        }
        return toolResult(summary, result);
      }),
  );
}

/** Canonical locale codes, and one entry per key: a repeated key or a bad locale is an error. */
function normalise(keys: readonly z.infer<typeof keyItem>[]): KeyInput[] {
  const seen = new Set<string>();
  return keys.map((item, index) => {
    if (seen.has(item.key))
      throw new ToolError(`keys.${index}.key: "${item.key}" appears more than once; send each key once.`);
    seen.add(item.key);
    const translations: Record<string, string> = {};
    for (const [raw, text] of Object.entries(item.translations ?? {})) {
      const locale = canonicalLocale(raw);
      if (!locale)
        throw new ToolError(
          `keys.${index}.translations: "${raw}" is not a BCP 47 locale code; use codes such as de, fr or pt-BR.`,
        );
      if (Object.hasOwn(translations, locale)) {
        throw new ToolError(
          `keys.${index}.translations: "${raw}" names the same locale as another entry (${locale}); send it once.`,
        );
      }
      translations[locale] = text;
    }
    return {
      key: item.key,
      defaultText: item.defaultText,
      namespace: item.namespace,
      category: item.category,
      translations,
    };
  });
}
