/**
 * The changelog's writes, the use cases the management API and the MCP tool `changelog` share:
 * create (a draft, scheduled or published at once), edit, publish and unpublish. The linked
 * features must be the project's; a schedule must lie in the future; descriptions are sanitised.
 */
import type { Database, Queryable } from '../../db/database.ts';
import { isForeignKeyViolation } from '../../db/failures.ts';
import { runAs, SYSTEM_ACTOR } from '../../kernel/actor.ts';
import { BadRequestError, ConflictError } from '../../kernel/errors.ts';
import { changes, recordAudit } from '../audit/index.ts';
import { presentManagedEntry } from './presenter.ts';
import { getEntry, linkedFeaturesOf, projectHasFeature } from './read-model.ts';
import { sanitizeDescription } from './sanitize.ts';
import {
  deleteEntry,
  insertEntry,
  publishIfDue,
  setPublished,
  updateEntry,
  type EntryChanges,
  type StandaloneStatus,
} from './store.ts';

/** An entry as the audit log keeps it (the management API's shape), or null when there is none. */
async function snapshot(db: Queryable, projectId: string, entryId: string) {
  const row = await getEntry(db, projectId, entryId);
  if (!row) return null;
  return presentManagedEntry(row, (await linkedFeaturesOf(db, [row.id])).get(row.id));
}

/** Records an entry's change: the fields that differ between `before` and now. */
async function auditChange(
  tx: Queryable,
  projectId: string,
  entryId: string,
  action: string,
  before: Record<string, unknown> | null,
) {
  const after = await snapshot(tx, projectId, entryId);
  const diff = before && after ? changes(before, after) : { before, after };
  await recordAudit(tx, { projectId, action, target: { type: 'changelog_entry', id: entryId }, ...diff });
}

const noSuchFeature = () =>
  new BadRequestError('Invalid field featureId: no such feature in this project', [
    { field: 'featureId', message: 'no such feature in this project' },
  ]);

/** The links a body asks for (undefined: unchanged), each checked to be a feature of the project. */
async function checkFeatures(
  db: Queryable,
  projectId: string,
  body: { featureId?: string | null | undefined; featureIds?: string[] | undefined },
): Promise<string[] | undefined> {
  if (body.featureIds !== undefined && body.featureId !== undefined) {
    const message = 'send featureId or featureIds, not both';
    throw new BadRequestError(`Invalid field featureIds: ${message}`, [{ field: 'featureIds', message }]);
  }
  const ids = body.featureIds ?? (body.featureId === undefined ? undefined : body.featureId ? [body.featureId] : []);
  for (const id of ids ?? []) {
    if (!(await projectHasFeature(db, projectId, id))) throw noSuchFeature();
  }
  return ids;
}

/**
 * A schedule as stored: normalised to ISO UTC (the worker compares text), and in the future. A
 * past time is refused rather than published at once, so a slow form never publishes by surprise.
 */
function scheduleTime(publishAt: string | null | undefined): string | null | undefined {
  if (publishAt === undefined || publishAt === null) return publishAt;
  const time = Date.parse(publishAt);
  if (Number.isNaN(time) || time <= Date.now()) {
    const message = 'must be a time in the future (to publish now, publish the entry)';
    throw new BadRequestError(`Invalid field publishAt: ${message}`, [{ field: 'publishAt', message }]);
  }
  return new Date(time).toISOString();
}

/** A write that links a feature checked just before: deleted in between, it is as if it never was. */
async function linking<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isForeignKeyViolation(error)) throw noSuchFeature();
    throw error;
  }
}

export interface EntryInput {
  summary: string;
  description?: string | undefined;
  featureId?: string | null | undefined;
  /** The ideas it ships (several); send this or featureId, not both. */
  featureIds?: string[] | undefined;
  statusKey?: StandaloneStatus | undefined;
  published?: boolean | undefined;
  publishAt?: string | null | undefined;
  announcement?: boolean | undefined;
}

