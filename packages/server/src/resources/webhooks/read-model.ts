/**
 * What webhooks read of other resources' tables: an idea's title (features) for a comment's
 * message, and the addresses of a project's team (projects, team_members, accounts) to tell of a
 * disabled endpoint. Never writes.
 */
import type { Queryable } from '../../db/database.ts';

export async function featureTitle(db: Queryable, featureId: string): Promise<string | undefined> {
  const row = await db.get<{ title: string }>('SELECT title FROM features WHERE id = ?', [featureId]);
  return row?.title;
}

/** The project's name and the e-mail addresses of its team's members (owners and admins first). */
export async function projectTeam(
  db: Queryable,
  projectId: string,
): Promise<{ name: string; emails: string[] } | undefined> {
  const project = await db.get<{ name: string }>('SELECT name FROM projects WHERE id = ?', [projectId]);
  if (!project) return undefined;
  const rows = await db.all<{ email: string }>(
    `SELECT a.email FROM projects p
       JOIN team_members m ON m.team_id = p.team_id
       JOIN accounts a ON a.id = m.account_id
      WHERE p.id = ?
      ORDER BY CASE m.role WHEN 'owner' THEN 0 WHEN 'admin' THEN 1 ELSE 2 END, a.email`,
    [projectId],
  );
  return { name: project.name, emails: rows.map((row) => row.email) };
}
