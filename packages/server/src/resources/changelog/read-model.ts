/**
 * Changelog entries with their linked feature read live (title, type, status, internal): the
 * JOIN on features, a table of resources/features, in one place.
 */
import { bool, type Queryable } from '../../db/database.ts';
import { page } from '../../db/page.ts';
import { searchClause, Where } from '../../db/query.ts';

export interface ChangelogRow {
  id: string;
  project_id: string;
  feature_id: string | null;
  summary: string;
  description: string;
  status_key: string;
  status_label: string;
  published: number;
  created_at: string;
  published_at: string | null;
  /** A draft's scheduled publication time, or null. */
  publish_at: string | null;
  /** 1: "What's new" opens it once as a popup. */
  announcement: number;
  f_title: string | null;
  f_type: string | null;
  f_status: string | null;
}

/**
 * Entries of the project, with their linked feature read live. Entries linked to an internal
 * feature are dropped in SQL, before LIMIT and OFFSET; standalone entries stay.
 */
export async function listChangelog(
  db: Queryable,
  projectId: string,
  published: boolean,
  limit: number,
  offset: number,
): Promise<ChangelogRow[]> {
  return db.all<ChangelogRow>(
    `SELECT e.*, f.title AS f_title, f.type AS f_type, f.status AS f_status
       FROM changelog_entries e LEFT JOIN features f ON f.id = e.feature_id
      WHERE e.project_id = ? AND e.published = ? AND (e.feature_id IS NULL OR (f.internal = 0 AND f.held = 0))
      ORDER BY e.published_at DESC, e.created_at DESC, e.id DESC LIMIT ? OFFSET ?`,
    [projectId, bool(published), limit, offset],
  );
}

// The management side: drafts too, and entries linked to internal features.

export interface ManagedChangelogRow extends ChangelogRow {
  f_internal: number | null;
}

const SELECT = `SELECT e.*, f.title AS f_title, f.type AS f_type, f.status AS f_status, f.internal AS f_internal
  FROM changelog_entries e LEFT JOIN features f ON f.id = e.feature_id`;

export type EntryState = 'draft' | 'scheduled' | 'published';

export interface ChangelogFilter {
  published?: boolean | undefined;
  /** draft: unpublished and unscheduled; scheduled: unpublished with a publish time; published. */
  state?: EntryState | undefined;
  featureId?: string | undefined;
  q?: string | undefined;
  limit: number;
  offset: number;
}

/** Newest first: a published entry by its publication time, a draft by its creation time. */
export async function listEntries(db: Queryable, projectId: string, filter: ChangelogFilter) {
  const where = new Where('e.project_id = ?', projectId).when(
    filter.published,
    'e.published = ?',
    bool(filter.published ?? false),
  );
  if (filter.featureId)
    where.add(
      'EXISTS (SELECT 1 FROM changelog_entry_features l WHERE l.entry_id = e.id AND l.feature_id = ?)',
      filter.featureId,
    );
  if (filter.state === 'published') where.add('e.published = 1');
  if (filter.state === 'scheduled') where.add('e.published = 0 AND e.publish_at IS NOT NULL');
  if (filter.state === 'draft') where.add('e.published = 0 AND e.publish_at IS NULL');
  if (filter.q) {
    const search = searchClause(['e.summary', 'e.description'], filter.q);
    where.add(search.sql, ...search.params);
  }
  return page<ManagedChangelogRow>(
    db,
    'changelog_entries e LEFT JOIN features f ON f.id = e.feature_id',
    where,
    'e.*, f.title AS f_title, f.type AS f_type, f.status AS f_status, f.internal AS f_internal',
    'COALESCE(e.published_at, e.created_at) DESC, e.id DESC',
    filter.limit,
    filter.offset,
  );
}

export async function getEntry(db: Queryable, projectId: string, id: string): Promise<ManagedChangelogRow | undefined> {
  return db.get<ManagedChangelogRow>(`${SELECT} WHERE e.id = ? AND e.project_id = ?`, [id, projectId]);
}

/** Whether the project has this feature (a changelog entry may only link to its own project's). */
export async function projectHasFeature(db: Queryable, projectId: string, featureId: string): Promise<boolean> {
  return (
    (await db.get('SELECT id FROM features WHERE id = ? AND project_id = ?', [featureId, projectId])) !== undefined
  );
}

/** The published entries that tell about one feature, newest first (the board's idea page). */
export async function listPublishedEntriesOfFeature(
  db: Queryable,
  projectId: string,
  featureId: string,
): Promise<{ id: string; summary: string; published_at: string }[]> {
  return db.all(
    `SELECT e.id, e.summary, e.published_at FROM changelog_entry_features l JOIN changelog_entries e ON e.id = l.entry_id
      WHERE l.feature_id = ? AND e.project_id = ? AND e.published = 1 ORDER BY e.published_at DESC, e.id DESC LIMIT 20`,
    [featureId, projectId],
  );
}

