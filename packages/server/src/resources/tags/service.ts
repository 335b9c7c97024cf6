/**
 * A project's tags as the management API changes them: each write and its audit-log entry in one
 * transaction. (Assigning tags to an idea, `setFeatureTags`, records its own entry in the store's
 * transaction, for the management API and the MCP tool alike.)
 */
import type { Database } from '../../db/database.ts';
import { changes, recordAudit } from '../audit/index.ts';
import { presentTag } from './presenter.ts';
import { createTag, deleteTag, getTag, updateTag, type TagRow } from './store.ts';

/** A new tag (409 on a name the project has). */
export async function addTag(
  db: Database,
  projectId: string,
  input: { name: string; color?: string | null | undefined },
): Promise<TagRow> {
  return db.transaction(async (tx) => {
    const row = await createTag(tx, projectId, input);
    await recordAudit(tx, {
      projectId,
      action: 'tag.created',
      target: { type: 'tag', id: row.id },
      after: presentTag(row),
    });
    return row;
  });
}

/** Renames or recolours a tag; undefined when the project has none with this id. */
export async function editTag(
  db: Database,
  projectId: string,
  id: string,
  input: { name?: string | undefined; color?: string | null | undefined },
): Promise<TagRow | undefined> {
  return db.transaction(async (tx) => {
    const was = await getTag(tx, projectId, id);
    if (!was) return undefined;
    const row = await updateTag(tx, projectId, id, input);
    if (!row) return undefined;
    const diff = changes(presentTag(was), presentTag(row));
    await recordAudit(tx, { projectId, action: 'tag.updated', target: { type: 'tag', id }, ...diff });
    return row;
  });
}

/** Deletes a tag (the ideas that carry it lose it); false when there is none. */
export async function removeTag(db: Database, projectId: string, id: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const was = await getTag(tx, projectId, id);
    if (!was || !(await deleteTag(tx, projectId, id))) return false;
    await recordAudit(tx, {
      projectId,
      action: 'tag.deleted',
      target: { type: 'tag', id },
      before: presentTag(was),
      after: null,
    });
    return true;
  });
}
