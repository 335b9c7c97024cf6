/**
 * Translation files: one JSON file per locale (and optionally per namespace).
 *
 * Import accepts a flat object `{"nav.home": "Home"}` or nested objects
 * `{"nav": {"home": "Home"}}`; nesting is flattened to dotted keys, so both files above mean the
 * same key. Export writes the flat form by default, or the nested form on request. The import's
 * writes are store-files.ts.
 */
import type { Queryable } from '../../db/database.ts';
import type { FieldProblem } from '../../kernel/errors.ts';
import { fallbackChain, resolveTranslations } from './resolve.ts';
import { readKeyValues } from './store.ts';

export const KEY_PATTERN = /^[A-Za-z0-9._-]{1,200}$/;
export const MAX_TEXT = 5000;

/** Flattens a translation file; every leaf must be a string. Problems name the dotted path. */
export function flattenFile(file: Record<string, unknown>): { entries: Map<string, string>; problems: FieldProblem[] } {
  const entries = new Map<string, string>();
  const problems: FieldProblem[] = [];
  const walk = (node: Record<string, unknown>, prefix: string) => {
    for (const [name, value] of Object.entries(node)) {
      const key = prefix ? `${prefix}.${name}` : name;
      if (typeof value === 'string') {
        if (!KEY_PATTERN.test(key))
          problems.push({ field: key, message: 'key must be 1 to 200 letters, digits, dots, underscores or hyphens' });
        else if (value.length > MAX_TEXT)
          problems.push({ field: key, message: `must be at most ${MAX_TEXT} characters` });
        else if (entries.has(key)) problems.push({ field: key, message: 'appears twice (flat and nested)' });
        else entries.set(key, value);
      } else if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
        walk(value as Record<string, unknown>, key);
      } else {
        problems.push({ field: key, message: 'must be a string or an object of strings' });
      }
    }
  };
  walk(file, '');
  return { entries, problems };
}

/** Nests dotted keys; undefined names a key that is both a text and a prefix of another key. */
export function nestEntries(flat: Record<string, string>): { nested: Record<string, unknown> } | { conflict: string } {
  const root: Record<string, unknown> = Object.create(null);
  for (const key of Object.keys(flat).sort()) {
    const parts = key.split('.');
    let node = root;
    for (const [index, part] of parts.entries()) {
      if (index === parts.length - 1) {
        if (part in node) return { conflict: key };
        node[part] = flat[key];
      } else {
        const next = node[part];
        if (typeof next === 'string') return { conflict: key };
        if (next === undefined) node[part] = Object.create(null) as Record<string, unknown>;
        node = node[part] as Record<string, unknown>;
      }
    }
  }
  return { nested: root };
}

/**
 * The texts of one locale. Without fallback: only the values stored for that locale. With
 * fallback: every key, resolved like the public API does (locale, language, default locale,
 * default text).
 */
export async function exportLocale(
  db: Queryable,
  projectId: string,
  defaultLocale: string,
  locale: string,
  namespace: string | undefined,
  fallback: boolean,
): Promise<Record<string, string>> {
  const chain = fallback ? fallbackChain(locale, defaultLocale) : [locale];
  const keys = await readKeyValues(db, projectId, chain, namespace);
  if (fallback) return resolveTranslations(keys, chain);
  const result: Record<string, string> = Object.create(null);
  for (const entry of keys) {
    const text = entry.values.get(locale);
    if (text !== undefined) result[entry.key] = text;
  }
  return result;
}
