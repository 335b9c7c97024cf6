/**
 * Translation keys and their values per locale: the one store of translation_keys and
 * translation_values (file imports, MCP upserts and missing keys are store-files.ts,
 * store-upsert.ts and store-missing.ts beside it). Every write shares a transaction with
 * touchProjectTranslations, which moves the version the public GET /translations cache (and
 * its ETag) depends on.
 */
import { placeholders, type Database, type Queryable } from '../../db/database.ts';
import { isForeignKeyViolation } from '../../db/failures.ts';
import { touchProjectTranslations } from '../../resources/projects/index.ts';
import { newId, nowIso } from '../../kernel/ids.ts';
import { page } from '../../db/page.ts';
import { searchClause, Where } from '../../db/query.ts';
import { Assignments } from '../../db/assignments.ts';
import type { KeyValues } from './resolve.ts';
import { type AuditInput, recordAudit } from '../audit/index.ts';

/** What a translation write records in the audit log when it changed something (project implied). */
export type TranslationAudit<T> = (result: T) => Omit<AuditInput, 'projectId'>;

/**
 * Runs `fn` in a transaction and marks the project's translations as changed when it reports a
 * change; a write that changed something and says how (`audit`) is recorded in the audit log in
 * the same transaction.
 */
export async function translationWrite<T>(
  db: Database,
  projectId: string,
  fn: (tx: Queryable) => Promise<T>,
  changed: (result: T) => boolean = () => true,
  audit?: TranslationAudit<T>,
): Promise<T> {
  const attempt = () =>
    db.transaction(async (tx) => {
      const result = await fn(tx);
      if (changed(result)) {
        await touchProjectTranslations(tx, projectId);
        if (audit) await recordAudit(tx, { projectId, ...audit(result) });
      }
      return result;
    });
  try {
    return await attempt();
  } catch (error) {
    // A key deleted between this write's read of it and its write of a value (a file import):
    // once more, the write now sees the key gone and acts on that.
    if (isForeignKeyViolation(error)) return attempt();
    throw error;
  }
}

export interface KeyRow {
  id: string;
  project_id: string;
  key: string;
  namespace: string | null;
  category: string | null;
  default_text: string;
  created_at: string;
  updated_at: string;
}

export interface KeyWithValues extends KeyRow {
  values: Record<string, string>;
}

/** The filters of a key list; the management routes and the MCP list tool both read through it. */
export interface KeyFilter {
  namespace?: string | undefined;
  category?: string | undefined;
  /** Text searched, case-insensitively, in keys and default texts. */
  q?: string | undefined;
  /** Only keys with no value in this locale. */
  missingLocale?: string | undefined;
  limit: number;
  offset: number;
}

/** One page of keys, by key, with every locale's value, and the number of keys over all pages. */
export async function listKeys(
  db: Queryable,
  projectId: string,
  filter: KeyFilter,
): Promise<{ rows: KeyWithValues[]; total: number }> {
  const where = new Where('k.project_id = ?', projectId)
    .when(filter.namespace, 'k.namespace = ?', filter.namespace ?? null)
    .when(filter.category, 'k.category = ?', filter.category ?? null)
    .when(
      filter.missingLocale,
      'NOT EXISTS (SELECT 1 FROM translation_values v WHERE v.key_id = k.id AND v.locale = ?)',
      filter.missingLocale ?? null,
    );
  if (filter.q) {
    const search = searchClause(['k.key', 'k.default_text'], filter.q);
    where.add(search.sql, ...search.params);
  }
  const { rows, total } = await page<KeyRow>(
    db,
    'translation_keys k',
    where,
    'k.*',
    'k.key',
    filter.limit,
    filter.offset,
  );
  return { rows: await withValues(db, rows), total };
}

async function withValues(db: Queryable, rows: KeyRow[]): Promise<KeyWithValues[]> {
  const values = new Map<string, Record<string, string>>();
  for (let i = 0; i < rows.length; i += 500) {
    const ids = rows.slice(i, i + 500).map((row) => row.id);
    const found = await db.all<{ key_id: string; locale: string; text: string }>(
      `SELECT key_id, locale, text FROM translation_values WHERE key_id IN (${placeholders(ids.length)}) ORDER BY locale`,
      ids,
    );
    for (const value of found) {
      let map = values.get(value.key_id);
      if (!map) {
        map = Object.create(null) as Record<string, string>;
        values.set(value.key_id, map);
      }
      map[value.locale] = value.text;
    }
  }
  return rows.map((row) => ({ ...row, values: values.get(row.id) ?? {} }));
}

export async function getKey(db: Queryable, projectId: string, key: string): Promise<KeyWithValues | undefined> {
  const row = await db.get<KeyRow>('SELECT * FROM translation_keys WHERE project_id = ? AND key = ?', [projectId, key]);
  return row ? (await withValues(db, [row]))[0] : undefined;
}

export interface NewKey {
  key: string;
  defaultText: string;
  namespace?: string | null | undefined;
  category?: string | null | undefined;
  values?: Record<string, string> | undefined;
}

