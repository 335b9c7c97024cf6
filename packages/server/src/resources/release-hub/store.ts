/** The only SQL on error_links, release_resolutions and release_drafts (issue 33). */
import { bool, type Queryable } from '../../db/database.ts';
import { newId, nowIso } from '../../kernel/ids.ts';

/** manual: the team; feedback: derived from a bug report; event: the report named the error it followed. */
export type LinkSource = 'manual' | 'feedback' | 'event';

/** true when the link is new. */
export async function insertLink(
  db: Queryable,
  projectId: string,
  featureId: string,
  groupId: string,
  source: LinkSource,
): Promise<boolean> {
  const { changes } = await db.run(
    `INSERT INTO error_links (project_id, feature_id, group_id, source, created_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (feature_id, group_id) DO NOTHING`,
    [projectId, featureId, groupId, source, nowIso()],
  );
  return changes === 1;
}

export async function deleteLink(db: Queryable, projectId: string, featureId: string, groupId: string) {
  const { changes } = await db.run('DELETE FROM error_links WHERE project_id = ? AND feature_id = ? AND group_id = ?', [
    projectId,
    featureId,
    groupId,
  ]);
  return changes === 1;
}

export interface LinkRow {
  feature_id: string;
  group_id: string;
  source: string;
  created_at: string;
}

export function linksOfGroups(db: Queryable, groupIds: string[]): Promise<LinkRow[]> {
  if (groupIds.length === 0) return Promise.resolve([]);
  return db.all<LinkRow>(
    `SELECT feature_id, group_id, source, created_at FROM error_links
      WHERE group_id IN (${groupIds.map(() => '?').join(', ')}) ORDER BY created_at, feature_id`,
    groupIds,
  );
}

export function linksOfFeature(db: Queryable, featureId: string): Promise<LinkRow[]> {
  return db.all<LinkRow>(
    'SELECT feature_id, group_id, source, created_at FROM error_links WHERE feature_id = ? ORDER BY created_at, group_id',
    [featureId],
  );
}

export type ItemType = 'feature' | 'error_group';

export interface ResolutionRow {
  id: string;
  project_id: string;
  item_type: ItemType;
  item_id: string;
  target_release: string | null;
  after_release: string | null;
  notify: number;
  resolved_release: string | null;
  created_at: string;
  resolved_at: string | null;
}

/** The item's resolution, replacing an earlier one (pending or done: resolving again starts over). */
export async function upsertResolution(
  db: Queryable,
  input: {
    projectId: string;
    itemType: ItemType;
    itemId: string;
    targetRelease: string | null;
    afterRelease: string | null;
    notify: boolean;
  },
): Promise<ResolutionRow> {
  const [row] = await db.all<ResolutionRow>(
    `INSERT INTO release_resolutions (id, project_id, item_type, item_id, target_release, after_release, notify, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (item_type, item_id) DO UPDATE SET target_release = excluded.target_release,
       after_release = excluded.after_release, notify = excluded.notify, created_at = excluded.created_at,
       resolved_release = NULL, resolved_at = NULL
     RETURNING *`,
    [
      newId('rsl'),
      input.projectId,
      input.itemType,
      input.itemId,
      input.targetRelease,
      input.afterRelease,
      bool(input.notify),
      nowIso(),
    ],
  );
  return row!;
}

export async function deleteResolution(db: Queryable, projectId: string, itemType: ItemType, itemId: string) {
  const { changes } = await db.run(
    'DELETE FROM release_resolutions WHERE project_id = ? AND item_type = ? AND item_id = ? AND resolved_release IS NULL',
    [projectId, itemType, itemId],
  );
  return changes === 1;
}

export function resolutionOf(db: Queryable, itemType: ItemType, itemId: string): Promise<ResolutionRow | undefined> {
  return db.get<ResolutionRow>('SELECT * FROM release_resolutions WHERE item_type = ? AND item_id = ?', [
    itemType,
    itemId,
  ]);
}

export function resolutionsOfFeatures(db: Queryable, featureIds: string[]): Promise<ResolutionRow[]> {
  if (featureIds.length === 0) return Promise.resolve([]);
  return db.all<ResolutionRow>(
    `SELECT * FROM release_resolutions WHERE item_type = 'feature' AND item_id IN (${featureIds.map(() => '?').join(', ')})`,
    featureIds,
  );
}

/** A project's resolutions still waiting for their release. */
export function pendingResolutions(db: Queryable, projectId: string): Promise<ResolutionRow[]> {
  return db.all<ResolutionRow>(
    'SELECT * FROM release_resolutions WHERE project_id = ? AND resolved_release IS NULL ORDER BY created_at, id',
    [projectId],
  );
}

/** What went live in a release. */
/**
 * What a release's page shows as shipped, in one statement: the items resolved in it (in the
 * order they were resolved) and its drafted changelog entry, if any.
 */
export async function shippedIn(
  db: Queryable,
  projectId: string,
  version: string,
): Promise<{ resolved: { item_type: ItemType; item_id: string }[]; draft: string | undefined }> {
  const rows = await db.all<{
    kind: 'resolution' | 'draft';
    item_type: ItemType | null;
    item_id: string | null;
    entry_id: string | null;
    created_at: string | null;
    id: string | null;
  }>(
    `SELECT 'resolution' AS kind, item_type, item_id, NULL AS entry_id, created_at, id FROM release_resolutions
      WHERE project_id = ? AND resolved_release = ?
     UNION ALL
     SELECT 'draft' AS kind, NULL, NULL, entry_id, NULL, NULL FROM release_drafts WHERE project_id = ? AND version = ?`,
    [projectId, version, projectId, version],
  );
  const resolved = rows
    .filter((row) => row.kind === 'resolution')
    .sort((a, b) => (a.created_at! < b.created_at! ? -1 : a.created_at! > b.created_at! ? 1 : a.id! < b.id! ? -1 : 1))
    .map((row) => ({ item_type: row.item_type!, item_id: row.item_id! }));
  return { resolved, draft: rows.find((row) => row.kind === 'draft')?.entry_id ?? undefined };
}

export async function markResolved(db: Queryable, ids: string[], version: string): Promise<void> {
  if (ids.length === 0) return;
  await db.run(
    `UPDATE release_resolutions SET resolved_release = ?, resolved_at = ?
      WHERE resolved_release IS NULL AND id IN (${ids.map(() => '?').join(', ')})`,
    [version, nowIso(), ...ids],
  );
}

/** false when the release already has its draft. */
export async function insertDraft(db: Queryable, projectId: string, version: string, entryId: string) {
  const { changes } = await db.run(
    `INSERT INTO release_drafts (project_id, version, entry_id, created_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (project_id, version) DO NOTHING`,
    [projectId, version, entryId, nowIso()],
  );
  return changes === 1;
}

export async function draftOf(db: Queryable, projectId: string, version: string): Promise<string | undefined> {
  const row = await db.get<{ entry_id: string }>(
    'SELECT entry_id FROM release_drafts WHERE project_id = ? AND version = ?',
    [projectId, version],
  );
  return row?.entry_id;
}
