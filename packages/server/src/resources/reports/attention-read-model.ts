/**
 * Error groups that need someone's attention across every project of an account's teams (the
 * dashboard's home): regressed groups, and groups first seen in the last days still open, of the
 * live key environment, latest first. Reads `projects` (resources/projects) and `team_members`
 * (resources/teams) to find the account's projects; one index range of error_groups per project
 * (project, environment, last seen), cut at `limit`.
 */
import type { Database } from '../../db/database.ts';

/** How long a new group stays on Home while it is open. */
export const NEW_GROUP_DAYS = 7;

export interface AttentionGroupRow {
  id: string;
  project_id: string;
  project_name: string;
  title: string;
  status: string;
  sdk_environment: string;
  level: string;
  events: number | string;
  first_seen_at: string;
  last_seen_at: string;
}

/** Regressed groups, and new (open, first seen within NEW_GROUP_DAYS) ones, latest seen first. */
export async function listErrorGroupsNeedingAttention(
  db: Database,
  accountId: string,
  limit: number,
  now = new Date(),
): Promise<AttentionGroupRow[]> {
  const since = new Date(now.getTime() - NEW_GROUP_DAYS * 86_400_000).toISOString();
  return db.all<AttentionGroupRow>(
    `SELECT g.id, g.project_id, p.name AS project_name, g.title, g.status, g.sdk_environment, g.level, g.events,
            g.first_seen_at, g.last_seen_at
       FROM projects p
       JOIN team_members m ON m.team_id = p.team_id AND m.account_id = ?
       JOIN error_groups g ON g.project_id = p.id AND g.environment = 'live'
      WHERE g.merged_into IS NULL
        AND (g.status = 'regressed' OR (g.status = 'open' AND g.first_seen_at >= ?))
      ORDER BY g.last_seen_at DESC, g.id DESC
      LIMIT ?`,
    [accountId, since, limit],
  );
}
