/**
 * The one version check: the public GET /version-check and the management preview
 * (GET /projects/{id}/releases/check) both answer with this, so the preview cannot drift. The
 * public check also counts the client's version for adoption (release health), in memory.
 */
import type { Database, Queryable } from '../../db/database.ts';
import { countVersionCheck } from '../release-health/index.ts';
import { decideVersion, resolveClientVersion, type VersionInfo } from './decide.ts';
import { presentRelease } from './presenter.ts';
import { releasesOf } from './store.ts';

export async function checkVersion(
  db: Queryable,
  projectId: string,
  currentVersion: string | undefined,
  count?: Database,
): Promise<VersionInfo> {
  const releases = (await releasesOf(db, projectId)).map(presentRelease);
  if (count) {
    // Only a known release is counted: the check has no key, so a caller cannot grow the table.
    const version = resolveClientVersion(currentVersion, releases);
    if (version !== undefined && releases.some((release) => release.version === version)) {
      countVersionCheck(count, projectId, version);
    }
  }
  return decideVersion(currentVersion, releases);
}
