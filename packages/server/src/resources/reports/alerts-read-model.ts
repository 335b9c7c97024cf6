/**
 * What error alerts read of other resources' tables: the members of a project's team (projects,
 * team_members, accounts), to check a rule's recipients and address its e-mails. Never writes.
 */
import type { Queryable } from '../../db/database.ts';

export interface AlertRecipient {
  id: string;
  email: string;
  projectName: string;
}

/** Those of `accountIds` that are members of the project's team now, with their address. */
export async function teamRecipients(
  db: Queryable,
  projectId: string,
  accountIds: readonly string[],
): Promise<AlertRecipient[]> {
  if (accountIds.length === 0) return [];
  const rows = await db.all<{ id: string; email: string; name: string }>(
    `SELECT a.id, a.email, p.name FROM projects p
       JOIN team_members m ON m.team_id = p.team_id
       JOIN accounts a ON a.id = m.account_id
      WHERE p.id = ? AND a.id IN (${accountIds.map(() => '?').join(', ')})
      ORDER BY a.email`,
    [projectId, ...accountIds],
  );
  return rows.map((row) => ({ id: row.id, email: row.email, projectName: row.name }));
}
