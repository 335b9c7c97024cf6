/**
 * Reads of error groups (store-groups.ts writes them): the list with its filters, sorts, cursor
 * and per-environment counts; a group with its tag facets; its events (newest first, by cursor);
 * one event with its place among them.
 */
import type { Queryable, SqlValue } from '../../db/database.ts';
import type { KeyEnvironment } from '../../kernel/api-keys.ts';
import { normaliseRelease } from '../../kernel/release.ts';
import { decompressPayload } from './error-event.ts';
import { familyOf } from './store-groups.ts';
import { compareNames } from '../../kernel/compare-text.ts';

export type GroupSort = 'lastSeen' | 'count' | 'users';

export interface GroupFilter {
  environment?: KeyEnvironment;
  sdkEnvironment?: string;
  status?: string;
  release?: string;
  level?: string;
  tag?: { key: string; value: string };
  q?: string;
  sort: GroupSort;
  cursor?: string;
  limit: number;
}

export interface GroupRow {
  id: string;
  project_id: string;
  environment: string;
  sdk_environment: string;
  title: string;
  error_type: string | null;
  culprit: string | null;
  level: string;
  status: string;
  resolved_in_release: string | null;
  regressed_in_release: string | null;
  /** When a resolved group last regressed (issue 33). */
  regressed_at?: string | null;
  unhandled: number;
  first_seen_at: string;
  last_seen_at: string;
  first_release: string | null;
  last_release: string | null;
  events: number;
  users: number;
  merged_into: string | null;
}

const SORT_COLUMN: Record<GroupSort, string> = { lastSeen: 'last_seen_at', count: 'events', users: 'users' };

/** A cursor: the last row's sort value and id, opaque to clients. */
const encodeCursor = (value: string | number, id: string) =>
  Buffer.from(JSON.stringify([value, id])).toString('base64url');

export function decodeCursor(cursor: string, sort: GroupSort): [string | number, string] | undefined {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (!Array.isArray(parsed) || parsed.length !== 2 || typeof parsed[1] !== 'string') return undefined;
    const valid = sort === 'lastSeen' ? typeof parsed[0] === 'string' : Number.isInteger(parsed[0]);
    return valid ? [parsed[0] as string | number, parsed[1]] : undefined;
  } catch {
    return undefined;
  }
}

