/**
 * The one store of changelog_readers: how far each identified reader of "What's new" (the host
 * app's user id, from its signed token) has read a project's published changelog. The marker only
 * moves forward, so two tabs marking at once keep the later one.
 */
import type { Queryable } from '../../db/database.ts';
import { nowIso } from '../../kernel/ids.ts';

/** The publication time up to which the reader has seen the changelog; null: nothing seen yet. */
export async function readSeenThrough(db: Queryable, projectId: string, subject: string): Promise<string | null> {
  const row = await db.get<{ seen_through: string }>(
    'SELECT seen_through FROM changelog_readers WHERE project_id = ? AND subject = ?',
    [projectId, subject],
  );
  return row?.seen_through ?? null;
}

/** Moves the reader's marker to `through` unless it already lies further; the marker as stored. */
export async function markSeenThrough(
  db: Queryable,
  projectId: string,
  subject: string,
  through: string,
): Promise<string> {
  const [row] = await db.all<{ seen_through: string }>(
    `INSERT INTO changelog_readers (project_id, subject, seen_through, updated_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (project_id, subject) DO UPDATE SET
       seen_through = CASE WHEN excluded.seen_through > changelog_readers.seen_through
                           THEN excluded.seen_through ELSE changelog_readers.seen_through END,
       updated_at = excluded.updated_at
     RETURNING seen_through`,
    [projectId, subject, through, nowIso()],
  );
  return row!.seen_through;
}
