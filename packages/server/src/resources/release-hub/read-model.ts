/**
 * Reads joining other resources' tables (features, error_groups, releases, changelog_entries,
 * bug_reports) for links, resolutions and a release's page; never writes.
 */
import type { Queryable } from '../../db/database.ts';

export interface LinkedFeature {
  id: string;
  title: string;
  type: string;
  status: string;
  environment: string;
  vote_count: number;
}

export interface LinkedGroup {
  id: string;
  title: string;
  status: string;
  level: string;
  environment: string;
  sdk_environment: string;
  events: number;
  users: number;
  first_seen_at: string;
  last_seen_at: string;
  first_release: string | null;
  last_release: string | null;
  resolved_in_release: string | null;
  regressed_in_release: string | null;
}

const FEATURE_COLUMNS = 'id, title, type, status, environment, vote_count';
const GROUP_COLUMNS = `id, title, status, level, environment, sdk_environment, events, users, first_seen_at,
  last_seen_at, first_release, last_release, resolved_in_release, regressed_in_release`;
const list = (n: number) => Array.from({ length: n }, () => '?').join(', ');

export function featureOf(db: Queryable, projectId: string, featureId: string): Promise<LinkedFeature | undefined> {
  return db.get<LinkedFeature>(`SELECT ${FEATURE_COLUMNS} FROM features WHERE id = ? AND project_id = ?`, [
    featureId,
    projectId,
  ]);
}

export function featuresByIds(db: Queryable, projectId: string, ids: string[]): Promise<LinkedFeature[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.all<LinkedFeature>(
    `SELECT ${FEATURE_COLUMNS} FROM features WHERE project_id = ? AND id IN (${list(ids.length)})`,
    [projectId, ...ids],
  );
}

/** A group shown in the lists (not one merged into another). */
export function groupOf(db: Queryable, projectId: string, groupId: string): Promise<LinkedGroup | undefined> {
  return db.get<LinkedGroup>(
    `SELECT ${GROUP_COLUMNS} FROM error_groups WHERE id = ? AND project_id = ? AND merged_into IS NULL`,
    [groupId, projectId],
  );
}

export function groupsByIds(db: Queryable, projectId: string, ids: string[]): Promise<LinkedGroup[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.all<LinkedGroup>(
    `SELECT ${GROUP_COLUMNS} FROM error_groups WHERE project_id = ? AND id IN (${list(ids.length)})`,
    [projectId, ...ids],
  );
}

/** Distinct users over several groups (a user of two linked groups counts once). */
export async function distinctUsersOf(db: Queryable, groupIds: string[]): Promise<number> {
  if (groupIds.length === 0) return 0;
  const row = await db.get<{ n: number }>(
    `SELECT COUNT(DISTINCT user_key) AS n FROM error_group_users WHERE group_id IN (${list(groupIds.length)})`,
    groupIds,
  );
  return Number(row?.n ?? 0);
}

/** The group an event id belongs to (kept events only), for a bug report that carries one. */
export async function groupOfEventId(db: Queryable, projectId: string, eventId: string): Promise<string | undefined> {
  const row = await db.get<{ group_id: string }>(
    `SELECT e.group_id FROM error_events e JOIN error_groups g ON g.id = e.group_id
      WHERE e.event_id = ? AND g.project_id = ? LIMIT 1`,
    [eventId, projectId],
  );
  return row?.group_id;
}

/**
 * Links made by feedback: bug reports on the groups' events (Sentry `feedback`/`user_report`)
 * that the team tied to an idea or bug. They count as links without being written as ones.
 */
export function feedbackLinksOfGroups(
  db: Queryable,
  groupIds: string[],
): Promise<{ feature_id: string; group_id: string; created_at: string }[]> {
  if (groupIds.length === 0) return Promise.resolve([]);
  return db.all(
    `SELECT feature_id, error_group_id AS group_id, MIN(first_seen_at) AS created_at FROM bug_reports
      WHERE error_group_id IN (${list(groupIds.length)}) AND feature_id IS NOT NULL
      GROUP BY feature_id, error_group_id`,
    groupIds,
  );
}

