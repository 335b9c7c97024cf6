/**
 * The one store of changelog_entries and changelog_entry_features: drafts and published entries,
 * standalone or linked to one or more features (`feature_id` is kept equal to the first link, for
 * the `featureId` the APIs answer). Reads that show the linked features are in read-model.ts.
 */
import { bool, type Queryable, type SqlValue } from '../../db/database.ts';
import { newId, nowIso } from '../../kernel/ids.ts';
import { Assignments } from '../../db/assignments.ts';
import { emitDomainEvent } from '../../db/domain-events.ts';

/** The status an author picks for a standalone entry, with its display label. */
export const STANDALONE_STATUSES = { new: 'New', improved: 'Improved', fixed: 'Fixed' } as const;
export type StandaloneStatus = keyof typeof STANDALONE_STATUSES;

export interface NewEntry {
  summary: string;
  /** Already sanitised HTML. */
  description: string;
  featureId: string | null;
  /** Several linked features, in order (the first becomes `featureId`); wins over `featureId`. */
  featureIds?: readonly string[] | undefined;
  statusKey: StandaloneStatus;
  published: boolean;
  /** Default now; the demo seed backdates its samples. */
  createdAt?: string | undefined;
  /** A published entry's publication time; default now. */
  publishedAt?: string | undefined;
  /** A draft's scheduled publication time (ISO, UTC, in the future); null or omitted: none. */
  publishAt?: string | null | undefined;
  /** "What's new" in the host app opens it once as a popup. */
  announcement?: boolean | undefined;
}

/**
 * A feature merged into another: its entries now tell about the feature it was merged into.
 * Runs in the merge's transaction; returns how many entries moved.
 */
export async function moveEntriesToFeature(tx: Queryable, fromFeatureId: string, toFeatureId: string): Promise<number> {
  // An entry that links both keeps the target's link; the others' links move to the target.
  await tx.run(
    `DELETE FROM changelog_entry_features WHERE feature_id = ? AND entry_id IN
       (SELECT entry_id FROM changelog_entry_features WHERE feature_id = ?)`,
    [fromFeatureId, toFeatureId],
  );
  await tx.run('UPDATE changelog_entry_features SET feature_id = ? WHERE feature_id = ?', [toFeatureId, fromFeatureId]);
  const { changes } = await tx.run('UPDATE changelog_entries SET feature_id = ? WHERE feature_id = ?', [
    toFeatureId,
    fromFeatureId,
  ]);
  return changes;
}

/**
 * A feature being deleted: its entries keep the status it had, frozen into their own status
 * fields, and become standalone, so a published entry does not lose its label.
 */
export async function detachEntriesFromFeature(
  tx: Queryable,
  featureId: string,
  status: { key: string; label: string },
): Promise<void> {
  // An entry that links other features too is now about the next of them.
  await tx.run(
    `UPDATE changelog_entries SET status_key = ?, status_label = ?, feature_id =
       (SELECT l.feature_id FROM changelog_entry_features l WHERE l.entry_id = changelog_entries.id AND l.feature_id <> ?
         ORDER BY l.position LIMIT 1)
      WHERE feature_id = ?`,
    [status.key, status.label, featureId, featureId],
  );
  await tx.run('DELETE FROM changelog_entry_features WHERE feature_id = ?', [featureId]);
}

/** The features an entry links, in order. */
export async function linkedFeatureIds(db: Queryable, entryId: string): Promise<string[]> {
  const rows = await db.all<{ feature_id: string }>(
    'SELECT feature_id FROM changelog_entry_features WHERE entry_id = ? ORDER BY position',
    [entryId],
  );
  return rows.map((row) => row.feature_id);
}

/** Replaces an entry's links (duplicates dropped, order kept) and its first link in `feature_id`. */
async function setLinks(db: Queryable, entryId: string, featureIds: readonly string[]): Promise<void> {
  const ids = [...new Set(featureIds)];
  await db.run('DELETE FROM changelog_entry_features WHERE entry_id = ?', [entryId]);
  for (const [position, featureId] of ids.entries()) {
    await db.run('INSERT INTO changelog_entry_features (entry_id, feature_id, position) VALUES (?, ?, ?)', [
      entryId,
      featureId,
      position,
    ]);
  }
  await db.run('UPDATE changelog_entries SET feature_id = ? WHERE id = ?', [ids[0] ?? null, entryId]);
}

const linksOf = (input: { featureId?: string | null | undefined; featureIds?: readonly string[] | undefined }) =>
  input.featureIds ?? (input.featureId === undefined ? undefined : input.featureId === null ? [] : [input.featureId]);

async function announcePublished(db: Queryable, projectId: string, entryId: string, summary: string): Promise<void> {
  const featureIds = await linkedFeatureIds(db, entryId);
  await emitDomainEvent(db, 'changelog.published', {
    projectId,
    entryId,
    featureId: featureIds[0] ?? null,
    featureIds,
    summary,
  });
}

