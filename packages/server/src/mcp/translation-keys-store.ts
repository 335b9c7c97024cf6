/**
 * Translation keys as the MCP tools read and write them: whole keys with every locale value.
 * Writes bump projects.translations_version, which the GET /translations cache watches.
 */
import { placeholders, type Database, type Queryable, type SqlValue } from '../db/database.ts';
import { touchProjectTranslations } from '../resources/projects/index.ts';
import { newId, nowIso } from '../kernel/ids.ts';
import { Assignments } from '../db/assignments.ts';

export interface TranslationKey {
  key: string;
  defaultText: string;
  namespace: string | null;
  category: string | null;
  translations: Record<string, string>;
  updatedAt: string;
}

interface KeyRow {
  id: string;
  key: string;
  namespace: string | null;
  category: string | null;
  default_text: string;
  updated_at: string;
}

export interface KeyFilter {
  namespace?: string | undefined;
  query?: string | undefined;
  missingLocale?: string | undefined;
  limit: number;
  offset: number;
}

const likePattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export async function listKeys(db: Queryable, projectId: string, filter: KeyFilter): Promise<{ keys: TranslationKey[]; total: number }> {
  const where = ['k.project_id = ?'];
  const params: SqlValue[] = [projectId];
  if (filter.namespace !== undefined) {
    where.push('k.namespace = ?');
    params.push(filter.namespace);
  }
  if (filter.query !== undefined) {
    where.push("(LOWER(k.key) LIKE ? ESCAPE '\\' OR LOWER(k.default_text) LIKE ? ESCAPE '\\')");
    params.push(likePattern(filter.query), likePattern(filter.query));
  }
  if (filter.missingLocale !== undefined) {
    where.push('NOT EXISTS (SELECT 1 FROM translation_values v WHERE v.key_id = k.id AND v.locale = ?)');
    params.push(filter.missingLocale);
  }
  const clause = where.join(' AND ');
  const count = await db.get<{ total: number }>(`SELECT COUNT(*) AS total FROM translation_keys k WHERE ${clause}`, params);
  const rows = await db.all<KeyRow>(
    `SELECT k.id, k.key, k.namespace, k.category, k.default_text, k.updated_at FROM translation_keys k
      WHERE ${clause} ORDER BY k.key LIMIT ? OFFSET ?`,
    [...params, filter.limit, filter.offset],
  );
  const values = await valuesOf(db, rows.map((row) => row.id));
  return {
    total: Number(count?.total ?? 0),
    keys: rows.map((row) => ({
      key: row.key,
      defaultText: row.default_text,
      namespace: row.namespace,
      category: row.category,
      translations: Object.fromEntries([...(values.get(row.id) ?? new Map())].sort(([a], [b]) => a.localeCompare(b))),
      updatedAt: row.updated_at,
    })),
  };
}

async function valuesOf(db: Queryable, keyIds: readonly string[]): Promise<Map<string, Map<string, string>>> {
  const byKey = new Map<string, Map<string, string>>();
  if (keyIds.length === 0) return byKey;
  const rows = await db.all<{ key_id: string; locale: string; text: string }>(
    `SELECT key_id, locale, text FROM translation_values WHERE key_id IN (${placeholders(keyIds.length)})`,
    keyIds,
  );
  for (const row of rows) {
    let values = byKey.get(row.key_id);
    if (!values) byKey.set(row.key_id, (values = new Map()));
    values.set(row.locale, row.text);
  }
  return byKey;
}

export interface KeyInput {
  key: string;
  defaultText: string;
  namespace?: string | undefined;
  category?: string | undefined;
  /** Locale (canonical BCP 47) to text. */
  translations?: Record<string, string> | undefined;
}

export interface UpsertOutcome {
  created: string[];
  updated: string[];
  unchanged: string[];
}

/**
 * Creates missing keys and fills in existing ones; with `overwrite`, given values replace
 * stored ones. Locale values merge per locale. One transaction for the whole call.
 */
