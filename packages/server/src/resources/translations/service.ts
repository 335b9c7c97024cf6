/**
 * Translation progress, what the management API's GET /translations/summary and the MCP tool
 * `translations_status` answer: keys with a text per locale out of all keys, the supported
 * locales first, and the namespaces and categories in use.
 */
import type { Queryable } from '../../db/database.ts';
import { readProjectLocales } from '../projects/index.ts';
import { summarize } from './store.ts';

/** Undefined when the project does not exist. */
export async function translationProgress(db: Queryable, projectId: string) {
  const locales = await readProjectLocales(db, projectId);
  if (!locales) return undefined;
  const summary = await summarize(db, projectId);
  const ordered = [...new Set([locales.defaultLocale, ...locales.supportedLocales, ...summary.translated.keys()])];
  return {
    totalKeys: summary.totalKeys,
    locales: ordered.map((locale) => ({
      locale,
      translated: summary.translated.get(locale) ?? 0,
      supported: locales.supportedLocales.includes(locale),
    })),
    namespaces: summary.namespaces,
    categories: summary.categories,
  };
}
