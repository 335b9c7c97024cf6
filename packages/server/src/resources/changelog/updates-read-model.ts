/**
 * "What's new" reads: the newest public published entries (entries linked to an internal or held
 * feature left out, as in GET /changelog) and how many were published after a reader's marker.
 */
import type { Queryable } from '../../db/database.ts';

export interface UpdateRow {
  id: string;
  summary: string;
  status_key: string;
  status_label: string;
  published_at: string;
  announcement: number;
  f_title: string | null;
  f_status: string | null;
}

const PUBLIC = `e.project_id = ? AND e.published = 1 AND (e.feature_id IS NULL OR (f.internal = 0 AND f.held = 0))`;
const FROM = 'changelog_entries e LEFT JOIN features f ON f.id = e.feature_id';

/** The newest public published entries, newest first. */
export async function listNewestPublished(db: Queryable, projectId: string, limit: number): Promise<UpdateRow[]> {
  return db.all<UpdateRow>(
    `SELECT e.id, e.summary, e.status_key, e.status_label, e.published_at, e.announcement, f.title AS f_title, f.status AS f_status
       FROM ${FROM} WHERE ${PUBLIC}
      ORDER BY e.published_at DESC, e.created_at DESC, e.id DESC LIMIT ?`,
    [projectId, limit],
  );
}

/** How many public entries were published after `since` (all of them when null), up to `cap`. */
export async function countPublishedAfter(
  db: Queryable,
  projectId: string,
  since: string | null,
  cap: number,
): Promise<number> {
  const after = since === null ? '' : ' AND e.published_at > ?';
  const row = await db.get<{ n: number | string }>(
    `SELECT COUNT(*) AS n FROM (SELECT e.id FROM ${FROM} WHERE ${PUBLIC}${after} LIMIT ?) unread`,
    since === null ? [projectId, cap] : [projectId, since, cap],
  );
  return Number(row?.n ?? 0);
}

/** The newest public publication time, or null when nothing is published. */
export async function newestPublishedAt(db: Queryable, projectId: string): Promise<string | null> {
  const [row] = await listNewestPublished(db, projectId, 1);
  return row?.published_at ?? null;
}
