/** The one shape of a release: the management API shows it whole, the version check decides on it. */
import { isTrue } from '../../db/database.ts';
import type { ReleaseRow } from './store.ts';

export function presentRelease(row: ReleaseRow) {
  return {
    id: row.id,
    projectId: row.project_id,
    version: row.version,
    title: row.title,
    releaseNotes: row.release_notes,
    downloadUrl: row.download_url,
    releaseDate: row.release_date,
    isBeta: isTrue(row.is_beta),
    gitCommit: row.git_commit,
    required: isTrue(row.required),
    createdAt: row.created_at,
  };
}
