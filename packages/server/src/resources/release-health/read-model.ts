/** The one read of the releases table (owned by resources/releases) that release health needs. */
import type { Queryable } from '../../db/database.ts';

/** The project's registered releases with when they were created. */
export async function registeredReleases(
  db: Queryable,
  projectId: string,
): Promise<{ version: string; created_at: string }[]> {
  return db.all<{ version: string; created_at: string }>(
    'SELECT version, created_at FROM releases WHERE project_id = ?',
    [projectId],
  );
}
