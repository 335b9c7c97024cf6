/**
 * A board's settings as the management API changes them: the checks, the write and its audit-log
 * entry (only the fields that changed; the SSO secret's id and hint are redacted) in one unit.
 */
import type { Database } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/failures.ts';
import { ConflictError } from '../../kernel/errors.ts';
import { changes, recordAudit } from '../audit/index.ts';
import { boardChanges, type BoardUpdate } from './settings.ts';
import { domainTaken, readBoard, updateBoard, type BoardSettings } from './store.ts';

const domainClash = () => new ConflictError("Another project's board already uses this custom domain");

/** Applies a settings change (400 on a bad field, 409 on a custom domain taken); the settings after. */
export async function changeBoardSettings(
  db: Database,
  publicUrl: string,
  projectId: string,
  body: BoardUpdate,
): Promise<BoardSettings> {
  const wanted = boardChanges(body, publicUrl);
  if (wanted.customDomain && (await domainTaken(db, wanted.customDomain, projectId))) throw domainClash();
  return db
    .transaction(async (tx) => {
      const was = await readBoard(tx, projectId);
      const settings = await updateBoard(tx, projectId, wanted);
      const diff = changes({ ...was }, { ...settings });
      await recordAudit(tx, {
        projectId,
        action: 'board.settings_updated',
        target: { type: 'board', id: projectId },
        ...diff,
      });
      return settings;
    })
    .catch((error: unknown) => {
      // Two projects claiming the same domain at once: the unique index decides.
      if (wanted.customDomain && isUniqueViolation(error)) throw domainClash();
      throw error;
    });
}
