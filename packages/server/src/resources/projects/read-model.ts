/**
 * Reads of projects that join the teams' tables (teams, team_members: owned by resources/teams).
 * Kept here, as a read model, until resources/teams exports them.
 */
import type { Queryable, SqlValue } from '../../db/database.ts';
import type { ProjectAccess } from '../../management/access.ts';

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

/** The first team the account owns: where a new project goes when the request names none. */
export async function firstOwnedTeamId(db: Queryable, accountId: string): Promise<string | undefined> {
  const row = await db.get<{ id: string }>('SELECT id FROM teams WHERE owner_account_id = ? ORDER BY created_at, id LIMIT 1', [accountId]);
  return row?.id;
}
