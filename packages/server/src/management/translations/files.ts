/**
 * Translation files: one JSON file per locale (and optionally per namespace).
 *
 * Import accepts a flat object `{"nav.home": "Home"}` or nested objects
 * `{"nav": {"home": "Home"}}`; nesting is flattened to dotted keys, so both files above mean the
 * same key. Export writes the flat form by default, or the nested form on request.
 */
import { placeholders, type Database, type Queryable, type SqlValue } from '../../db/database.ts';
import { type FieldProblem } from '../../kernel/errors.ts';
import { newId, nowIso } from '../../kernel/ids.ts';
import { fallbackChain, resolveTranslations } from '../../features/translations/resolve.ts';
import { readKeyValues } from '../../features/translations/store.ts';
import { translationWrite } from './store.ts';

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
        if (!KEY_PATTERN.test(key)) problems.push({ field: key, message: 'key must be 1 to 200 letters, digits, dots, underscores or hyphens' });
        else if (value.length > MAX_TEXT) problems.push({ field: key, message: `must be at most ${MAX_TEXT} characters` });
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
        node = (next as Record<string, unknown> | undefined) ?? (node[part] = Object.create(null) as Record<string, unknown>);
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

export interface ImportOutcome {
  created: string[];
  updated: string[];
  unchanged: string[];
}

const CHUNK = 500;
const rowsOf = (count: number, width: number) => Array.from({ length: count }, () => `(${placeholders(width)})`).join(', ');

/**
 * Writes one locale's texts in one transaction, a few statements per 500 keys. A file fills its own
 * locale's values only: a key that does not exist yet is created in the given namespace with the
 * imported text as its default text when the file is the project's default locale, and with no
 * default text ('') otherwise, so a German file never becomes what English readers are served.
 * The default locale's file also fills in the default text of keys that have none. An existing
 * key's text is replaced when `overwrite` is true (the default) and kept otherwise; its namespace
 * is only filled in when it had none.
 */
export async function importLocale(
  db: Database,
  projectId: string,
  locale: string,
  defaultLocale: string,
  namespace: string | undefined,
  entries: ReadonlyMap<string, string>,
  overwrite: boolean,
): Promise<ImportOutcome> {
  const sorted = [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return translationWrite(
    db,
    projectId,
    async (tx) => {
      const outcome: ImportOutcome = { created: [], updated: [], unchanged: [] };
      for (let i = 0; i < sorted.length; i += CHUNK) {
        const part = await importChunk(tx, projectId, locale, locale === defaultLocale, namespace ?? null, sorted.slice(i, i + CHUNK), overwrite);
        outcome.created.push(...part.created);
        outcome.updated.push(...part.updated);
        outcome.unchanged.push(...part.unchanged);
      }
      return outcome;
    },
    (outcome) => outcome.created.length + outcome.updated.length > 0,
  );
}

async function importChunk(
  tx: Queryable,
  projectId: string,
  locale: string,
  isDefaultLocale: boolean,
  namespace: string | null,
  chunk: ReadonlyArray<readonly [string, string]>,
  overwrite: boolean,
): Promise<ImportOutcome> {
  const now = nowIso();
  const text = new Map(chunk);
  const keys = chunk.map(([key]) => key);
  // Create the keys that are missing; a key another call created meanwhile counts as existing.
  const candidates = chunk.map(([key, value]) => [newId('tkey'), projectId, key, namespace, null, isDefaultLocale ? value : '', now, now] as SqlValue[]);
  const created = await tx.all<{ id: string; key: string }>(
    `INSERT INTO translation_keys (id, project_id, key, namespace, category, default_text, created_at, updated_at)
     VALUES ${rowsOf(candidates.length, 8)} ON CONFLICT (project_id, key) DO NOTHING RETURNING id, key`,
    candidates.flat(),
  );
  const createdKeys = new Set(created.map((row) => row.key));
  const existing = await tx.all<{ id: string; key: string; namespace: string | null; default_text: string }>(
    `SELECT id, key, namespace, default_text FROM translation_keys WHERE project_id = ? AND key IN (${placeholders(keys.length)})`,
    [projectId, ...keys],
  );
  const idOf = new Map(existing.map((row) => [row.key, row.id]));
  const old = existing.filter((row) => !createdKeys.has(row.key));

  const values = existing.map((row) => [row.id, locale, text.get(row.key)!, now] as SqlValue[]);
  const conflict = overwrite
    ? 'DO UPDATE SET text = excluded.text, updated_at = excluded.updated_at WHERE translation_values.text <> excluded.text'
    : 'DO NOTHING';
  const written = await tx.all<{ key_id: string }>(
    `INSERT INTO translation_values (key_id, locale, text, updated_at) VALUES ${rowsOf(values.length, 4)}
     ON CONFLICT (key_id, locale) ${conflict} RETURNING key_id`,
    values.flat(),
  );
  const changed = new Set(written.map((row) => row.key_id));
  const unnamed = old.filter((row) => row.namespace === null).map((row) => row.id);
  if (namespace !== null && unnamed.length > 0) {
    await tx.run(`UPDATE translation_keys SET namespace = ? WHERE id IN (${placeholders(unnamed.length)})`, [namespace, ...unnamed]);
    for (const id of unnamed) changed.add(id);
  }
  // Keys an import of another locale created have no default text; the default locale's file gives it.
  const untexted = isDefaultLocale ? old.filter((row) => row.default_text === '' && text.get(row.key) !== '') : [];
  if (untexted.length > 0) {
    await tx.run(
      `UPDATE translation_keys SET default_text = CASE id ${untexted.map(() => 'WHEN ? THEN ?').join(' ')} END
        WHERE id IN (${placeholders(untexted.length)})`,
      [...untexted.flatMap((row) => [row.id, text.get(row.key)!]), ...untexted.map((row) => row.id)],
    );
    for (const row of untexted) changed.add(row.id);
  }
  const updated = old.filter((row) => changed.has(row.id));
  if (updated.length > 0) {
    await tx.run(`UPDATE translation_keys SET updated_at = ? WHERE id IN (${placeholders(updated.length)})`, [now, ...updated.map((row) => row.id)]);
  }
  return {
    created: keys.filter((key) => createdKeys.has(key)),
    updated: keys.filter((key) => !createdKeys.has(key) && changed.has(idOf.get(key)!)),
    unchanged: keys.filter((key) => !createdKeys.has(key) && !changed.has(idOf.get(key)!)),
  };
}
