import { bool, type Queryable } from '../../db/database.ts';

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
export async function listChangelog(db: Queryable, projectId: string, published: boolean, limit: number, offset: number): Promise<ChangelogRow[]> {
  return db.all<ChangelogRow>(
    `SELECT e.*, f.title AS f_title, f.type AS f_type, f.status AS f_status
       FROM changelog_entries e LEFT JOIN features f ON f.id = e.feature_id
      WHERE e.project_id = ? AND e.published = ? AND (e.feature_id IS NULL OR f.internal = 0)
      ORDER BY e.published_at DESC, e.created_at DESC, e.id DESC LIMIT ? OFFSET ?`,
    [projectId, bool(published), limit, offset],
  );
}
