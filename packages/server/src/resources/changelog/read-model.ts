/**
 * Changelog entries with their linked feature read live (title, type, status, internal): the
 * JOIN on features, a table of resources/features, in one place.
 */
import { bool, type Queryable } from '../../db/database.ts';
import { page } from '../../db/page.ts';
import { searchClause, Where } from '../../db/query.ts';

export interface ChangelogRow {
  id: string;
  project_id: string;
  feature_id: string | null;
  summary: string;
  description: string;
  status_key: string;
  status_label: string;
  published: number;
  created_at: string;
  published_at: string | null;
  f_title: string | null;
  f_type: string | null;
  f_status: string | null;
}

/**
 * Entries of the project, with their linked feature read live. Entries linked to an internal
 * feature are dropped in SQL, before LIMIT and OFFSET; standalone entries stay.
 */
export async function listChangelog(
  db: Queryable,
  projectId: string,
  published: boolean,
  limit: number,
  offset: number,
): Promise<ChangelogRow[]> {
  return db.all<ChangelogRow>(
    `SELECT e.*, f.title AS f_title, f.type AS f_type, f.status AS f_status
       FROM changelog_entries e LEFT JOIN features f ON f.id = e.feature_id
      WHERE e.project_id = ? AND e.published = ? AND (e.feature_id IS NULL OR (f.internal = 0 AND f.held = 0))
      ORDER BY e.published_at DESC, e.created_at DESC, e.id DESC LIMIT ? OFFSET ?`,
    [projectId, bool(published), limit, offset],
  );
}

// The management side: drafts too, and entries linked to internal features.

export interface ManagedChangelogRow extends ChangelogRow {
  f_internal: number | null;
}

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

/** Whether the project has this feature (a changelog entry may only link to its own project's). */
export async function projectHasFeature(db: Queryable, projectId: string, featureId: string): Promise<boolean> {
  return (
    (await db.get('SELECT id FROM features WHERE id = ? AND project_id = ?', [featureId, projectId])) !== undefined
  );
}

/** The published entries that tell about one feature, newest first (the board's idea page). */
export async function listPublishedEntriesOfFeature(
  db: Queryable,
  projectId: string,
  featureId: string,
): Promise<{ id: string; summary: string; published_at: string }[]> {
  return db.all(
    `SELECT id, summary, published_at FROM changelog_entries
      WHERE project_id = ? AND feature_id = ? AND published = 1 ORDER BY published_at DESC, id DESC LIMIT 20`,
    [projectId, featureId],
  );
}