export async function upsertKeys(db: Database, projectId: string, inputs: readonly KeyInput[], overwrite: boolean): Promise<UpsertOutcome> {
  return db.transaction(async (tx) => {
    const outcome: UpsertOutcome = { created: [], updated: [], unchanged: [] };
    const existing = new Map<string, KeyRow>();
    for (let i = 0; i < inputs.length; i += 100) {
      const chunk = inputs.slice(i, i + 100).map((input) => input.key);
      const rows = await tx.all<KeyRow>(
        `SELECT id, key, namespace, category, default_text, updated_at FROM translation_keys
          WHERE project_id = ? AND key IN (${placeholders(chunk.length)})`,
        [projectId, ...chunk],
      );
      for (const row of rows) existing.set(row.key, row);
    }
    const now = nowIso();
    for (const input of inputs) {
      let row = existing.get(input.key);
      if (!row) {
        const id = newId('tkey');
        const inserted = await tx.all<{ id: string }>(
          `INSERT INTO translation_keys (id, project_id, key, namespace, category, default_text, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (project_id, key) DO NOTHING RETURNING id`,
          [id, projectId, input.key, input.namespace ?? null, input.category ?? null, input.defaultText, now, now],
        );
        if (inserted.length > 0) {
          for (const [locale, text] of Object.entries(input.translations ?? {})) {
            await tx.run('INSERT INTO translation_values (key_id, locale, text, updated_at) VALUES (?, ?, ?, ?)', [id, locale, text, now]);
          }
          outcome.created.push(input.key);
          continue;
        }
        // Another call created it after our read: treat it as existing.
        row = await tx.get<KeyRow>(
          'SELECT id, key, namespace, category, default_text, updated_at FROM translation_keys WHERE project_id = ? AND key = ?',
          [projectId, input.key],
        );
        if (!row) throw new Error('translation key vanished during upsert');
      }
      const changed = (await mergeKey(tx, row, input, overwrite)) | (await mergeValues(tx, row.id, input.translations ?? {}, overwrite, now));
      if (changed) {
        await tx.run('UPDATE translation_keys SET updated_at = ? WHERE id = ?', [now, row.id]);
        outcome.updated.push(input.key);
      } else {
        outcome.unchanged.push(input.key);
      }
    }
    if (outcome.created.length + outcome.updated.length > 0) await touchProjectTranslations(tx, projectId);
    return outcome;
  });
}

/** Default text, namespace and category: filled in when empty, replaced only with `overwrite`. */
async function mergeKey(tx: Queryable, row: KeyRow, input: KeyInput, overwrite: boolean): Promise<number> {
  const columns = new Assignments();
  const take = (column: 'default_text' | 'namespace' | 'category', current: string | null, next: string | undefined) => {
    if (next === undefined || next === current) return;
    if (overwrite || current === null || current === '') columns.set(column, next);
  };
  take('default_text', row.default_text, input.defaultText);
  take('namespace', row.namespace, input.namespace);
  take('category', row.category, input.category);
  if (columns.empty) return 0;
  await tx.run(`UPDATE translation_keys SET ${columns.sql} WHERE id = ?`, [...columns.params, row.id]);
  return 1;
}

/** Locale values merge per locale; a value already set is replaced only with `overwrite`. */
async function mergeValues(tx: Queryable, keyId: string, translations: Record<string, string>, overwrite: boolean, now: string): Promise<number> {
  let changed = 0;
  for (const [locale, text] of Object.entries(translations)) {
    const conflict = overwrite
      ? 'DO UPDATE SET text = excluded.text, updated_at = excluded.updated_at WHERE translation_values.text <> excluded.text'
      : 'DO NOTHING';
    const result = await tx.run(
      `INSERT INTO translation_values (key_id, locale, text, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT (key_id, locale) ${conflict}`,
      [keyId, locale, text, now],
    );
    if (result.changes > 0) changed = 1;
  }
  return changed;
}
