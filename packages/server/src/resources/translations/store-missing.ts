/**
 * Keys the i18n SDK reported missing at runtime (POST /i18n-telemetry), with their counts, and
 * the one call that turns them into translation keys: the one store of missing_translations.
 */
import type { Database, Queryable } from '../../db/database.ts';
import { emitDomainEvent } from '../../db/domain-events.ts';
import type { KeyEnvironment } from '../../kernel/api-keys.ts';
import { nowIso } from '../../kernel/ids.ts';
import type { Scope } from '../../kernel/scope.ts';
import { page } from '../../db/page.ts';
import { Where } from '../../db/query.ts';
import { KEY_PATTERN } from './files.ts';
import { insertKey, translationWrite } from './store.ts';

/**
 * Counts one report of keys missing in a locale: a new row per key, or one more occurrence and a
 * later last-seen time. Keys are written in sorted order so that two reports never deadlock.
 */
export async function recordMissing(
  db: Database,
  scope: Scope,
  locale: string,
  keys: readonly string[],
): Promise<void> {
  const sorted = [...new Set(keys)].sort();
  const at = nowIso();
  await db.transaction(async (tx) => {
    for (const key of sorted) {
      const [row] = await tx.all<{ occurrences: number }>(
        `INSERT INTO missing_translations (project_id, environment, locale, key, occurrences, first_seen_at, last_seen_at)
         VALUES (?, ?, ?, ?, 1, ?, ?)
         ON CONFLICT (project_id, environment, locale, key) DO UPDATE SET
           occurrences = missing_translations.occurrences + 1, last_seen_at = excluded.last_seen_at
         RETURNING occurrences`,
        [scope.projectId, scope.environment, locale, key, at, at],
      );
      // Only a key new to this locale is told (a repeat just counts).
      if (Number(row?.occurrences) === 1) {
        await emitDomainEvent(tx, 'translation.missing-key', {
          projectId: scope.projectId,
          environment: scope.environment,
          locale,
          key,
        });
      }
    }
  });
}

export interface MissingRow {
  key: string;
  locale: string;
  occurrences: number;
  first_seen_at: string;
  last_seen_at: string;
  key_exists: number;
  translated: number;
}

export interface MissingFilter {
  environment: KeyEnvironment;
  locale?: string | undefined;
  /** Also list reports already resolved: the key exists and has a text in that locale. */
  includeResolved: boolean;
  limit: number;
  offset: number;
}

const FROM = `missing_translations m
  LEFT JOIN translation_keys k ON k.project_id = m.project_id AND k.key = m.key
  LEFT JOIN translation_values v ON v.key_id = k.id AND v.locale = m.locale`;

/** Most reported first. */
export async function listMissing(db: Queryable, projectId: string, filter: MissingFilter) {
  const where = new Where('m.project_id = ?', projectId)
    .add('m.environment = ?', filter.environment)
    .when(filter.locale, 'm.locale = ?', filter.locale ?? null);
  if (!filter.includeResolved) where.add('v.key_id IS NULL');
  return page<MissingRow>(
    db,
    FROM,
    where,
    `m.key, m.locale, m.occurrences, m.first_seen_at, m.last_seen_at,
     CASE WHEN k.id IS NULL THEN 0 ELSE 1 END AS key_exists, CASE WHEN v.key_id IS NULL THEN 0 ELSE 1 END AS translated`,
    'm.occurrences DESC, m.last_seen_at DESC, m.key, m.locale',
    filter.limit,
    filter.offset,
  );
}

export interface AddMissingInput {
  environment: KeyEnvironment;
  /** The keys to add; omitted: every reported key of the environment that is not a key yet. */
  keys?: string[] | undefined;
  namespace?: string | undefined;
  category?: string | undefined;
}

export interface AddMissingOutcome {
  created: string[];
  existing: string[];
  /** Reported names that cannot be keys (characters outside letters, digits, `.`, `_`, `-`). */
  invalid: string[];
}

/**
 * Creates a key for each name, with the name itself as placeholder default text (a team fills in
 * the real text afterwards); names that are keys already are left alone.
 */
export async function addMissingKeys(
  db: Database,
  projectId: string,
  input: AddMissingInput,
): Promise<AddMissingOutcome> {
  return translationWrite(
    db,
    projectId,
    async (tx) => {
      const names =
        input.keys ??
        (
          await tx.all<{ key: string }>(
            `SELECT DISTINCT m.key FROM missing_translations m
              WHERE m.project_id = ? AND m.environment = ?
                AND NOT EXISTS (SELECT 1 FROM translation_keys k WHERE k.project_id = m.project_id AND k.key = m.key)
              ORDER BY m.key`,
            [projectId, input.environment],
          )
        ).map((row) => row.key);
      const outcome: AddMissingOutcome = { created: [], existing: [], invalid: [] };
      for (const key of [...new Set(names)].sort()) {
        if (!KEY_PATTERN.test(key)) outcome.invalid.push(key);
        else if (
          await insertKey(tx, projectId, {
            key,
            defaultText: key,
            namespace: input.namespace,
            category: input.category,
          })
        )
          outcome.created.push(key);
        else outcome.existing.push(key);
      }
      return outcome;
    },
    (outcome) => outcome.created.length > 0,
  );
}
