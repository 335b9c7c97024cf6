/**
 * The only code that runs SQL on `source_map_artifacts` and `source_map_blobs`: a project's
 * uploaded source maps and minified files, their contents stored once per checksum.
 */
import type { Queryable } from '../../db/database.ts';
import { newId, nowIso } from '../../kernel/ids.ts';
import { placeholders } from '../../db/database.ts';
import type { ArtifactKind } from './content.ts';

export interface ArtifactRow {
  id: string;
  project_id: string;
  release: string;
  dist: string;
  name: string;
  kind: ArtifactKind;
  debug_id: string | null;
  source_map_url: string | null;
  checksum: string;
  size: number;
  created_at: string;
}

export interface NewArtifact {
  release: string;
  dist: string;
  name: string;
  kind: ArtifactKind;
  debugId: string | null;
  sourceMapUrl: string | null;
  checksum: string;
  size: number;
  /** gzip of the content; written only when the project does not hold this checksum yet. */
  content: Uint8Array;
}

const COLUMNS = 'id, project_id, release, dist, name, kind, debug_id, source_map_url, checksum, size, created_at';

/**
 * Stores the files in one transaction: each content once per checksum, each artifact replacing
 * the one of the same release, dist and name. Blobs no longer referenced are removed.
 */
export async function putArtifacts(db: Queryable, projectId: string, files: NewArtifact[]): Promise<ArtifactRow[]> {
  const now = nowIso();
  const stored: ArtifactRow[] = [];
  const replaced: string[] = [];
  for (const file of files) {
    await db.run(
      `INSERT INTO source_map_blobs (project_id, checksum, content, size, stored_size, created_at)
       VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (project_id, checksum) DO NOTHING`,
      [projectId, file.checksum, file.content, file.size, file.content.byteLength, now],
    );
    const previous = await db.all<{ checksum: string }>(
      'SELECT checksum FROM source_map_artifacts WHERE project_id = ? AND release = ? AND dist = ? AND name = ?',
      [projectId, file.release, file.dist, file.name],
    );
    for (const row of previous) replaced.push(row.checksum);
    const rows = await db.all<ArtifactRow>(
      `INSERT INTO source_map_artifacts (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (project_id, release, dist, name) DO UPDATE SET
         kind = excluded.kind, debug_id = excluded.debug_id, source_map_url = excluded.source_map_url,
         checksum = excluded.checksum, size = excluded.size, created_at = excluded.created_at
       RETURNING ${COLUMNS}`,
      [
        newId('sma'),
        projectId,
        file.release,
        file.dist,
        file.name,
        file.kind,
        file.debugId,
        file.sourceMapUrl,
        file.checksum,
        file.size,
        now,
      ],
    );
    stored.push(rows[0]!);
  }
  await dropUnreferencedBlobs(db, projectId, replaced);
  return stored;
}

async function dropUnreferencedBlobs(db: Queryable, projectId: string, checksums: string[]): Promise<void> {
  const unique = [...new Set(checksums)];
  if (unique.length === 0) return;
  await db.run(
    `DELETE FROM source_map_blobs WHERE project_id = ? AND checksum IN (${placeholders(unique.length)})
       AND NOT EXISTS (SELECT 1 FROM source_map_artifacts a
                        WHERE a.project_id = source_map_blobs.project_id AND a.checksum = source_map_blobs.checksum)`,
    [projectId, ...unique],
  );
}

export interface ArtifactFilter {
  release?: string | undefined;
  dist?: string | undefined;
  debugId?: string | undefined;
}

/** A project's artifacts, newest first, at most `limit`. */
export async function listArtifacts(
  db: Queryable,
  projectId: string,
  filter: ArtifactFilter,
  limit: number,
): Promise<ArtifactRow[]> {
  const where = ['project_id = ?'];
  const params: (string | number)[] = [projectId];
  if (filter.release !== undefined) {
    where.push('release = ?');
    params.push(filter.release);
  }
  if (filter.dist !== undefined) {
    where.push('dist = ?');
    params.push(filter.dist);
  }
  if (filter.debugId !== undefined) {
    where.push('debug_id = ?');
    params.push(filter.debugId);
  }
  return db.all<ArtifactRow>(
    `SELECT ${COLUMNS} FROM source_map_artifacts WHERE ${where.join(' AND ')}
     ORDER BY created_at DESC, name LIMIT ?`,
    [...params, limit],
  );
}

