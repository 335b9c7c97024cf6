/**
 * The writes of a translation file import: one locale's texts, a few statements per 500 keys, in
 * one transaction (see files.ts for reading and checking the file).
 */
import { placeholders, type Database, type Queryable, type SqlValue } from '../../db/database.ts';
import { newId, nowIso } from '../../kernel/ids.ts';
import { translationWrite } from './store.ts';
import { compareText } from '../../kernel/compare-text.ts';

export interface ImportOutcome {
  created: string[];
  updated: string[];
  unchanged: string[];
}

const CHUNK = 500;
const rowsOf = (count: number, width: number) =>
  Array.from({ length: count }, () => `(${placeholders(width)})`).join(', ');

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
  const sorted = [...entries].sort(([a], [b]) => compareText(a, b));
  return translationWrite(
    db,
    projectId,
    async (tx) => {
      const outcome: ImportOutcome = { created: [], updated: [], unchanged: [] };
      for (let i = 0; i < sorted.length; i += CHUNK) {
        const part = await importChunk(
          tx,
          projectId,
          locale,
          locale === defaultLocale,
          namespace ?? null,
          sorted.slice(i, i + CHUNK),
          overwrite,
        );
        outcome.created.push(...part.created);
        outcome.updated.push(...part.updated);
        outcome.unchanged.push(...part.unchanged);
      }
      return outcome;
    },
    (outcome) => outcome.created.length + outcome.updated.length > 0,
    (outcome) => ({
      action: 'translations.imported',
      target: { type: 'locale', id: locale },
      after: {
        namespace: namespace ?? null,
        overwrite,
        created: outcome.created.length,
        updated: outcome.updated.length,
        unchanged: outcome.unchanged.length,
      },
    }),
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
  const candidates = chunk.map(
    ([key, value]) =>
      [newId('tkey'), projectId, key, namespace, null, isDefaultLocale ? value : '', now, now] as SqlValue[],
  );
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
    await tx.run(`UPDATE translation_keys SET namespace = ? WHERE id IN (${placeholders(unnamed.length)})`, [
      namespace,
      ...unnamed,
    ]);
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
    await tx.run(`UPDATE translation_keys SET updated_at = ? WHERE id IN (${placeholders(updated.length)})`, [
      now,
      ...updated.map((row) => row.id),
    ]);
  }
  return {
    created: keys.filter((key) => createdKeys.has(key)),
    updated: keys.filter((key) => !createdKeys.has(key) && changed.has(idOf.get(key)!)),
    unchanged: keys.filter((key) => !createdKeys.has(key) && !changed.has(idOf.get(key)!)),
  };
}
