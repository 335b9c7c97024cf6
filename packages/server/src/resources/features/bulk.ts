/**
 * A change to many ideas at once (the dashboard's inbox): status, visibility and tags of up to 100
 * items of one project, in one transaction, all or nothing. Each item changes through the same
 * writer as a single PATCH (store.ts `changeFeature`), so a moved status emits
 * `feature.status-changed` (followers are told) exactly as it does one by one.
 */
import type { Database } from '../../db/database.ts';
import { BadRequestError } from '../../kernel/errors.ts';
import { changeFeaturesTags, TAGS_PER_FEATURE_MAX, unknownTagIds } from '../tags/index.ts';
import type { FeatureStatus } from './schemas.ts';
import { changeFeature, lockFeatures, type FeatureRow } from './store.ts';

export interface BulkChange {
  featureIds: string[];
  status?: FeatureStatus | undefined;
  internal?: boolean | undefined;
  addTagIds?: string[] | undefined;
  removeTagIds?: string[] | undefined;
}

const refuse = (field: string, message: string) =>
  new BadRequestError(`Invalid field ${field}: ${message}`, [{ field, message }]);

/** The changed items, in the order asked. Throws BadRequestError (nothing changed) on any unknown id. */
export async function bulkChangeFeatures(db: Database, projectId: string, change: BulkChange): Promise<FeatureRow[]> {
  const add = change.addTagIds ?? [];
  const remove = change.removeTagIds ?? [];
  if (change.status === undefined && change.internal === undefined && add.length === 0 && remove.length === 0) {
    throw new BadRequestError('Nothing to change: give status, internal, addTagIds or removeTagIds');
  }
  const both = add.filter((id) => remove.includes(id));
  if (both.length > 0) throw refuse('removeTagIds', `a tag cannot be added and removed at once: ${both.join(', ')}`);
  const ids = [...new Set(change.featureIds)];
  return db.transaction(async (tx) => {
    const found = await lockFeatures(tx, projectId, ids);
    // An id of another project is unknown here, like one that never existed: nothing is revealed.
    const missing = ids.filter((id) => !found.has(id));
    if (missing.length > 0) throw refuse('featureIds', `no such feature in this project: ${missing.join(', ')}`);
    const unknownTags = await unknownTagIds(tx, projectId, [...add, ...remove]);
    if (unknownTags.length > 0) {
      throw refuse(
        add.some((id) => unknownTags.includes(id)) ? 'addTagIds' : 'removeTagIds',
        `no such tag in this project: ${unknownTags.join(', ')}`,
      );
    }
    const over = await changeFeaturesTags(tx, ids, { add, remove }, TAGS_PER_FEATURE_MAX);
    if (over.length > 0) {
      throw refuse('addTagIds', `an idea carries at most ${TAGS_PER_FEATURE_MAX} tags: ${over.join(', ')}`);
    }
    const rows: FeatureRow[] = [];
    for (const id of ids) {
      const row = await changeFeature(tx, { projectId }, id, { status: change.status, internal: change.internal });
      if (row) rows.push(row);
    }
    return rows;
  });
}