/** Deletes one artifact (and its content when nothing else uses it); false when there was none. */
export async function deleteArtifact(db: Queryable, projectId: string, id: string): Promise<boolean> {
  const rows = await db.all<{ checksum: string }>(
    'DELETE FROM source_map_artifacts WHERE project_id = ? AND id = ? RETURNING checksum',
    [projectId, id],
  );
  await dropUnreferencedBlobs(
    db,
    projectId,
    rows.map((row) => row.checksum),
  );
  return rows.length === 1;
}

/** Deletes every artifact of a release (and dist); the number deleted. */
export async function deleteReleaseArtifacts(
  db: Queryable,
  projectId: string,
  release: string,
  dist: string | undefined,
): Promise<number> {
  const rows = await db.all<{ checksum: string }>(
    `DELETE FROM source_map_artifacts WHERE project_id = ? AND release = ?${dist === undefined ? '' : ' AND dist = ?'}
     RETURNING checksum`,
    dist === undefined ? [projectId, release] : [projectId, release, dist],
  );
  await dropUnreferencedBlobs(
    db,
    projectId,
    rows.map((row) => row.checksum),
  );
  return rows.length;
}

/** The artifact of a kind with this debug ID (the newest when uploaded twice). */
export async function artifactByDebugId(
  db: Queryable,
  projectId: string,
  debugId: string,
  kind: ArtifactKind,
): Promise<ArtifactRow | undefined> {
  const rows = await db.all<ArtifactRow>(
    `SELECT ${COLUMNS} FROM source_map_artifacts WHERE project_id = ? AND debug_id = ? AND kind = ?
     ORDER BY created_at DESC LIMIT 1`,
    [projectId, debugId, kind],
  );
  return rows[0];
}

/**
 * The first of `names` (in that order of preference) that the release and dist have; `releases`
 * are the release's spellings (kernel/release.ts), the one as sent preferred.
 */
export async function artifactByNames(
  db: Queryable,
  projectId: string,
  releases: string[],
  dist: string,
  names: string[],
): Promise<ArtifactRow | undefined> {
  if (names.length === 0 || releases.length === 0) return undefined;
  const rows = await db.all<ArtifactRow>(
    `SELECT ${COLUMNS} FROM source_map_artifacts
      WHERE project_id = ? AND release IN (${placeholders(releases.length)}) AND dist = ?
        AND name IN (${placeholders(names.length)})`,
    [projectId, ...releases, dist, ...names],
  );
  for (const release of releases) {
    for (const name of names) {
      const row = rows.find((candidate) => candidate.name === name && candidate.release === release);
      if (row) return row;
    }
  }
  return undefined;
}

/** A content by checksum, still compressed. */
export async function blobContent(db: Queryable, projectId: string, checksum: string): Promise<Uint8Array | undefined> {
  const rows = await db.all<{ content: Uint8Array }>(
    'SELECT content FROM source_map_blobs WHERE project_id = ? AND checksum = ?',
    [projectId, checksum],
  );
  return rows[0]?.content;
}

/** Bytes a project's stored contents take (compressed) and their uncompressed size. */
export async function storedBytes(db: Queryable, projectId: string): Promise<{ stored: number; size: number }> {
  const rows = await db.all<{ stored: number | null; size: number | null }>(
    'SELECT SUM(stored_size) AS stored, SUM(size) AS size FROM source_map_blobs WHERE project_id = ?',
    [projectId],
  );
  return { stored: Number(rows[0]?.stored ?? 0), size: Number(rows[0]?.size ?? 0) };
}
