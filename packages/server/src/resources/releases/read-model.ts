/** The one read of the projects table (owned by resources/projects) that the version check needs. */
import type { Queryable } from '../../db/database.ts';

export async function projectExists(db: Queryable, projectId: string): Promise<boolean> {
  return (await db.get('SELECT id FROM projects WHERE id = ?', [projectId])) !== undefined;
}

/**
 * Releases the projects' live events and sessions reported since `since` (normalised versions: the
 * error groups' and release health's), per project: what the sightings worker checks. Sessions by
 * their hour index; events by each project's groups seen since then (their latest release).
 */
export async function releasesReportedSince(
  db: Queryable,
  since: string,
): Promise<{ project_id: string; version: string; source: 'events' | 'sessions' }[]> {
  const hour = `${since.slice(0, 13)}:00:00.000Z`;
  const sessions = await db.all<{ project_id: string; version: string }>(
    `SELECT DISTINCT project_id, release AS version FROM release_session_hours WHERE hour >= ? AND environment = 'live'`,
    [hour],
  );
  const projects = await db.all<{ id: string }>('SELECT id FROM projects');
  const events: { project_id: string; version: string }[] = [];
  for (const project of projects) {
    events.push(
      ...(await db.all<{ project_id: string; version: string }>(
        `SELECT DISTINCT project_id, last_release AS version FROM error_groups
          WHERE project_id = ? AND environment = 'live' AND last_seen_at >= ? AND last_release IS NOT NULL`,
        [project.id, since],
      )),
    );
  }
  return [
    ...events.map((row) => ({ ...row, source: 'events' as const })),
    ...sessions.map((row) => ({ ...row, source: 'sessions' as const })),
  ];
}