/** Creates a key with its values; false when the key already exists. */
export async function insertKey(tx: Queryable, projectId: string, input: NewKey): Promise<boolean> {
  const id = newId('tkey');
  const now = nowIso();
  const inserted = await tx.all<{ id: string }>(
    `INSERT INTO translation_keys (id, project_id, key, namespace, category, default_text, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (project_id, key) DO NOTHING RETURNING id`,
    [id, projectId, input.key, input.namespace ?? null, input.category ?? null, input.defaultText, now, now],
  );
  if (inserted.length === 0) return false;
  for (const [locale, text] of Object.entries(input.values ?? {})) {
    await tx.run('INSERT INTO translation_values (key_id, locale, text, updated_at) VALUES (?, ?, ?, ?)', [
      id,
      locale,
      text,
      now,
    ]);
  }
  return true;
}

export interface KeyChanges {
  defaultText?: string | undefined;
  namespace?: string | null | undefined;
  category?: string | null | undefined;
}

export async function updateKey(tx: Queryable, projectId: string, key: string, changes: KeyChanges): Promise<boolean> {
  const columns = new Assignments()
    .set('updated_at', nowIso())
    .set('default_text', changes.defaultText)
    .set('namespace', changes.namespace)
    .set('category', changes.category);
  const { changes: n } = await tx.run(`UPDATE translation_keys SET ${columns.sql} WHERE project_id = ? AND key = ?`, [
    ...columns.params,
    projectId,
    key,
  ]);
  return n === 1;
}

export async function deleteKey(tx: Queryable, projectId: string, key: string): Promise<boolean> {
  const { changes } = await tx.run('DELETE FROM translation_keys WHERE project_id = ? AND key = ?', [projectId, key]);
  return changes === 1;
}

async function keyId(tx: Queryable, projectId: string, key: string): Promise<string | undefined> {
  return (
    await tx.get<{ id: string }>('SELECT id FROM translation_keys WHERE project_id = ? AND key = ?', [projectId, key])
  )?.id;
}

/**
 * Sets one locale's text of a key; undefined when the key does not exist.
 *
 * The key's row is changed (and so locked) first, before its value is written: a DELETE of the
 * key running at the same time then either goes first (no row here: 404) or waits for this
 * transaction. Writing the value first instead took only a shared lock on the key for the
 * foreign-key check, which let the DELETE cross it: a foreign-key violation or a deadlock.
 */
export async function putValue(
  tx: Queryable,
  projectId: string,
  key: string,
  locale: string,
  text: string,
): Promise<boolean | undefined> {
  const now = nowIso();
  const [locked] = await tx.all<{ id: string }>(
    'UPDATE translation_keys SET updated_at = ? WHERE project_id = ? AND key = ? RETURNING id',
    [now, projectId, key],
  );
  if (!locked) return undefined;
  await tx.run(
    `INSERT INTO translation_values (key_id, locale, text, updated_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (key_id, locale) DO UPDATE SET text = excluded.text, updated_at = excluded.updated_at`,
    [locked.id, locale, text, now],
  );
  return true;
}

/** undefined: no such key; false: the key had no value in that locale. */
export async function deleteValue(
  tx: Queryable,
  projectId: string,
  key: string,
  locale: string,
): Promise<boolean | undefined> {
  const id = await keyId(tx, projectId, key);
  if (!id) return undefined;
  const { changes } = await tx.run('DELETE FROM translation_values WHERE key_id = ? AND locale = ?', [id, locale]);
  return changes === 1;
}

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

/** The project's key count, values per locale, and the namespaces and categories its keys use. */
export async function summarize(
  db: Queryable,
  projectId: string,
): Promise<{ totalKeys: number; translated: Map<string, number>; namespaces: string[]; categories: string[] }> {
  const total = await db.get<{ n: number | string }>(
    'SELECT COUNT(*) AS n FROM translation_keys WHERE project_id = ?',
    [projectId],
  );
  const perLocale = await db.all<{ locale: string; n: number | string }>(
    `SELECT v.locale, COUNT(*) AS n FROM translation_values v JOIN translation_keys k ON k.id = v.key_id
      WHERE k.project_id = ? GROUP BY v.locale ORDER BY v.locale`,
    [projectId],
  );
  const namespaces = await db.all<{ value: string }>(
    'SELECT DISTINCT namespace AS value FROM translation_keys WHERE project_id = ? AND namespace IS NOT NULL ORDER BY namespace',
    [projectId],
  );
  const categories = await db.all<{ value: string }>(
    'SELECT DISTINCT category AS value FROM translation_keys WHERE project_id = ? AND category IS NOT NULL ORDER BY category',
    [projectId],
  );
  return {
    totalKeys: Number(total?.n ?? 0),
    translated: new Map(perLocale.map((row) => [row.locale, Number(row.n)])),
    namespaces: namespaces.map((row) => row.value),
    categories: categories.map((row) => row.value),
  };
}
