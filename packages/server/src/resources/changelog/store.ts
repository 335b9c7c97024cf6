/**
 * Changelog entries as their authors manage them: drafts and published entries, standalone or
 * linked to a feature (internal features included). The public read is features/changelog.
 */
import { bool, type Queryable } from '../../db/database.ts';
import type { ChangelogRow } from './read-model.ts';
import { newId, nowIso } from '../../kernel/ids.ts';
import { page, searchClause, Where } from '../../management/support/query.ts';
import { Assignments } from '../../db/assignments.ts';

export interface ManagedChangelogRow extends ChangelogRow {
  f_internal: number | null;
}

/** The status an author picks for a standalone entry, with its display label. */
export const STANDALONE_STATUSES = { new: 'New', improved: 'Improved', fixed: 'Fixed' } as const;
export type StandaloneStatus = keyof typeof STANDALONE_STATUSES;

const SELECT = `SELECT e.*, f.title AS f_title, f.type AS f_type, f.status AS f_status, f.internal AS f_internal
  FROM changelog_entries e LEFT JOIN features f ON f.id = e.feature_id`;

export interface ChangelogFilter {
  published?: boolean | undefined;
  featureId?: string | undefined;
  q?: string | undefined;
  limit: number;
  offset: number;
}

/** Newest first: a published entry by its publication time, a draft by its creation time. */
export async function listEntries(db: Queryable, projectId: string, filter: ChangelogFilter) {
  const where = new Where('e.project_id = ?', projectId)
    .when(filter.published, 'e.published = ?', bool(filter.published ?? false))
    .when(filter.featureId, 'e.feature_id = ?', filter.featureId ?? null);
  if (filter.q) {
    const search = searchClause(['e.summary', 'e.description'], filter.q);
    where.add(search.sql, ...search.params);
  }
  return page<ManagedChangelogRow>(
    db,
    'changelog_entries e LEFT JOIN features f ON f.id = e.feature_id',
    where,
    'e.*, f.title AS f_title, f.type AS f_type, f.status AS f_status, f.internal AS f_internal',
    'COALESCE(e.published_at, e.created_at) DESC, e.id DESC',
    filter.limit,
    filter.offset,
  );
}

export async function getEntry(db: Queryable, projectId: string, id: string): Promise<ManagedChangelogRow | undefined> {
  return db.get<ManagedChangelogRow>(`${SELECT} WHERE e.id = ? AND e.project_id = ?`, [id, projectId]);
}

export interface NewEntry {
  summary: string;
  /** Already sanitised HTML. */
  description: string;
  featureId: string | null;
  statusKey: StandaloneStatus;
  published: boolean;
}

export async function insertEntry(db: Queryable, projectId: string, input: NewEntry): Promise<string> {
  const id = newId('chg');
  const now = nowIso();
  await db.run(
    `INSERT INTO changelog_entries (id, project_id, feature_id, summary, description, status_key, status_label, published, created_at, published_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      id, projectId, input.featureId, input.summary, input.description, input.statusKey, STANDALONE_STATUSES[input.statusKey],
      bool(input.published), now, input.published ? now : null,
    ],
  );
  return id;
}

export interface EntryChanges {
  summary?: string | undefined;
  description?: string | undefined;
  /** null unlinks the entry from its feature. */
  featureId?: string | null | undefined;
  statusKey?: StandaloneStatus | undefined;
}

export async function updateEntry(db: Queryable, projectId: string, id: string, changes: EntryChanges): Promise<boolean> {
  const columns = new Assignments();
  columns.set('summary', changes.summary);
  columns.set('description', changes.description);
  columns.set('feature_id', changes.featureId);
  columns.set('status_key', changes.statusKey);
  columns.set('status_label', changes.statusKey === undefined ? undefined : STANDALONE_STATUSES[changes.statusKey]);
  if (columns.empty) return (await getEntry(db, projectId, id)) !== undefined;
  const { changes: changed } = await db.run(
    `UPDATE changelog_entries SET ${columns.sql} WHERE id = ? AND project_id = ?`,
    [...columns.params, id, projectId],
  );
  return changed === 1;
}

/**
 * Publishing stamps `publishedAt` with the current time (a repeat keeps the first stamp);
 * unpublishing turns the entry back into a draft with `publishedAt` null.
 */
export async function setPublished(db: Queryable, projectId: string, id: string, published: boolean): Promise<boolean> {
  const { changes } = published
    ? await db.run(
        'UPDATE changelog_entries SET published = 1, published_at = COALESCE(published_at, ?) WHERE id = ? AND project_id = ?',
        [nowIso(), id, projectId],
      )
    : await db.run('UPDATE changelog_entries SET published = 0, published_at = NULL WHERE id = ? AND project_id = ?', [id, projectId]);
  return changes === 1;
}

export async function deleteEntry(db: Queryable, projectId: string, id: string): Promise<boolean> {
  const { changes } = await db.run('DELETE FROM changelog_entries WHERE id = ? AND project_id = ?', [id, projectId]);
  return changes === 1;
}

/** Whether the project has this feature (a changelog entry may only link to its own project's). */
export async function projectHasFeature(db: Queryable, projectId: string, featureId: string): Promise<boolean> {
  return (await db.get('SELECT id FROM features WHERE id = ? AND project_id = ?', [featureId, projectId])) !== undefined;
}
