/**
 * The status change of an error group, the one use case the management API's PATCH
 * /errors/{id} and the MCP tool `errors` share: resolve (optionally in the next release),
 * ignore, reopen.
 */
import type { Queryable } from '../../db/database.ts';
import { BadRequestError } from '../../kernel/errors.ts';
import { setErrorStatus } from './store.ts';
import type { ErrorStatus } from './store-triage.ts';

/** False when there is no such group; a 400 when resolving in the next release without a known release. */
export async function changeErrorStatus(
  db: Queryable,
  projectId: string,
  id: string,
  status: ErrorStatus,
  inNextRelease: boolean,
): Promise<boolean> {
  const done = await setErrorStatus(db, projectId, id, status, inNextRelease);
  if (done === 'no-release') {
    const message = 'this error has no release (app.version) to resolve it after; resolve it without inNextRelease';
    throw new BadRequestError(`Cannot resolve in the next release: ${message}`, [{ field: 'inNextRelease', message }]);
  }
  return done;
}
