/** The only SQL on release_sightings: releases first seen in events or sessions (issue 33). */
import type { Queryable } from '../../db/database.ts';
import { nowIso } from '../../kernel/ids.ts';

export type SightingSource = 'events' | 'sessions';

export interface SightingRow {
  version: string;
  source: SightingSource;
  first_seen_at: string;
}

/** true when this is the version's first sighting in the project. */
export async function insertSighting(
  db: Queryable,
  projectId: string,
  version: string,
  source: SightingSource,
): Promise<boolean> {
  const { changes } = await db.run(
    `INSERT INTO release_sightings (project_id, version, source, first_seen_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (project_id, version) DO NOTHING`,
    [projectId, version, source, nowIso()],
  );
  return changes === 1;
}

/** The project's sightings of versions no release was created for, first seen first. */
export function uncreatedSightings(db: Queryable, projectId: string): Promise<SightingRow[]> {
  return db.all<SightingRow>(
    `SELECT s.version, s.source, s.first_seen_at FROM release_sightings s
      WHERE s.project_id = ? AND NOT EXISTS (SELECT 1 FROM releases r WHERE r.project_id = s.project_id AND r.version = s.version)
      ORDER BY s.first_seen_at, s.version`,
    [projectId],
  );
}

/** Which of `versions` the project has seen or created already (one read per candidate batch). */
export async function knownVersions(db: Queryable, projectId: string, versions: string[]): Promise<Set<string>> {
  if (versions.length === 0) return new Set();
  const marks = versions.map(() => '?').join(', ');
  const rows = await db.all<{ version: string }>(
    `SELECT version FROM release_sightings WHERE project_id = ? AND version IN (${marks})
     UNION SELECT version FROM releases WHERE project_id = ? AND version IN (${marks})`,
    [projectId, ...versions, projectId, ...versions],
  );
  return new Set(rows.map((row) => row.version));
}