/** A new entry; its id. A published one queues its followers' e-mails in the same transaction. */
export async function createEntry(db: Database, projectId: string, body: EntryInput): Promise<string> {
  if (body.published && body.publishAt) {
    const message = 'a published entry cannot be scheduled; send one of published and publishAt';
    throw new BadRequestError(`Invalid field publishAt: ${message}`, [{ field: 'publishAt', message }]);
  }
  const publishAt = scheduleTime(body.publishAt);
  const featureIds = (await checkFeatures(db, projectId, body)) ?? [];
  const description = sanitizeDescription(body.description ?? '');
  // One transaction: a published entry's followers' e-mails are queued with it.
  return linking(() =>
    db.transaction(async (tx) => {
      const id = await insertEntry(tx, projectId, {
        summary: body.summary,
        description,
        featureId: featureIds[0] ?? null,
        featureIds,
        statusKey: body.statusKey ?? 'new',
        published: body.published ?? false,
        publishAt,
        announcement: body.announcement,
      });
      await auditChange(tx, projectId, id, 'changelog_entry.created', null);
      return id;
    }),
  );
}

/** Edits an entry; false when the project has none with this id; 409 when scheduling a published one. */
export async function editEntry(
  db: Database,
  projectId: string,
  entryId: string,
  body: EntryChanges & { featureIds?: string[] | undefined },
): Promise<boolean> {
  const publishAt = scheduleTime(body.publishAt);
  const featureIds = await checkFeatures(db, projectId, body);
  const changed = await linking(() =>
    db.transaction(async (tx) => {
      const before = await snapshot(tx, projectId, entryId);
      const done = await updateEntry(tx, projectId, entryId, {
        ...body,
        featureId: undefined,
        featureIds,
        description: body.description === undefined ? undefined : sanitizeDescription(body.description),
        publishAt,
      });
      if (done === true && before) await auditChange(tx, projectId, entryId, 'changelog_entry.updated', before);
      return done;
    }),
  );
  if (changed === 'published') throw new ConflictError('The entry is published; unpublish it before scheduling');
  return changed;
}

/** Publishes now or turns back into a draft; false when there is no such entry. */
export async function publishEntry(db: Database, projectId: string, entryId: string, published: boolean) {
  return db.transaction(async (tx) => {
    const before = await snapshot(tx, projectId, entryId);
    const done = await setPublished(tx, projectId, entryId, published);
    if (done && before) {
      const action = published ? 'changelog_entry.published' : 'changelog_entry.unpublished';
      await auditChange(tx, projectId, entryId, action, before);
    }
    return done;
  });
}

/**
 * The schedule worker's publish of one due draft (schedule-worker.ts): the conditional publish
 * and its audit entry in one transaction, as the `system` actor, with the action a manual publish
 * records (the actor tells them apart). False when it was no longer due (another worker published
 * it, or it was unpublished or rescheduled): nothing recorded then.
 */
export async function publishScheduledEntry(
  db: Database,
  projectId: string,
  entryId: string,
  now: string,
): Promise<boolean> {
  return runAs(SYSTEM_ACTOR, () =>
    db.transaction(async (tx) => {
      const before = await snapshot(tx, projectId, entryId);
      if (!(await publishIfDue(tx, projectId, entryId, now))) return false;
      if (before) await auditChange(tx, projectId, entryId, 'changelog_entry.published', before);
      return true;
    }),
  );
}

/** Deletes an entry; false when the project has none with this id. */
export async function removeEntry(db: Database, projectId: string, entryId: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const before = await snapshot(tx, projectId, entryId);
    if (!before || !(await deleteEntry(tx, projectId, entryId))) return false;
    await recordAudit(tx, {
      projectId,
      action: 'changelog_entry.deleted',
      target: { type: 'changelog_entry', id: entryId },
      before,
      after: null,
    });
    return true;
  });
}
