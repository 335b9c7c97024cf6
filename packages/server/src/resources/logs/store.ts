/** The reads of log_groups: triage (status), the explorer's list, counts and histogram. Written by store-group-writes.ts. */
import type { Database, Queryable, SqlValue } from '../../db/database.ts';
import type { Dialect } from './store-line-reads.ts';
import { searchClause, Where } from '../../db/query.ts';
import type { KeyEnvironment } from '../../kernel/api-keys.ts';
import {
  getTriage,
  listTriage,
  setTriageStatus,
  triageStatusCounts,
  type ReportFilter,
  type ReportStatus,
  type TriageTable,
} from '../reports/index.ts';

/** log_groups as triage reads it (the query shapes are the reports' triage ones). */
const LOG_GROUPS: TriageTable = {
  table: 'log_groups',
  search: ['message', 'category', 'source', 'fingerprint'],
  grade: 'level',
};

export async function listLogGroups<T>(db: Queryable, projectId: string, filter: ReportFilter) {
  return listTriage<T>(db, LOG_GROUPS, projectId, filter);
}

export async function getLogGroup<T>(db: Queryable, projectId: string, id: string): Promise<T | undefined> {
  return getTriage<T>(db, LOG_GROUPS, projectId, id);
}

export async function setLogGroupStatus(
  db: Queryable,
  projectId: string,
  id: string,
  status: ReportStatus,
): Promise<boolean> {
  return setTriageStatus(db, LOG_GROUPS, projectId, id, status);
}

export async function logGroupStatusCounts(db: Queryable, projectId: string, environment: KeyEnvironment | undefined) {
  return triageStatusCounts(db, LOG_GROUPS, projectId, environment);
}

/** Counts stop here: the list header says "1,000+" rather than reading every row. */
export const COUNT_CAP = 1000;

export interface LogFilter {
  environment?: KeyEnvironment | undefined;
  status?: ReportStatus | undefined;
  levels?: string[] | undefined;
  /** Last seen at or after. */
  since?: string | undefined;
  /** Last seen before. */
  until?: string | undefined;
  category?: string | undefined;
  source?: string | undefined;
  appVersion?: string | undefined;
  userId?: string | undefined;
  q?: string | undefined;
}

/** Where a page starts: after this group in (last seen, id) descending order. */
export interface LogCursor {
  lastSeenAt: string;
  id: string;
}

/**
 * A group any of whose lines came from this source, app version or user (log_group_attributes),
 * or, for a group from before those were kept, whose latest entry did.
 */
const attributeMatch = (kind: 'source' | 'app_version' | 'user_id') =>
  `(${kind} = ? OR EXISTS (SELECT 1 FROM log_group_attributes a
    WHERE a.group_id = log_groups.id AND a.kind = '${kind}' AND a.value = ?))`;

function logWhere(dialect: Dialect, projectId: string, filter: LogFilter): Where {
  const where = new Where('project_id = ?', projectId)
    .when(filter.environment, 'environment = ?', filter.environment ?? null)
    .when(filter.status, 'status = ?', filter.status ?? null)
    .when(filter.category, 'category = ?', filter.category ?? null)
    .when(filter.source, attributeMatch('source'), filter.source ?? null, filter.source ?? null)
    .when(filter.appVersion, attributeMatch('app_version'), filter.appVersion ?? null, filter.appVersion ?? null)
    .when(filter.userId, attributeMatch('user_id'), filter.userId ?? null, filter.userId ?? null)
    .when(filter.since, 'last_seen_at >= ?', filter.since ?? null)
    .when(filter.until, 'last_seen_at < ?', filter.until ?? null);
  if (filter.levels && filter.levels.length > 0) {
    if (filter.levels.length === 1) where.add('level = ?', filter.levels[0]!);
    else where.add(`level IN (${filter.levels.map(() => '?').join(', ')})`, ...filter.levels);
  }
  if (filter.q) {
    const search = searchClause(LOG_GROUPS.search, filter.q, dialect);
    where.add(search.sql, ...search.params);
  }
  return where;
}

/** The list query of one page, exported for the query-plan test. */
export function logPageQuery(
  dialect: Dialect,
  projectId: string,
  filter: LogFilter,
  limit: number,
  after: { cursor: LogCursor } | { offset: number },
): { sql: string; params: SqlValue[] } {
  const where = logWhere(dialect, projectId, filter);
  if ('cursor' in after) {
    where.add('(last_seen_at, id) < (?, ?)', after.cursor.lastSeenAt, after.cursor.id);
    return {
      sql: `SELECT * FROM log_groups WHERE ${where.sql} ORDER BY last_seen_at DESC, id DESC LIMIT ?`,
      params: [...where.params, limit],
    };
  }
  return {
    sql: `SELECT * FROM log_groups WHERE ${where.sql} ORDER BY last_seen_at DESC, id DESC LIMIT ? OFFSET ?`,
    params: [...where.params, limit, after.offset],
  };
}

/** Rows of one text-search window: the newest groups after the cursor, searched in this many at a time. */
export const TEXT_WINDOW = 2000;

/**
 * A text search over one window of the list's order, exported for the query-plan test: the
 * newest TEXT_WINDOW groups (after `cursor`) that match the other filters, read in index order,
 * then searched. A contains-search has no b-tree index; searched window by window it costs rows
 * in proportion to how far the page reaches, never a scan and sort of the whole table (which
 * PostgreSQL's planner otherwise picks when it guesses few matches).
 */