/**
 * Writes a new entry. One created published emits `changelog.published` through `db`: pass a
 * transaction (as the management route does), so what reacts to it commits with the entry.
 */
export async function insertEntry(db: Queryable, projectId: string, input: NewEntry): Promise<string> {
  const id = newId('chg');
  const now = nowIso();
  await db.run(
    `INSERT INTO changelog_entries (id, project_id, feature_id, summary, description, status_key, status_label, published, created_at, published_at, publish_at, announcement)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      id,
      projectId,
      input.featureId,
      input.summary,
      input.description,
      input.statusKey,
      STANDALONE_STATUSES[input.statusKey],
      bool(input.published),
      input.createdAt ?? now,
      input.published ? (input.publishedAt ?? now) : null,
      input.published ? null : (input.publishAt ?? null),
      bool(input.announcement ?? false),
    ],
  );
  await setLinks(db, id, linksOf(input) ?? []);
  if (input.published) await announcePublished(db, projectId, id, input.summary);
  return id;
}

export interface ImportedEntry {
  summary: string;
  /** Already sanitised HTML. */
  description: string;
  statusKey: StandaloneStatus;
  featureIds: readonly string[];
  published: boolean;
  createdAt: string;
  /** A published entry's date in the source. */
  publishedAt: string | null;
  /** A draft's future schedule in the source; null: none. */
  publishAt: string | null;
}

/**
 * An entry imported from another tool (resources/imports): written as it was there, published or
 * draft with its dates, and announcing nothing (no `changelog.published`: imported history sends
 * no follower e-mail). Runs in the import's transaction.
 */
export async function insertImportedEntry(tx: Queryable, projectId: string, input: ImportedEntry): Promise<string> {
  const id = newId('chg');
  await tx.run(
    `INSERT INTO changelog_entries (${IMPORTED_COLUMNS.join(', ')}, id, project_id, feature_id, announcement)
     VALUES (${IMPORTED_COLUMNS.map(() => '?').join(', ')}, ?, ?, ?, ?)`,
    [...importedValues(input), id, projectId, null, bool(false)],
  );
  await setLinks(tx, id, input.featureIds);
  return id;
}

/** The columns an import writes, first and again (insertImportedEntry, updateImportedEntry). */
const IMPORTED_COLUMNS = [
  'summary',
  'description',
  'status_key',
  'status_label',
  'published',
  'created_at',
  'published_at',
  'publish_at',
] as const;

/** IMPORTED_COLUMNS' values of an entry: a draft keeps its schedule, a published entry its date. */
function importedValues(input: ImportedEntry): SqlValue[] {
  return [
    input.summary,
    input.description,
    input.statusKey,
    STANDALONE_STATUSES[input.statusKey],
    bool(input.published),
    input.createdAt,
    input.published ? input.publishedAt : null,
    input.published ? null : input.publishAt,
  ];
}

/**
 * An entry imported before, brought up to date with the source (text, status, publication, dates,
 * links): 'missing' when it was deleted here since (the caller imports it anew), 'unchanged' when
 * everything agrees. Announces nothing, like the first import.
 */
export async function updateImportedEntry(
  tx: Queryable,
  projectId: string,
  id: string,
  input: ImportedEntry,
): Promise<'updated' | 'unchanged' | 'missing'> {
  const row = await tx.get<{
    summary: string;
    description: string;
    status_key: string;
    published: number | boolean;
    created_at: string;
    published_at: string | null;
    publish_at: string | null;
  }>(
    'SELECT summary, description, status_key, published, created_at, published_at, publish_at FROM changelog_entries WHERE id = ? AND project_id = ?',
    [id, projectId],
  );
  if (!row) return 'missing';
  const links = await linkedFeatureIds(tx, id);
  const publishedAt = input.published ? input.publishedAt : null;
  const publishAt = input.published ? null : input.publishAt;
  const same =
    row.summary === input.summary &&
    row.description === input.description &&
    row.status_key === input.statusKey &&
    Boolean(Number(row.published)) === input.published &&
    row.created_at === input.createdAt &&
    row.published_at === publishedAt &&
    row.publish_at === publishAt &&
    links.join(',') === [...new Set(input.featureIds)].join(',');
  if (same) return 'unchanged';
  await tx.run(`UPDATE changelog_entries SET ${IMPORTED_COLUMNS.map((c) => `${c} = ?`).join(', ')} WHERE id = ?`, [
    ...importedValues(input),
    id,
  ]);
  await setLinks(tx, id, input.featureIds);
  return 'updated';
}

export interface EntryChanges {
  summary?: string | undefined;
  description?: string | undefined;
  /** null unlinks the entry from its features. */
  featureId?: string | null | undefined;
  /** The linked features, in order ([] unlinks all); wins over `featureId`. */
  featureIds?: readonly string[] | undefined;
  statusKey?: StandaloneStatus | undefined;
  /** A draft's scheduled publication time; null clears the schedule. */
  publishAt?: string | null | undefined;
  announcement?: boolean | undefined;
}

/**
 * Edits an entry; false when the project has no such entry. Scheduling (`publishAt` a time)
 * applies to drafts only: for a published entry nothing changes and the answer is 'published'.
 */
export async function updateEntry(
  db: Queryable,
  projectId: string,
  id: string,
  changes: EntryChanges,
): Promise<boolean | 'published'> {
  const columns = new Assignments();
  columns.set('summary', changes.summary);
  columns.set('description', changes.description);
  columns.set('status_key', changes.statusKey);
  columns.set('status_label', changes.statusKey === undefined ? undefined : STANDALONE_STATUSES[changes.statusKey]);
  columns.set('publish_at', changes.publishAt);
  columns.set('announcement', changes.announcement === undefined ? undefined : bool(changes.announcement));
  const links = linksOf(changes);
  if (columns.empty) {
    const found =
      (await db.get('SELECT id FROM changelog_entries WHERE id = ? AND project_id = ?', [id, projectId])) !== undefined;
    if (found && links) await setLinks(db, id, links);
    return found;
  }
  const scheduling = typeof changes.publishAt === 'string';
  const { changes: changed } = await db.run(
    `UPDATE changelog_entries SET ${columns.sql} WHERE id = ? AND project_id = ?${scheduling ? ' AND published = 0' : ''}`,
    [...columns.params, id, projectId],
  );
  if (changed === 1) {
    if (links) await setLinks(db, id, links);
    return true;
  }
  if (!scheduling) return false;
  const row = await db.get('SELECT id FROM changelog_entries WHERE id = ? AND project_id = ?', [id, projectId]);
  return row === undefined ? false : 'published';
}

/**
 * Publishing stamps `publishedAt` with the current time (a repeat keeps the first stamp);
 * unpublishing turns the entry back into a draft with `publishedAt` null. Both clear a schedule
 * (`publish_at`). A draft that becomes
 * published emits `changelog.published` through `tx` (pass a transaction); publishing an entry
 * already published emits nothing.
 */
export async function setPublished(tx: Queryable, projectId: string, id: string, published: boolean): Promise<boolean> {
  if (!published) {
    const { changes } = await tx.run(
      'UPDATE changelog_entries SET published = 0, published_at = NULL, publish_at = NULL WHERE id = ? AND project_id = ?',
      [id, projectId],
    );
    return changes === 1;
  }
  const [draft] = await tx.all<{ summary: string }>(
    `UPDATE changelog_entries SET published = 1, published_at = COALESCE(published_at, ?), publish_at = NULL
      WHERE id = ? AND project_id = ? AND published = 0 RETURNING summary`,
    [nowIso(), id, projectId],
  );
  if (!draft) {
    const rows = await tx.all('SELECT id FROM changelog_entries WHERE id = ? AND project_id = ?', [id, projectId]);
    return rows.length === 1;
  }
  await announcePublished(tx, projectId, id, draft.summary);
  return true;
}

/** Whether any scheduled draft is due at `now` (one read: an idle poll writes nothing). */
export async function anyScheduleDue(db: Queryable, now: string): Promise<boolean> {
  const row = await db.get(
    'SELECT id FROM changelog_entries WHERE publish_at IS NOT NULL AND publish_at <= ? AND published = 0 LIMIT 1',
    [now],
  );
  return row !== undefined;
}

/** Up to `limit` scheduled drafts due at `now`, any project, the longest due first. */
export async function listScheduleDue(
  db: Queryable,
  now: string,
  limit: number,
): Promise<{ id: string; project_id: string }[]> {
  return db.all(
    `SELECT id, project_id FROM changelog_entries
      WHERE publish_at IS NOT NULL AND publish_at <= ? AND published = 0 ORDER BY publish_at, id LIMIT ?`,
    [now, limit],
  );
}

/**
 * Publishes one scheduled draft whose time has come, exactly as a manual publish does (publishedAt
 * now, `changelog.published` through `tx`: pass a transaction). The UPDATE is conditional (still a
 * draft, still scheduled, still due), so of several workers racing for it only one publishes and
 * notifies; one unpublished or rescheduled in between is left alone. True when this call published it.
 */
export async function publishIfDue(tx: Queryable, projectId: string, id: string, now: string): Promise<boolean> {
  const [entry] = await tx.all<{ summary: string }>(
    `UPDATE changelog_entries SET published = 1, published_at = ?, publish_at = NULL
      WHERE id = ? AND project_id = ? AND published = 0 AND publish_at IS NOT NULL AND publish_at <= ?
      RETURNING summary`,
    [nowIso(), id, projectId, now],
  );
  if (!entry) return false;
  await announcePublished(tx, projectId, id, entry.summary);
  return true;
}

export async function deleteEntry(db: Queryable, projectId: string, id: string): Promise<boolean> {
  const { changes } = await db.run('DELETE FROM changelog_entries WHERE id = ? AND project_id = ?', [id, projectId]);
  return changes === 1;
}
