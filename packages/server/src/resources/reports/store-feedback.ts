/**
 * Sentry user feedback on error groups (issue 31): the group of an event by its id, the link of a
 * feedback's bug report to that group, and a group's feedback. Tables of this resource
 * (bug_reports, error_events, error_groups).
 */
import type { Queryable } from '../../db/database.ts';

/** The group shown for the project's event `eventId` (a merged group's target), if it is kept. */
export async function groupOfEvent(db: Queryable, projectId: string, eventId: string): Promise<string | undefined> {
  const row = await db.get<{ id: string }>(
    `SELECT COALESCE(g.merged_into, g.id) AS id FROM error_events e JOIN error_groups g ON g.id = e.group_id
      WHERE e.event_id = ? AND g.project_id = ? LIMIT 1`,
    [eventId, projectId],
  );
  return row?.id;
}

/**
 * The group shown for an error the reporter had just hit, named by what the SDK got back: an
 * error report's id (POST /errors) or a Sentry event id (32 hex digits, dashes or not).
 */
export async function groupOfErrorRef(db: Queryable, projectId: string, ref: string): Promise<string | undefined> {
  const report = await db.get<{ id: string | null }>(
    `SELECT COALESCE(g.merged_into, g.id) AS id FROM error_reports r JOIN error_groups g ON g.id = r.group_id
      WHERE r.id = ? AND r.project_id = ?`,
    [ref, projectId],
  );
  if (report?.id) return report.id;
  const hex = ref.replaceAll('-', '').toLowerCase();
  return /^[0-9a-f]{32}$/.test(hex) ? groupOfEvent(db, projectId, hex) : undefined;
}

export async function linkBugToErrorGroup(tx: Queryable, bugId: string, groupId: string): Promise<void> {
  await tx.run('UPDATE bug_reports SET error_group_id = ? WHERE id = ?', [groupId, bugId]);
}

export interface FeedbackRow {
  id: string;
  message: string;
  metadata: string | null;
  status: string;
  first_seen_at: string;
}

/** The feedback bug reports linked to any of `groupIds` (a group and the ones merged into it), newest first. */
export async function listGroupFeedback(
  db: Queryable,
  groupIds: readonly string[],
  limit = 100,
): Promise<FeedbackRow[]> {
  if (groupIds.length === 0) return [];
  return db.all<FeedbackRow>(
    `SELECT id, message, metadata, status, first_seen_at FROM bug_reports
      WHERE error_group_id IN (${groupIds.map(() => '?').join(', ')})
      ORDER BY first_seen_at DESC, id DESC LIMIT ?`,
    [...groupIds, limit],
  );
}
