/**
 * The one version check: the public GET /version-check and the management preview
 * (GET /projects/{id}/releases/check) both answer with this, so the preview cannot drift.
 */
import type { Queryable } from '../../db/database.ts';
import { decideVersion, type VersionInfo } from './decide.ts';
import { presentRelease } from './presenter.ts';
import { releasesOf } from './store.ts';

export async function checkVersion(
  db: Queryable,
  projectId: string,
  currentVersion: string | undefined,
): Promise<VersionInfo> {
  const releases = (await releasesOf(db, projectId)).map(presentRelease);
  return decideVersion(currentVersion, releases);
}
