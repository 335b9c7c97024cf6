/**
 * Reads of projects that join a team's members (team_members is owned by resources/teams).
 */
import type { Queryable, SqlValue } from '../../db/database.ts';
import type { ProjectAccess } from '../../routing/management/access.ts';

export async function listProjectsOf(db: Queryable, accountId: string, teamId?: string): Promise<ProjectAccess[]> {
  const params: SqlValue[] = [accountId];
  let sql = `SELECT p.*, m.role AS role FROM projects p JOIN team_members m ON m.team_id = p.team_id
              WHERE m.account_id = ?`;
  if (teamId) {
    sql += ' AND p.team_id = ?';
    params.push(teamId);
  }
  return db.all<ProjectAccess>(`${sql} ORDER BY p.created_at, p.id`, params);
}
