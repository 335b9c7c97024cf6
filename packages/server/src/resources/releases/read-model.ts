/** The one read of the projects table (owned by resources/projects) that the version check needs. */
import type { Queryable } from '../../db/database.ts';

export async function projectExists(db: Queryable, projectId: string): Promise<boolean> {
  return (await db.get('SELECT id FROM projects WHERE id = ?', [projectId])) !== undefined;
}