export function logTextWindowQuery(
  dialect: Dialect,
  projectId: string,
  filter: LogFilter & { q: string },
  cursor: LogCursor | undefined,
  limit: number,
): { sql: string; params: SqlValue[] } {
  const where = logWhere(dialect, projectId, { ...filter, q: undefined });
  if (cursor) where.add('(last_seen_at, id) < (?, ?)', cursor.lastSeenAt, cursor.id);
  const search = searchClause(LOG_GROUPS.search, filter.q, dialect);
  return {
    sql: `SELECT * FROM (SELECT * FROM log_groups WHERE ${where.sql} ORDER BY last_seen_at DESC, id DESC LIMIT ${TEXT_WINDOW}) w
      WHERE ${search.sql} ORDER BY last_seen_at DESC, id DESC LIMIT ?`,
    params: [...where.params, ...search.params, limit],
  };
}

/** Where a window ends: its last group, or undefined when the window is the last one. */
async function windowEnd(
  db: Database,
  projectId: string,
  filter: LogFilter,
  cursor: LogCursor | undefined,
): Promise<LogCursor | undefined> {
  const where = logWhere(db.dialect, projectId, { ...filter, q: undefined });
  if (cursor) where.add('(last_seen_at, id) < (?, ?)', cursor.lastSeenAt, cursor.id);
  const row = await db.get<{ last_seen_at: string; id: string }>(
    `SELECT last_seen_at, id FROM log_groups WHERE ${where.sql} ORDER BY last_seen_at DESC, id DESC LIMIT 1 OFFSET ${TEXT_WINDOW - 1}`,
    where.params,
  );
  return row ? { lastSeenAt: row.last_seen_at, id: row.id } : undefined;
}

/**
 * One page of log groups, most recently seen first, and whether more follow (one row more is
 * read to know). Keyset paging: a page after `cursor` costs the same as the first. A text search
 * (without offset) goes window by window (logTextWindowQuery).
 */
export async function listLogPage<T extends { last_seen_at: string; id: string }>(
  db: Database,
  projectId: string,
  filter: LogFilter,
  limit: number,
  after: { cursor: LogCursor } | { offset: number },
): Promise<{ rows: T[]; hasMore: boolean }> {
  let rows: T[];
  if (filter.q && !('offset' in after && after.offset > 0)) {
    const q = filter.q;
    rows = [];
    let cursor = 'cursor' in after ? after.cursor : undefined;
    for (;;) {
      const { sql, params } = logTextWindowQuery(
        db.dialect,
        projectId,
        { ...filter, q },
        cursor,
        limit + 1 - rows.length,
      );
      rows.push(...(await db.all<T>(sql, params)));
      if (rows.length > limit) break;
      cursor = await windowEnd(db, projectId, filter, cursor);
      if (!cursor) break;
    }
  } else {
    const { sql, params } = logPageQuery(db.dialect, projectId, filter, limit + 1, after);
    rows = await db.all<T>(sql, params);
  }
  const hasMore = rows.length > limit;
  return { rows: hasMore ? rows.slice(0, limit) : rows, hasMore };
}

/** The groups matching `filter`, counted up to COUNT_CAP + 1 (so "more than the cap" shows). */
export async function countLogGroups(db: Database, projectId: string, filter: LogFilter): Promise<number> {
  const { sql, params } = logCountQuery(db.dialect, projectId, filter);
  const row = await db.get<{ n: number }>(sql, params);
  return Number(row?.n ?? 0);
}

/** Groups per status, each counted up to COUNT_CAP + 1 on the (project, status) index. */
export async function cappedLogStatusCounts(
  db: Database,
  projectId: string,
  environment: KeyEnvironment | undefined,
): Promise<Record<ReportStatus, number>> {
  const statuses: ReportStatus[] = ['open', 'resolved', 'ignored'];
  const counts = await Promise.all(statuses.map((status) => countLogGroups(db, projectId, { environment, status })));
  return { open: counts[0]!, resolved: counts[1]!, ignored: counts[2]! };
}

export type HistogramBucket = 'minute' | 'hour' | 'day';
/** The length of the ISO timestamp prefix that names a bucket. */
const PREFIX: Record<HistogramBucket, number> = { minute: 16, hour: 13, day: 10 };

/** The histogram's query, exported for the query-plan test. */
export function logHistogramQuery(
  dialect: Dialect,
  projectId: string,
  filter: LogFilter & { since: string; until: string },
  bucket: HistogramBucket,
): { sql: string; params: SqlValue[] } {
  const where = logWhere(dialect, projectId, filter);
  return {
    sql: `SELECT SUBSTR(last_seen_at, 1, ${PREFIX[bucket]}) AS bucket, level, COUNT(*) AS n
       FROM log_groups WHERE ${where.sql} GROUP BY 1, 2`,
    params: where.params,
  };
}

/** The count query, exported for the query-plan test. */
export function logCountQuery(
  dialect: Dialect,
  projectId: string,
  filter: LogFilter,
): { sql: string; params: SqlValue[] } {
  const where = logWhere(dialect, projectId, filter);
  return {
    sql: `SELECT COUNT(*) AS n FROM (SELECT 1 FROM log_groups WHERE ${where.sql} LIMIT ${COUNT_CAP + 1}) capped`,
    params: where.params,
  };
}

/** Groups per bucket of last seen and level, for the filter's range (one indexed range read). */
export async function logHistogramRows(
  db: Database,
  projectId: string,
  filter: LogFilter & { since: string; until: string },
  bucket: HistogramBucket,
): Promise<{ bucket: string; level: string; n: number }[]> {
  const { sql, params } = logHistogramQuery(db.dialect, projectId, filter, bucket);
  const rows = await db.all<{ bucket: string; level: string; n: number }>(sql, params);
  return rows.map((row) => ({ bucket: row.bucket, level: row.level, n: Number(row.n) }));
}
