/**
 * Whole keys with every locale value created or filled in at once, as the MCP upsert tool writes
 * them. Writes bump projects.translations_version, which the GET /translations cache watches.
 */
import { placeholders, type Database, type Queryable } from '../../db/database.ts';
import { touchProjectTranslations } from '../projects/index.ts';
import { nowIso } from '../../kernel/ids.ts';
import { Assignments } from '../../db/assignments.ts';
import { insertKey, type KeyRow } from './store.ts';

/** The columns of a key an upsert reads to merge into. */
type StoredKey = Pick<KeyRow, 'id' | 'key' | 'namespace' | 'category' | 'default_text'>;

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
export async function upsertKeys(
  db: Database,
  projectId: string,
  inputs: readonly KeyInput[],
  overwrite: boolean,
): Promise<UpsertOutcome> {
  return db.transaction(async (tx) => {
    const outcome: UpsertOutcome = { created: [], updated: [], unchanged: [] };
    const existing = new Map<string, StoredKey>();
    for (let i = 0; i < inputs.length; i += 100) {
      const chunk = inputs.slice(i, i + 100).map((input) => input.key);
      const rows = await tx.all<StoredKey>(
        `SELECT id, key, namespace, category, default_text FROM translation_keys
          WHERE project_id = ? AND key IN (${placeholders(chunk.length)})`,
        [projectId, ...chunk],
      );
      for (const row of rows) existing.set(row.key, row);
    }
    const now = nowIso();
    for (const input of inputs) {
      let row = existing.get(input.key);
      if (!row) {
        const values = input.translations ?? {};
        if (
          await insertKey(tx, projectId, {
            key: input.key,
            defaultText: input.defaultText,
            namespace: input.namespace,
            category: input.category,
            values,
          })
        ) {
          outcome.created.push(input.key);
          continue;
        }
        // Another call created it after our read: treat it as existing.
        row = await tx.get<StoredKey>(
          'SELECT id, key, namespace, category, default_text FROM translation_keys WHERE project_id = ? AND key = ?',
          [projectId, input.key],
        );
        if (!row) throw new Error('translation key vanished during upsert');
      }
      const changed =
        (await mergeKey(tx, row, input, overwrite)) |
        (await mergeValues(tx, row.id, input.translations ?? {}, overwrite, now));
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
async function mergeKey(tx: Queryable, row: StoredKey, input: KeyInput, overwrite: boolean): Promise<number> {
  const columns = new Assignments();
  const take = (
    column: 'default_text' | 'namespace' | 'category',
    current: string | null,
    next: string | undefined,
  ) => {
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
async function mergeValues(
  tx: Queryable,
  keyId: string,
  translations: Record<string, string>,
  overwrite: boolean,
  now: string,
): Promise<number> {
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
