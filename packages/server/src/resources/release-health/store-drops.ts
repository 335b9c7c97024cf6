/** The only SQL on release_health_settings and release_health_drops (issue 33). */
import type { Queryable } from '../../db/database.ts';
import { nowIso } from '../../kernel/ids.ts';

export interface DropSettings {
  /** Basis points of a rate: 9900 is 99.00 %. */
  crashFreeThresholdBp: number;
  maxDropBp: number;
  minSessions: number;
}

export const DEFAULT_DROP_SETTINGS: DropSettings = { crashFreeThresholdBp: 9900, maxDropBp: 500, minSessions: 10 };

export async function dropSettingsOf(db: Queryable, projectId: string): Promise<DropSettings> {
  const row = await db.get<{ crash_free_threshold_bp: number; max_drop_bp: number; min_sessions: number }>(
    'SELECT crash_free_threshold_bp, max_drop_bp, min_sessions FROM release_health_settings WHERE project_id = ?',
    [projectId],
  );
  return row
    ? {
        crashFreeThresholdBp: Number(row.crash_free_threshold_bp),
        maxDropBp: Number(row.max_drop_bp),
        minSessions: Number(row.min_sessions),
      }
    : DEFAULT_DROP_SETTINGS;
}

export async function saveDropSettings(db: Queryable, projectId: string, settings: DropSettings): Promise<void> {
  await db.run(
    `INSERT INTO release_health_settings (project_id, crash_free_threshold_bp, max_drop_bp, min_sessions, updated_at)
     VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (project_id) DO UPDATE SET crash_free_threshold_bp = excluded.crash_free_threshold_bp,
       max_drop_bp = excluded.max_drop_bp, min_sessions = excluded.min_sessions, updated_at = excluded.updated_at`,
    [projectId, settings.crashFreeThresholdBp, settings.maxDropBp, settings.minSessions, nowIso()],
  );
}

export type DropReason = 'threshold' | 'previous';

/**
 * Marks a release dropped (active) or recovered for one reason; true when it was not dropped
 * before and now is (the pass tells it). Concurrent passes: the conditional update lets one win.
 */
export async function markDrop(
  tx: Queryable,
  key: { projectId: string; environment: string; release: string; reason: DropReason },
  dropped: boolean,
): Promise<boolean> {
  const params = [key.projectId, key.environment, key.release, key.reason];
  if (!dropped) {
    await tx.run(
      `UPDATE release_health_drops SET active = 0, changed_at = ?
        WHERE project_id = ? AND environment = ? AND release = ? AND reason = ? AND active = 1`,
      [nowIso(), ...params],
    );
    return false;
  }
  const { changes } = await tx.run(
    `INSERT INTO release_health_drops (project_id, environment, release, reason, active, changed_at)
     VALUES (?, ?, ?, ?, 1, ?)
     ON CONFLICT (project_id, environment, release, reason) DO UPDATE SET active = 1, changed_at = excluded.changed_at
       WHERE release_health_drops.active = 0`,
    [...params, nowIso()],
  );
  return changes === 1;
}

/** Releases with sessions counted in hours from `sinceHour` on: the ones a pass judges. */
export function releasesWithSessionsSince(
  db: Queryable,
  sinceHour: string,
): Promise<{ project_id: string; environment: string; release: string }[]> {
  return db.all('SELECT DISTINCT project_id, environment, release FROM release_session_hours WHERE hour >= ?', [
    sinceHour,
  ]);
}
