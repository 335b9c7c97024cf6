/**
 * The status change of an error group, the one use case the management API's PATCH
 * /errors/{id} and the MCP tool `errors` share: resolve (optionally in the next release),
 * ignore, reopen; and of a group by its own id (PATCH /error-groups/{id}). Each is recorded in the
 * audit log in its transaction.
 */
import type { Database } from '../../db/database.ts';
import { BadRequestError } from '../../kernel/errors.ts';
import { recordAudit } from '../audit/index.ts';
import { getReport, setErrorStatus } from './store.ts';
import { type GroupStatus, setGroupStatus } from './store-groups.ts';
import type { ErrorStatus } from './store-triage.ts';

/** False when there is no such group; a 400 when resolving in the next release without a known release. */
export async function changeErrorStatus(
  db: Database,
  projectId: string,
  id: string,
  status: ErrorStatus,
  inNextRelease: boolean,
): Promise<boolean> {
  const done = await db.transaction(async (tx) => {
    const was = await getReport<{ status: string; resolved_in_release: string | null }>(tx, 'errors', projectId, id);
    const result = await setErrorStatus(tx, projectId, id, status, inNextRelease);
    if (was && result === true) {
      const now = await getReport<{ status: string; resolved_in_release: string | null }>(tx, 'errors', projectId, id);
      await recordAudit(tx, {
        projectId,
        action: 'error.status_changed',
        target: { type: 'error', id },
        before: { status: was.status, resolvedInRelease: was.resolved_in_release },
        after: { status: now?.status ?? status, resolvedInRelease: now?.resolved_in_release ?? null },
      });
    }
    return result;
  });
  if (done === 'no-release') {
    const message = 'this error has no release (app.version) to resolve it after; resolve it without inNextRelease';
    throw new BadRequestError(`Cannot resolve in the next release: ${message}`, [{ field: 'inNextRelease', message }]);
  }
  return done;
}

/** A group's status by its id; false when there is none, a 400 when resolving later without a release. */
export async function changeGroupStatus(
  db: Database,
  projectId: string,
  groupId: string,
  status: GroupStatus,
  inNextRelease: boolean,
): Promise<boolean> {
  const done = await db.transaction((tx) => setGroupStatus(tx, projectId, groupId, status, inNextRelease));
  if (done === 'no-release') {
    const message = 'this group has no release to resolve it after; resolve it without inNextRelease';
    throw new BadRequestError(`Cannot resolve in the next release: ${message}`, [{ field: 'inNextRelease', message }]);
  }
  return done;
}