/** The same, from the idea's side: the groups of the bug reports tied to it. */
export function feedbackLinksOfFeature(
  db: Queryable,
  featureId: string,
): Promise<{ feature_id: string; group_id: string; created_at: string }[]> {
  return db.all(
    `SELECT feature_id, error_group_id AS group_id, MIN(first_seen_at) AS created_at FROM bug_reports
      WHERE feature_id = ? AND error_group_id IS NOT NULL GROUP BY feature_id, error_group_id`,
    [featureId],
  );
}

/** The people who reported a group's events through feedback (bug reports on its events). */
export function reportersOfGroup(
  db: Queryable,
  groupId: string,
  limit: number,
): Promise<{ id: string; metadata: string | null; first_seen_at: string }[]> {
  return db.all(
    `SELECT id, metadata, first_seen_at FROM bug_reports WHERE error_group_id = ?
      ORDER BY first_seen_at DESC LIMIT ?`,
    [groupId, limit],
  );
}

/** The newest of a project's registered releases' versions (SemVer order is the caller's). */
export async function releaseVersions(db: Queryable, projectId: string): Promise<string[]> {
  const rows = await db.all<{ version: string }>('SELECT version FROM releases WHERE project_id = ?', [projectId]);
  return rows.map((row) => row.version);
}

export interface BrokeRow extends LinkedGroup {
  kind: 'new' | 'regressed';
}

/**
 * The groups new in (first seen in) and regressed in a release, each list by events and at most
 * `limit` long: two index ranges in one statement.
 */
export function brokeLists(
  db: Queryable,
  input: { projectId: string; environment: string; version: string; limit: number },
): Promise<BrokeRow[]> {
  const range = (column: string) =>
    `SELECT ${GROUP_COLUMNS} FROM error_groups
      WHERE project_id = ? AND environment = ? AND ${column} = ? AND merged_into IS NULL
      ORDER BY events DESC, id LIMIT ?`;
  const { projectId, environment, version, limit } = input;
  return db.all<BrokeRow>(
    `SELECT 'new' AS kind, n.* FROM (${range('first_release')}) n
     UNION ALL
     SELECT 'regressed' AS kind, r.* FROM (${range('regressed_in_release')}) r`,
    [projectId, environment, version, limit, projectId, environment, version, limit],
  );
}

export interface GroupTotals {
  groups: number;
  events: number;
  users: number;
}

/**
 * How many groups, events and (summed per group) users are new in and regressed in a release,
 * and new in the release before it (the comparison), in one statement of three index ranges.
 */
export async function brokeTotals(
  db: Queryable,
  input: { projectId: string; environment: string; version: string; previous: string | null },
): Promise<{ new: GroupTotals; regressed: GroupTotals; previousNew: GroupTotals | null }> {
  const { projectId, environment, version, previous } = input;
  const range = (kind: string, column: string) =>
    `SELECT '${kind}' AS kind, COUNT(*) AS n_groups, SUM(events) AS n_events, SUM(users) AS n_users FROM error_groups
      WHERE project_id = ? AND environment = ? AND ${column} = ? AND merged_into IS NULL`;
  const rows = await db.all<{ kind: string; n_groups: number; n_events: number | null; n_users: number | null }>(
    `${range('new', 'first_release')} UNION ALL ${range('regressed', 'regressed_in_release')}${
      previous === null ? '' : ` UNION ALL ${range('previous', 'first_release')}`
    }`,
    [
      projectId,
      environment,
      version,
      projectId,
      environment,
      version,
      ...(previous === null ? [] : [projectId, environment, previous]),
    ],
  );
  const totals = (kind: string): GroupTotals => {
    const row = rows.find((r) => r.kind === kind);
    return { groups: Number(row?.n_groups ?? 0), events: Number(row?.n_events ?? 0), users: Number(row?.n_users ?? 0) };
  };
  return {
    new: totals('new'),
    regressed: totals('regressed'),
    previousNew: previous === null ? null : totals('previous'),
  };
}

export function entryOf(
  db: Queryable,
  projectId: string,
  entryId: string,
): Promise<{ id: string; summary: string; published: number; published_at: string | null } | undefined> {
  return db.get('SELECT id, summary, published, published_at FROM changelog_entries WHERE id = ? AND project_id = ?', [
    entryId,
    projectId,
  ]);
}