/** A feature an entry links, as the entry's readers need it. */
export interface LinkedFeature {
  id: string;
  title: string;
  type: string;
  status: string;
  environment: string;
  /** Internal or held: not public. */
  hidden: boolean;
}

/** The features each of the given entries links, in their order. */
export async function linkedFeaturesOf(
  db: Queryable,
  entryIds: readonly string[],
): Promise<Map<string, LinkedFeature[]>> {
  const links = new Map<string, LinkedFeature[]>(entryIds.map((id) => [id, []]));
  if (entryIds.length === 0) return links;
  const rows = await db.all<{
    entry_id: string;
    id: string;
    title: string;
    type: string;
    status: string;
    environment: string;
    internal: number;
    held: number;
  }>(
    `SELECT l.entry_id, f.id, f.title, f.type, f.status, f.environment, f.internal, f.held
       FROM changelog_entry_features l JOIN features f ON f.id = l.feature_id
      WHERE l.entry_id IN (${entryIds.map(() => '?').join(', ')}) ORDER BY l.entry_id, l.position`,
    [...entryIds],
  );
  for (const row of rows) {
    links.get(row.entry_id)?.push({
      id: row.id,
      title: row.title,
      type: row.type,
      status: row.status,
      environment: row.environment,
      hidden: Number(row.internal) === 1 || Number(row.held) === 1,
    });
  }
  return links;
}

// The public board: published entries with the public idea each one shipped.

/** An idea a board changelog entry links to (public: live, not internal, not held). */
export interface ShippedIdea {
  id: string;
  title: string;
  type: string;
  status: string;
}

export interface BoardChangelogEntry {
  id: string;
  summary: string;
  /** Sanitised HTML (sanitised on every write). */
  description: string;
  statusKey: string;
  /** null for a linked entry: its idea's status, labelled by the caller with STATUS_LABELS. */
  statusLabel: string | null;
  publishedAt: string;
  /** The public idea it shipped first; null for a standalone entry or one linked to a test-environment idea. */
  idea: ShippedIdea | null;
  /** Every public (live) idea it shipped, in order. */
  ideas: ShippedIdea[];
}

interface BoardChangelogRow extends ChangelogRow {
  f_environment: string | null;
}

/**
 * One page of a project's published changelog for the board (and its feeds), newest first, and
 * the number of such entries. Entries linked to an internal or held idea are left out in SQL
 * before LIMIT and OFFSET, as in the public API's changelog.
 */
export async function listBoardChangelog(
  db: Queryable,
  projectId: string,
  limit: number,
  offset: number,
  entryId?: string,
): Promise<{ entries: BoardChangelogEntry[]; total: number }> {
  const where = new Where(
    'e.project_id = ? AND e.published = 1 AND (e.feature_id IS NULL OR (f.internal = 0 AND f.held = 0))',
    projectId,
  ).when(entryId, 'e.id = ?', entryId ?? null);
  const { rows, total } = await page<BoardChangelogRow>(
    db,
    'changelog_entries e LEFT JOIN features f ON f.id = e.feature_id',
    where,
    'e.*, f.title AS f_title, f.type AS f_type, f.status AS f_status, f.environment AS f_environment',
    'e.published_at DESC, e.created_at DESC, e.id DESC',
    limit,
    offset,
  );
  const links = await linkedFeaturesOf(
    db,
    rows.map((row) => row.id),
  );
  const entries = rows.map((row) => {
    const shown = presentBoardStatus(row);
    const ideas = (links.get(row.id) ?? [])
      .filter((idea) => !idea.hidden && idea.environment === 'live')
      .map(({ id, title, type, status }) => ({ id, title, type, status }));
    return {
      ideas,
      id: row.id,
      summary: row.summary,
      description: row.description,
      statusKey: shown.key,
      statusLabel: shown.label,
      publishedAt: row.published_at ?? row.created_at,
      idea:
        row.feature_id !== null && row.f_title !== null && row.f_environment === 'live'
          ? { id: row.feature_id, title: row.f_title, type: row.f_type ?? '', status: row.f_status ?? '' }
          : null,
    };
  });
  return { entries, total };
}

/**
 * A linked entry shows its idea's status as it is now (as the public changelog does); its label
 * is left to the caller (STATUS_LABELS of the features index: importing it here would close an
 * import cycle through the features store). A standalone entry has its own label.
 */
function presentBoardStatus(row: ChangelogRow): { key: string; label: string | null } {
  if (row.feature_id !== null && row.f_title !== null && row.f_status) return { key: row.f_status, label: null };
  return { key: row.status_key, label: row.status_label };
}
