/**
 * The upkeep of log_lines and log_volume (issue 32), in bounded batches the lines worker runs:
 * lines past the retention (by their own time) are deleted, a group over its cap keeps its
 * newest `perGroup` lines and its first, per-minute counts older than MINUTE_VOLUME_HOURS go.
 * Every statement touches at most BATCH rows, found through an index.
 */
import type { Queryable } from '../../db/database.ts';

export const BATCH = 1000;

/** The projects that have log groups (the worker goes project by project, on the project's time index). */
export async function projectsWithLogs(db: Queryable): Promise<string[]> {
  const rows = await db.all<{ project_id: string }>('SELECT DISTINCT project_id FROM log_groups');
  return rows.map((row) => row.project_id);
}

/** Deletes up to BATCH of the project's lines older than `before`; returns how many. */
export async function expireLines(db: Queryable, projectId: string, before: string): Promise<number> {
  const result = await db.run(
    `DELETE FROM log_lines WHERE id IN (
      SELECT id FROM log_lines WHERE project_id = ? AND ts < ? ORDER BY ts, id LIMIT ${BATCH})`,
    [projectId, before],
  );
  return result.changes;
}

/** Groups of the project seen since `since` that may hold more than `perGroup` lines. */
export async function groupsOverCap(
  db: Queryable,
  projectId: string,
  since: string,
  perGroup: number,
): Promise<string[]> {
  const rows = await db.all<{ id: string }>(
    'SELECT id FROM log_groups WHERE project_id = ? AND last_seen_at >= ? AND occurrences > ?',
    [projectId, since, perGroup + 1],
  );
  return rows.map((row) => row.id);
}

/**
 * Deletes up to BATCH of a group's lines older than its newest `perGroup`, its first line kept;
 * returns how many.
 */
export async function capGroupLines(db: Queryable, groupId: string, perGroup: number): Promise<number> {
  const edge = await db.get<{ ts: string; id: string | number }>(
    'SELECT ts, id FROM log_lines WHERE group_id = ? ORDER BY ts DESC, id DESC LIMIT 1 OFFSET ?',
    [groupId, perGroup - 1],
  );
  if (!edge) return 0;
  const first = await db.get<{ id: string | number }>(
    'SELECT id FROM log_lines WHERE group_id = ? ORDER BY ts, id LIMIT 1',
    [groupId],
  );
  const result = await db.run(
    `DELETE FROM log_lines WHERE id IN (
      SELECT id FROM log_lines WHERE group_id = ? AND (ts, id) < (?, CAST(? AS BIGINT)) AND id <> CAST(? AS BIGINT)
      ORDER BY ts, id LIMIT ${BATCH})`,
    [groupId, edge.ts, String(edge.id), String(first!.id)],
  );
  return result.changes;
}

/** Deletes the project's per-minute counts before `bucket` ('YYYY-MM-DDTHH:MM'). */
export async function pruneMinuteVolume(db: Queryable, projectId: string, bucket: string): Promise<number> {
  let deleted = 0;
  for (const unit of ['m', 'M'])
    deleted += (
      await db.run('DELETE FROM log_volume WHERE project_id = ? AND unit = ? AND bucket < ?', [projectId, unit, bucket])
    ).changes;
  return deleted;
}
