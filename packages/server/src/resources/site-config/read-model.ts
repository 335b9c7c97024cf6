/**
 * The site-config columns of the projects table (owned by resources/projects): debug mode, when
 * the configuration last changed, and the version the public GET /site-config cache watches.
 */
import type { Queryable } from '../../db/database.ts';

export interface ProjectConfigState {
  id: string;
  debug_mode: number;
  config_updated_at: string;
  config_version: number;
}

/** undefined: no such project. */
export async function readProjectConfigState(
  db: Queryable,
  projectId: string,
): Promise<ProjectConfigState | undefined> {
  return db.get<ProjectConfigState>(
    'SELECT id, debug_mode, config_updated_at, config_version FROM projects WHERE id = ?',
    [projectId],
  );
}
