/** Releases a project publishes for the public version check. */
import semver from 'semver';
import { bool, type Queryable } from '../../db/database.ts';
import { newId, nowIso } from '../../kernel/ids.ts';
import { Assignments } from '../../db/assignments.ts';

export interface ReleaseRow {
  id: string;
  project_id: string;
  version: string;
  title: string;
  release_notes: string;
  download_url: string;
  release_date: string;
  is_beta: number;
  git_commit: string | null;
  required: number;
  created_at: string;
}

export interface ReleaseFields {
  version?: string | undefined;
  title?: string | undefined;
  releaseNotes?: string | undefined;
  downloadUrl?: string | undefined;
  releaseDate?: string | undefined;
  isBeta?: boolean | undefined;
  gitCommit?: string | null | undefined;
  required?: boolean | undefined;
}

/** Every release of the project, in no particular order (the version check needs no order). */
export async function releasesOf(db: Queryable, projectId: string): Promise<ReleaseRow[]> {
  return db.all<ReleaseRow>('SELECT * FROM releases WHERE project_id = ?', [projectId]);
}

/** Newest version first (SemVer order, not the order they were entered in). */
export async function listReleases(db: Queryable, projectId: string): Promise<ReleaseRow[]> {
  return (await releasesOf(db, projectId)).sort((a, b) => semver.rcompare(a.version, b.version));
}

export async function getRelease(db: Queryable, projectId: string, version: string): Promise<ReleaseRow | undefined> {
  return db.get<ReleaseRow>('SELECT * FROM releases WHERE project_id = ? AND version = ?', [projectId, version]);
}

/** false when the project already has this version. */
export async function insertRelease(
  db: Queryable,
  projectId: string,
  input: ReleaseFields & { version: string },
): Promise<boolean> {
  const now = nowIso();
  const rows = await db.all<{ id: string }>(
    `INSERT INTO releases (id, project_id, version, title, release_notes, download_url, release_date, is_beta, git_commit, required, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (project_id, version) DO NOTHING RETURNING id`,
    [
      newId('rel'),
      projectId,
      input.version,
      input.title ?? '',
      input.releaseNotes ?? '',
      input.downloadUrl ?? '',
      input.releaseDate ?? now,
      bool(input.isBeta ?? semver.prerelease(input.version) !== null),
      input.gitCommit ?? null,
      bool(input.required ?? false),
      now,
    ],
  );
  return rows.length === 1;
}

export async function updateRelease(
  db: Queryable,
  projectId: string,
  version: string,
  changes: ReleaseFields,
): Promise<boolean> {
  const columns = new Assignments();
  columns.set('version', changes.version);
  columns.set('title', changes.title);
  columns.set('release_notes', changes.releaseNotes);
  columns.set('download_url', changes.downloadUrl);
  columns.set('release_date', changes.releaseDate);
  columns.set('is_beta', changes.isBeta === undefined ? undefined : bool(changes.isBeta));
  columns.set('git_commit', changes.gitCommit);
  columns.set('required', changes.required === undefined ? undefined : bool(changes.required));
  if (columns.empty) return (await getRelease(db, projectId, version)) !== undefined;
  const { changes: n } = await db.run(`UPDATE releases SET ${columns.sql} WHERE project_id = ? AND version = ?`, [
    ...columns.params,
    projectId,
    version,
  ]);
  return n === 1;
}

export async function deleteRelease(db: Queryable, projectId: string, version: string): Promise<boolean> {
  const { changes } = await db.run('DELETE FROM releases WHERE project_id = ? AND version = ?', [projectId, version]);
  return changes === 1;
}
