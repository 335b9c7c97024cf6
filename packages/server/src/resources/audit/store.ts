/**
 * The store of `audit_entries` (the audit log) and `audit_settings` (a project's retention): the
 * only code that runs SQL on these two tables.
 */
import type { Queryable, SqlValue } from '../../db/database.ts';
import { Where } from '../../db/query.ts';

export interface AuditRow {
  id: string;
  team_id: string | null;
  project_id: string | null;
  at: string;
  actor_type: string;
  actor_id: string | null;
  actor_label: string;
  via: string;
  action: string;
  target_type: string;
  target_id: string | null;
  before_state: string | null;
  after_state: string | null;
}

export async function insertEntry(tx: Queryable, row: AuditRow): Promise<void> {
  await tx.run(
    `INSERT INTO audit_entries (id, team_id, project_id, at, actor_type, actor_id, actor_label, via, action,
       target_type, target_id, before_state, after_state)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      row.id,
      row.team_id,
      row.project_id,
      row.at,
      row.actor_type,
      row.actor_id,
      row.actor_label,
      row.via,
      row.action,
      row.target_type,
      row.target_id,
      row.before_state,
      row.after_state,
    ],
  );
}

export interface AuditFilter {
  /** An account, key or grant id, or an actor's label (an e-mail). */
  actor?: string | undefined;
  action?: string | undefined;
  targetType?: string | undefined;
  targetId?: string | undefined;
  /** At or after (ISO). */
  since?: string | undefined;
  /** Before (ISO). */
  until?: string | undefined;
}

export interface AuditCursor {
  at: string;
  id: string;
}

const COLUMNS = `id, team_id, project_id, at, actor_type, actor_id, actor_label, via, action, target_type,
  target_id, before_state, after_state`;

function conditions(where: Where, filter: AuditFilter, cursor: AuditCursor | undefined): Where {
  where
    .when(filter.actor, '(actor_id = ? OR actor_label = ?)', filter.actor ?? null, filter.actor ?? null)
    .when(filter.action, 'action = ?', filter.action ?? null)
    .when(filter.targetType, 'target_type = ?', filter.targetType ?? null)
    .when(filter.targetId, 'target_id = ?', filter.targetId ?? null)
    .when(filter.since, 'at >= ?', filter.since ?? null)
    .when(filter.until, 'at < ?', filter.until ?? null);
  if (cursor) where.add('(at, id) < (?, ?)', cursor.at, cursor.id);
  return where;
}

/**
 * The newest `limit` entries of a project, its own and its team's, after `cursor`. Two range reads
 * of one index each (project, then team-wide) merged: a page deep in the log costs what the first
 * does, where an OR over both would scan.
 */
export async function listEntries(
  db: Queryable,
  scope: { projectId: string; teamId: string },
  filter: AuditFilter,
  cursor: AuditCursor | undefined,
  limit: number,
): Promise<AuditRow[]> {
  const own = conditions(new Where('project_id = ?', scope.projectId), filter, cursor);
  const team = conditions(new Where('project_id IS NULL AND team_id = ?', scope.teamId), filter, cursor);
  const params: SqlValue[] = [...own.params, limit, ...team.params, limit, limit];
  return db.all<AuditRow>(
    `SELECT ${COLUMNS} FROM (
       SELECT * FROM (SELECT ${COLUMNS} FROM audit_entries WHERE ${own.sql} ORDER BY at DESC, id DESC LIMIT ?) own_entries
       UNION ALL
       SELECT * FROM (SELECT ${COLUMNS} FROM audit_entries WHERE ${team.sql} ORDER BY at DESC, id DESC LIMIT ?) team_entries
     ) entries ORDER BY at DESC, id DESC LIMIT ?`,
    params,
  );
}

// Retention

export async function getRetention(db: Queryable, projectId: string): Promise<number | undefined> {
  const row = await db.get<{ retention_days: number }>(
    'SELECT retention_days FROM audit_settings WHERE project_id = ?',
    [projectId],
  );
  return row === undefined ? undefined : Number(row.retention_days);
}

export async function putRetention(tx: Queryable, projectId: string, days: number, now: string): Promise<void> {
  await tx.run(
    `INSERT INTO audit_settings (project_id, retention_days, updated_at) VALUES (?, ?, ?)
     ON CONFLICT (project_id) DO UPDATE SET retention_days = excluded.retention_days, updated_at = excluded.updated_at`,
    [projectId, days, now],
  );
}

export async function retentionSettings(db: Queryable): Promise<Array<{ project_id: string; retention_days: number }>> {
  return db.all('SELECT project_id, retention_days FROM audit_settings ORDER BY project_id');
}

/** Whether any entry is older than `before` (one index probe), so an idle pass writes nothing. */
export async function anyOlderThan(db: Queryable, before: string): Promise<boolean> {
  return (await db.get('SELECT 1 AS found FROM audit_entries WHERE at < ? LIMIT 1', [before])) !== undefined;
}

/** Deletes up to `limit` entries of a project older than `before`; returns how many. */
export async function pruneProjectBatch(db: Queryable, projectId: string, before: string, limit: number) {
  return db.run(
    `DELETE FROM audit_entries WHERE id IN (
       SELECT id FROM audit_entries WHERE project_id = ? AND at < ? ORDER BY at LIMIT ?)`,
    [projectId, before, limit],
  );
}

/**
 * Deletes up to `limit` entries older than `before` that follow the default retention: team-wide
 * ones and those of projects without a setting.
 */
export async function pruneDefaultBatch(db: Queryable, before: string, limit: number) {
  return db.run(
    `DELETE FROM audit_entries WHERE id IN (
       SELECT e.id FROM audit_entries e WHERE e.at < ?
         AND (e.project_id IS NULL
              OR NOT EXISTS (SELECT 1 FROM audit_settings s WHERE s.project_id = e.project_id))
       ORDER BY e.at LIMIT ?)`,
    [before, limit],
  );
}
