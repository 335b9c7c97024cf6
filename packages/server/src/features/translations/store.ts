import { placeholders, type Queryable } from '../../db/database.ts';
import type { KeyValues } from './resolve.ts';

/** Every key of the project (or one namespace) with its values in the given locales: one query. */
export async function readKeyValues(
  db: Queryable,
  projectId: string,
  locales: readonly string[],
  namespace: string | undefined,
): Promise<KeyValues[]> {
  const params = [...locales, projectId];
  let filter = '';
  if (namespace !== undefined) {
    filter = ' AND k.namespace = ?';
    params.push(namespace);
  }
  const rows = await db.all<{ key: string; default_text: string; locale: string | null; text: string | null }>(
    `SELECT k.key, k.default_text, v.locale, v.text
       FROM translation_keys k
       LEFT JOIN translation_values v ON v.key_id = k.id AND v.locale IN (${placeholders(locales.length)})
      WHERE k.project_id = ?${filter}
      ORDER BY k.key`,
    params,
  );
  const byKey = new Map<string, KeyValues>();
  for (const row of rows) {
    let entry = byKey.get(row.key);
    if (!entry) {
      entry = { key: row.key, defaultText: row.default_text, values: new Map() };
      byKey.set(row.key, entry);
    }
    if (row.locale !== null && row.text !== null) entry.values.set(row.locale, row.text);
  }
  return [...byKey.values()];
}