function conditions(projectId: string, filter: Omit<GroupFilter, 'sort' | 'limit' | 'cursor'>) {
  const where = ['g.project_id = ?', 'g.merged_into IS NULL'];
  const params: SqlValue[] = [projectId];
  if (filter.environment) where.push('g.environment = ?') && params.push(filter.environment);
  if (filter.sdkEnvironment !== undefined) where.push('g.sdk_environment = ?') && params.push(filter.sdkEnvironment);
  if (filter.status) where.push('g.status = ?') && params.push(filter.status);
  if (filter.level) where.push('g.level = ?') && params.push(filter.level);
  if (filter.release) {
    where.push('(g.first_release = ? OR g.last_release = ?)');
    params.push(normaliseRelease(filter.release), normaliseRelease(filter.release));
  }
  if (filter.q) {
    const like = `%${filter.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    where.push(
      "(LOWER(g.title) LIKE LOWER(?) ESCAPE '\\' OR LOWER(COALESCE(g.culprit, '')) LIKE LOWER(?) ESCAPE '\\')",
    );
    params.push(like, like);
  }
  if (filter.tag) {
    where.push(`EXISTS (SELECT 1 FROM error_group_tags t WHERE t.tag_key = ? AND t.tag_value = ?
      AND t.group_id IN (SELECT f.id FROM error_groups f WHERE f.id = g.id OR f.merged_into = g.id))`);
    params.push(filter.tag.key, filter.tag.value);
  }
  return { where: where.join(' AND '), params };
}

/** A page of groups (merged ones are shown through their target), and the cursor of the next. */
export async function listGroups(
  db: Queryable,
  projectId: string,
  filter: GroupFilter,
): Promise<{ rows: GroupRow[]; nextCursor: string | null }> {
  const { where, params } = conditions(projectId, filter);
  const column = SORT_COLUMN[filter.sort];
  const after = filter.cursor ? decodeCursor(filter.cursor, filter.sort) : undefined;
  const page = after ? ` AND (g.${column} < ? OR (g.${column} = ? AND g.id < ?))` : '';
  const rows = await db.all<GroupRow>(
    `SELECT g.* FROM error_groups g WHERE ${where}${page} ORDER BY g.${column} DESC, g.id DESC LIMIT ?`,
    [...params, ...(after ? [after[0], after[0], after[1]] : []), filter.limit + 1],
  );
  const more = rows.length > filter.limit;
  const shown = more ? rows.slice(0, filter.limit) : rows;
  const last = shown[shown.length - 1];
  const value = last
    ? filter.sort === 'lastSeen'
      ? last.last_seen_at
      : Number(last[column as 'events' | 'users'])
    : 0;
  return { rows: shown, nextCursor: more && last ? encodeCursor(value, last.id) : null };
}

/** Groups and events per SDK environment, under the list's other filters but the environment's. */
export async function groupCountsByEnvironment(
  db: Queryable,
  projectId: string,
  filter: Omit<GroupFilter, 'sort' | 'limit' | 'cursor' | 'sdkEnvironment'>,
) {
  const { where, params } = conditions(projectId, filter);
  const rows = await db.all<{ sdk_environment: string; group_count: number; event_count: number }>(
    `SELECT g.sdk_environment, COUNT(*) AS group_count, SUM(g.events) AS event_count FROM error_groups g
      WHERE ${where} GROUP BY g.sdk_environment ORDER BY g.sdk_environment`,
    params,
  );
  return rows.map((row) => ({
    environment: row.sdk_environment,
    groups: Number(row.group_count),
    events: Number(row.event_count),
  }));
}

export async function getGroup(db: Queryable, projectId: string, groupId: string): Promise<GroupRow | undefined> {
  return db.get<GroupRow>('SELECT * FROM error_groups WHERE id = ? AND project_id = ?', [groupId, projectId]);
}

/** The newest error record of a group's family (its history is the chart of the group page). */
export async function newestRecordOf(db: Queryable, family: readonly string[]): Promise<string | null> {
  const row = await db.get<{ id: string }>(
    `SELECT id FROM error_reports WHERE group_id IN (${family.map(() => '?').join(', ')})
      ORDER BY last_seen_at DESC, id DESC LIMIT 1`,
    family,
  );
  return row?.id ?? null;
}

/** The groups merged into a group. */
export async function mergedGroups(db: Queryable, groupId: string) {
  return db.all<GroupRow>('SELECT * FROM error_groups WHERE merged_into = ? ORDER BY last_seen_at DESC, id DESC', [
    groupId,
  ]);
}

const TOP_VALUES = 10;

/** Per tag: its top values with their counts and share of the tag's events, most frequent first. */
export async function tagFacets(db: Queryable, family: readonly string[]) {
  const rows = await db.all<{ tag_key: string; tag_value: string; n: number }>(
    `SELECT tag_key, tag_value, SUM(count) AS n FROM error_group_tags
      WHERE group_id IN (${family.map(() => '?').join(', ')}) GROUP BY tag_key, tag_value`,
    family,
  );
  const byKey = new Map<string, { value: string; count: number }[]>();
  for (const row of rows) {
    const values = byKey.get(row.tag_key) ?? [];
    values.push({ value: row.tag_value, count: Number(row.n) });
    byKey.set(row.tag_key, values);
  }
  return [...byKey.entries()]
    .sort(([a], [b]) => compareNames(a, b))
    .map(([key, values]) => {
      const total = values.reduce((sum, value) => sum + value.count, 0);
      values.sort((a, b) => b.count - a.count || compareNames(a.value, b.value));
      return {
        key,
        total,
        distinct: values.length,
        values: values
          .slice(0, TOP_VALUES)
          .map((v) => ({ ...v, share: Math.round((v.count / total) * 10_000) / 10_000 })),
      };
    });
}

export interface EventRow {
  group_id: string;
  ordinal: number;
  event_id: string;
  received_at: string;
  release: string | null;
  sdk_environment: string;
  user_key: string | null;
  handled: number | null;
}

const EVENT_COLUMNS = 'group_id, ordinal, event_id, received_at, release, sdk_environment, user_key, handled';
const eventCursor = (row: EventRow) =>
  Buffer.from(JSON.stringify([row.received_at, row.group_id, Number(row.ordinal)])).toString('base64url');

function decodeEventCursor(cursor: string): [string, string, number] | undefined {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (!Array.isArray(parsed) || parsed.length !== 3) return undefined;
    const [at, group, ordinal] = parsed as unknown[];
    return typeof at === 'string' && typeof group === 'string' && Number.isInteger(ordinal)
      ? [at, group, ordinal as number]
      : undefined;
  } catch {
    return undefined;
  }
}

const NEWEST_FIRST = 'ORDER BY received_at DESC, group_id DESC, ordinal DESC';
const OLDER_THAN = '(received_at < ? OR (received_at = ? AND (group_id < ? OR (group_id = ? AND ordinal < ?))))';
const olderParams = ([at, group, ordinal]: [string, string, number]) => [at, at, group, group, ordinal];

/** A group's kept events (its family's), newest first; undefined for a cursor that is not one. */
export async function listGroupEvents(db: Queryable, groupId: string, cursor: string | undefined, limit: number) {
  const family = await familyOf(db, groupId);
  const after = cursor === undefined ? undefined : decodeEventCursor(cursor);
  if (cursor !== undefined && !after) return undefined;
  const rows = await db.all<EventRow>(
    `SELECT ${EVENT_COLUMNS} FROM error_events WHERE group_id IN (${family.map(() => '?').join(', ')})
      ${after ? `AND ${OLDER_THAN}` : ''} ${NEWEST_FIRST} LIMIT ?`,
    [...family, ...(after ? olderParams(after) : []), limit + 1],
  );
  const more = rows.length > limit;
  const shown = more ? rows.slice(0, limit) : rows;
  const kept = await db.get<{ n: number }>(
    `SELECT COUNT(*) AS n FROM error_events WHERE group_id IN (${family.map(() => '?').join(', ')})`,
    family,
  );
  return { rows: shown, kept: Number(kept?.n ?? 0), nextCursor: more ? eventCursor(shown[shown.length - 1]!) : null };
}

/**
 * One event of a group with its payload, and its place among the group's kept events: `position`
 * counts from the oldest (1), `older` and `newer` are the neighbours' event ids. `eventId` may be
 * 'latest' or 'oldest'.
 */
export async function getGroupEvent(db: Queryable, groupId: string, eventId: string) {
  const family = await familyOf(db, groupId);
  const inFamily = `group_id IN (${family.map(() => '?').join(', ')})`;
  const row =
    eventId === 'latest' || eventId === 'oldest'
      ? await db.get<EventRow & { payload: string }>(
          `SELECT ${EVENT_COLUMNS}, payload FROM error_events WHERE ${inFamily}
            ORDER BY received_at ${eventId === 'latest' ? 'DESC' : 'ASC'}, group_id ${eventId === 'latest' ? 'DESC' : 'ASC'}, ordinal ${eventId === 'latest' ? 'DESC' : 'ASC'} LIMIT 1`,
          family,
        )
      : await db.get<EventRow & { payload: string }>(
          `SELECT ${EVENT_COLUMNS}, payload FROM error_events WHERE ${inFamily} AND event_id = ?
            ORDER BY received_at DESC LIMIT 1`,
          [...family, eventId.replaceAll('-', '').toLowerCase()],
        );
  if (!row) return undefined;
  const place: [string, string, number] = [row.received_at, row.group_id, Number(row.ordinal)];
  const [older, newer, counts] = await Promise.all([
    db.get<{ event_id: string }>(
      `SELECT event_id FROM error_events WHERE ${inFamily} AND ${OLDER_THAN} ${NEWEST_FIRST} LIMIT 1`,
      [...family, ...olderParams(place)],
    ),
    db.get<{ event_id: string }>(
      `SELECT event_id FROM error_events WHERE ${inFamily}
        AND (received_at > ? OR (received_at = ? AND (group_id > ? OR (group_id = ? AND ordinal > ?))))
        ORDER BY received_at ASC, group_id ASC, ordinal ASC LIMIT 1`,
      [...family, ...olderParams(place)],
    ),
    db.get<{ kept: number; older: number }>(
      `SELECT COUNT(*) AS kept, SUM(CASE WHEN ${OLDER_THAN} THEN 1 ELSE 0 END) AS older FROM error_events WHERE ${inFamily}`,
      [...olderParams(place), ...family],
    ),
  ]);
  return {
    row,
    event: decompressPayload(row.payload),
    position: Number(counts?.older ?? 0) + 1,
    kept: Number(counts?.kept ?? 0),
    older: older?.event_id ?? null,
    newer: newer?.event_id ?? null,
  };
}
