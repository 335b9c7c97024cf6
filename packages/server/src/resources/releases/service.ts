/**
 * Creating a release, the use case the management API's POST /releases and the MCP tool
 * `releases` share: the version must be SemVer (stored normalised) and new to the project.
 */
import semver from 'semver';
import type { Database } from '../../db/database.ts';
import { emitDomainEvent } from '../../db/domain-events.ts';
import { isoOrNull } from '../../db/query.ts';
import { BadRequestError, ConflictError } from '../../kernel/errors.ts';
import { changes, recordAudit } from '../audit/index.ts';
import { presentRelease } from './presenter.ts';
import {
  deleteRelease,
  getRelease,
  insertRelease,
  listReleases,
  updateRelease,
  type ReleaseFields,
  type ReleaseRow,
} from './store.ts';
import { uncreatedSightings } from './store-sightings.ts';

/** The normalised SemVer (`v1.2.3` → `1.2.3`), or a 400 naming the field. */
export function requireSemver(raw: string, field: string): string {
  const version = semver.valid(raw);
  if (!version) {
    throw new BadRequestError(`Invalid field ${field}: must be a SemVer version such as 1.4.0 or 2.0.0-beta.1`, [
      { field, message: 'must be a SemVer version such as 1.4.0 or 2.0.0-beta.1' },
    ]);
  }
  return version;
}

/**
 * The new release; a 409 when the project has that version. It goes live in its transaction:
 * `release.created` ships what was resolved in it (resources/release-hub) and queues webhooks.
 */
export async function createRelease(
  db: Database,
  projectId: string,
  input: ReleaseFields & { version: string },
): Promise<ReleaseRow> {
  const version = requireSemver(input.version, 'version');
  const created = await db.transaction(async (tx) => {
    const inserted = await insertRelease(tx, projectId, {
      ...input,
      version,
      releaseDate: input.releaseDate === undefined ? undefined : isoOrNull(input.releaseDate)!,
      gitCommit: input.gitCommit?.toLowerCase() ?? null,
    });
    if (inserted) {
      await emitDomainEvent(tx, 'release.created', { projectId, version, title: input.title ?? '' });
      const row = (await getRelease(tx, projectId, version))!;
      await recordAudit(tx, {
        projectId,
        action: 'release.created',
        target: { type: 'release', id: row.id },
        after: presentRelease(row),
      });
    }
    return inserted;
  });
  if (!created) throw new ConflictError(`Release ${version} already exists`);
  return (await getRelease(db, projectId, version))!;
}

/** The release list: created releases, newest first, and versions seen but not created (issue 33). */
export async function listReleasesAndSightings(db: Database, projectId: string) {
  const [releases, seen] = await Promise.all([listReleases(db, projectId), uncreatedSightings(db, projectId)]);
  return { releases, seen };
}

/**
 * Changes a release (its version included); false when the project has no such version, 409 when
 * the new version is taken. Recorded in the audit log with what changed.
 */
export async function editRelease(
  db: Database,
  projectId: string,
  version: string,
  input: ReleaseFields,
): Promise<string | false> {
  const nextVersion = input.version === undefined ? undefined : requireSemver(input.version, 'version');
  return db.transaction(async (tx) => {
    const was = await getRelease(tx, projectId, version);
    if (!was) return false;
    if (nextVersion !== undefined && nextVersion !== version && (await getRelease(tx, projectId, nextVersion))) {
      throw new ConflictError(`Release ${nextVersion} already exists`);
    }
    await updateRelease(tx, projectId, version, {
      ...input,
      version: nextVersion,
      releaseDate: input.releaseDate === undefined ? undefined : isoOrNull(input.releaseDate)!,
      gitCommit: input.gitCommit === undefined ? undefined : (input.gitCommit?.toLowerCase() ?? null),
    });
    const now = (await getRelease(tx, projectId, nextVersion ?? version))!;
    const diff = changes(presentRelease(was), presentRelease(now));
    await recordAudit(tx, { projectId, action: 'release.updated', target: { type: 'release', id: was.id }, ...diff });
    return nextVersion ?? version;
  });
}

/** Deletes a release; false when there is none. Recorded in the audit log with the release as it was. */
export async function removeRelease(db: Database, projectId: string, version: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const was = await getRelease(tx, projectId, version);
    if (!was || !(await deleteRelease(tx, projectId, version))) return false;
    await recordAudit(tx, {
      projectId,
      action: 'release.deleted',
      target: { type: 'release', id: was.id },
      before: presentRelease(was),
      after: null,
    });
    return true;
  });
}
