/** Projects as an account reaches them through its team memberships: reads that join `projects`. */
import type { Queryable } from '../../db/database.ts';
import type { Role } from '../../routing/management/context.ts';

/**
 * The project `projectId` (every column of `projects`, typed by the caller as `Project`) with the
 * account's role on the project's team, if the account is a member of that team.
 */
export async function findProjectMembership<Project extends object>(
  db: Queryable,
  accountId: string,
  projectId: string,
): Promise<(Project & { team_id: string; role: Role }) | undefined> {
  return db.get<Project & { team_id: string; role: Role }>(
    `SELECT p.*, m.role AS role
       FROM projects p JOIN team_members m ON m.team_id = p.team_id AND m.account_id = ?
      WHERE p.id = ?`,
    [accountId, projectId],
  );
}

/** Every project of the account's teams with its role there, by name (one row per membership). */
export async function listProjectMemberships(
  db: Queryable,
  accountId: string,
): Promise<Array<{ id: string; name: string; role: Role }>> {
  return db.all<{ id: string; name: string; role: Role }>(
    `SELECT p.id, p.name, m.role FROM projects p JOIN team_members m ON m.team_id = p.team_id AND m.account_id = ?
      ORDER BY p.name, p.id`,
    [accountId],
  );
}
