/**
 * Reads of log_lines (issue 32): the explorer's lines
 * (newest first, keyset pages on (ts, id) read in the order of an index, so a first page reads
 * rows in proportion to the page, not the table), a group's lines (through its spans,
 * log_line_spans: one row per group and write, joined to the lines by id), the lines around one
 * line and the live tail's new lines. The histogram and a group's attribute counts:
 * store-count-reads.ts.
 */
import { CUSTOM_PLAN, type Database, type Queryable, type SqlValue } from '../../db/database.ts';
import { containsPattern, Where } from '../../db/query.ts';
import type { KeyEnvironment } from '../../kernel/api-keys.ts';
import type { ReportStatus } from '../reports/index.ts';
import type { FieldFilter } from './field-filter.ts';

export interface LineFilter {
  environment?: KeyEnvironment | undefined;
  status?: ReportStatus | undefined;
  levels?: string[] | undefined;
  category?: string | undefined;
  source?: string | undefined;
  appVersion?: string | undefined;
  userId?: string | undefined;
  groupId?: string | undefined;
  /** Plain text: in the group's message and category, or the line's data. */
  q?: string | undefined;
  fields?: FieldFilter[] | undefined;
  /** Line time at or after. */
  from?: string | undefined;
  /** Line time before. */
  to?: string | undefined;
}

/** Where a page starts: after this line in (ts, id) descending order. */
export interface LineCursor {
  ts: string;
  id: string;
}

export const LINE_COLUMNS = `l.id, l.group_id, l.environment, l.ts, l.level, l.severity, l.source, l.app_version,
  l.user_id, l.data, l.trace_id, l.span_id, g.message, g.category, g.fingerprint`;

export type Dialect = Database['dialect'];

/** `$."a"."b"`: a path of checked names (field-filter.ts), as SQLite's JSON functions and jsonpath read it. */
const jsonPath = (path: readonly string[]) => `$${path.map((name) => `."${name}"`).join('')}`;

function nested(path: readonly string[], value: unknown): unknown {
  return path.reduceRight<unknown>((inner, name) => ({ [name]: inner }), value);
}

function fieldClause(where: Where, dialect: Dialect, field: FieldFilter): void {
  const numeric = field.op === 'eq' && /^-?\d+(\.\d+)?$/.test(field.value) ? Number(field.value) : undefined;
  if (dialect === 'postgres') {
    // jsonb_path_exists, not its operator @?: the driver reads every ? outside quotes as a placeholder.
    if (field.op === 'has') where.add('jsonb_path_exists(l.data, CAST(? AS jsonpath))', jsonPath(field.path));
    else if (field.op === 'eq') {
      const text = JSON.stringify(nested(field.path, field.value));
      if (numeric === undefined) where.add('l.data @> CAST(? AS jsonb)', text);
      else
        where.add(
          '(l.data @> CAST(? AS jsonb) OR l.data @> CAST(? AS jsonb))',
          text,
          JSON.stringify(nested(field.path, numeric)),
        );
    } else
      where.add(
        `l.data #>> CAST(? AS text[]) LIKE ? ESCAPE '\\'`,
        `{${field.path.join(',')}}`,
        `${field.value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`,
      );
    return;
  }
  if (field.op === 'has') where.add('json_type(l.data, ?) IS NOT NULL', jsonPath(field.path));
  else if (field.op === 'eq') {
    if (numeric === undefined) where.add('json_extract(l.data, ?) = ?', jsonPath(field.path), field.value);
    else where.add('json_extract(l.data, ?) IN (?, ?)', jsonPath(field.path), field.value, numeric);
  } else
    where.add(
      `json_extract(l.data, ?) LIKE ? ESCAPE '\\'`,
      jsonPath(field.path),
      `${field.value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`,
    );
}

/**
 * A group's lines: its spans (`s`, which do not overlap, so each line is read once) and each
 * span's lines by id (`l`; the line's own group_id is still checked by the caller). The spans
 * stay outside and each span's lines are one range of the primary key: on SQLite by CROSS JOIN
 * and NOT INDEXED (read the other way round, or through the time index, a small group's page
 * would walk the project's lines); on PostgreSQL by a LATERAL subquery kept apart by OFFSET 0,
 * as its planner, guessing a range of ids at half a percent of the table, chose a scan of all
 * lines for the group's equality instead. There log_lines is partitioned by day of `ts`
 * (partitions.ts) and its key is (id, ts): the span's time range, which holds all its lines,
 * lets PostgreSQL read each span's ids in the days it covers only (pruned as each span is read),
 * not probe every day's key.
 */
export function groupLinesFrom(dialect: Dialect): string {
  return dialect === 'sqlite'
    ? 'log_line_spans s CROSS JOIN log_lines l NOT INDEXED ON l.id BETWEEN s.first_id AND s.last_id'
    : `log_line_spans s CROSS JOIN LATERAL (SELECT * FROM log_lines WHERE id BETWEEN s.first_id AND s.last_id
        AND ts >= s.min_ts AND ts <= s.max_ts OFFSET 0) l`;
}

/** Where a query reads lines: a group's through its spans, else log_lines alone. */
export const linesFrom = (dialect: Dialect, filter: LineFilter): string =>
  filter.groupId ? groupLinesFrom(dialect) : 'log_lines l';

/** The spans of the filter's group that may hold lines in its time range (read through linesFrom). */
function spanWhere(where: Where, filter: LineFilter): Where {
  if (!filter.groupId) return where;
  return where
    .add('s.group_id = ?', filter.groupId)
    .when(filter.from, 's.max_ts >= ?', filter.from ?? null)
    .when(filter.to, 's.min_ts < ?', filter.to ?? null);
}

/** Lines before `cursor` in (ts, id) order; for a group, only its spans that start before it. */
function addCursor(where: Where, filter: LineFilter, cursor: LineCursor | undefined): Where {
  if (!cursor) return where;
  if (filter.groupId) where.add('s.min_ts <= ?', cursor.ts);
  return where.add('(l.ts, l.id) < (?, CAST(? AS BIGINT))', cursor.ts, cursor.id);
}

export function lineWhere(dialect: Dialect, projectId: string, filter: LineFilter, spans = true): Where {
  const where = new Where('l.project_id = ?', projectId);
  if (spans) spanWhere(where, filter);
  where
    .when(filter.groupId, 'l.group_id = ?', filter.groupId ?? null)
    .when(filter.environment, 'l.environment = ?', filter.environment ?? null)
    .when(filter.status, 'g.status = ?', filter.status ?? null)
    .when(filter.category, 'g.category = ?', filter.category ?? null)
    .when(filter.source, 'l.source = ?', filter.source ?? null)
    .when(filter.appVersion, 'l.app_version = ?', filter.appVersion ?? null)
    .when(filter.userId, 'l.user_id = ?', filter.userId ?? null)
    .when(filter.from, 'l.ts >= ?', filter.from ?? null)
    .when(filter.to, 'l.ts < ?', filter.to ?? null);
  if (filter.levels && filter.levels.length > 0)
    where.add(`l.level IN (${filter.levels.map(() => '?').join(', ')})`, ...filter.levels);
  return searchWhere(where, dialect, filter);
}

/** Whether the filter reads the group's columns (status, category, or text in its message or category). */
const needsGroup = (filter: LineFilter) => Boolean(filter.status || filter.category || filter.q);

/** Whether the filter searches (text or fields): conditions no index orders, read window by window. */
const searches = (filter: LineFilter) => Boolean(filter.q || (filter.fields?.length ?? 0) > 0);

/** The text and field conditions of `filter`, added to `where`. */
function searchWhere(where: Where, dialect: Dialect, filter: LineFilter): Where {
  if (filter.q) {
    const pattern = containsPattern(filter.q);
    const data = dialect === 'postgres' ? 'CAST(l.data AS text)' : 'l.data';
    where.add(
      `(LOWER(g.message) LIKE ? ESCAPE '\\' OR LOWER(COALESCE(g.category, '')) LIKE ? ESCAPE '\\'
        OR LOWER(COALESCE(${data}, '')) LIKE ? ESCAPE '\\')`,
      pattern,
      pattern,
      pattern,
    );
  }
  for (const field of filter.fields ?? []) fieldClause(where, dialect, field);
  return where;
}

/** One page of lines, newest first, exported for the query-plan test. */
export function linePageQuery(
  dialect: Dialect,
  projectId: string,
  filter: LineFilter,
  limit: number,
  cursor: LineCursor | undefined,
  low?: string,
): { sql: string; params: SqlValue[] } {
  const where = addCursor(lineWhere(dialect, projectId, filter), filter, cursor);
  // A group's page may be bounded below (groupLinesFloor): only spans and lines at or after `low`.
  if (low !== undefined && filter.groupId) where.add('s.max_ts >= ? AND l.ts >= ?', low, low);
  return {
    sql: `SELECT ${LINE_COLUMNS} FROM ${linesFrom(dialect, filter)} JOIN log_groups g ON g.id = l.group_id
      WHERE ${where.sql} ORDER BY l.ts DESC, l.id DESC LIMIT ?`,
    params: [...where.params, limit],
  };
}

/**
 * A time at or before the `count`-th newest line of the group (before `cursor`), from its spans
 * alone: the newest spans by their last line's time until their counts reach `count`, and the
 * earliest time among them. Lines before it lie only in spans that end before the lines these
 * spans hold. undefined when the spans hold fewer lines. A span's count can be more than its
 * lines (the cap and retention delete lines, not counts), never less, so a read bounded by it
 * that finds fewer than `count` lines is done again unbounded (listLinePage, capGroupLines).
 */
export async function groupLinesFloor(
  db: Queryable,
  groupId: string,
  count: number,
  cursor?: LineCursor,
): Promise<string | undefined> {
  const row = await db.get<{ low: string | null; total: number | string | null }>(
    `SELECT MIN(min_ts) AS low, MAX(newer + n) AS total FROM (
      SELECT min_ts, n, SUM(n) OVER (ORDER BY max_ts DESC, first_id DESC) - n AS newer
      FROM log_line_spans WHERE group_id = ?${cursor ? ' AND min_ts <= ?' : ''}) s
    WHERE newer < ?`,
    cursor ? [groupId, cursor.ts, count] : [groupId, count],
  );
  if (!row || row.low === null || Number(row.total) < count) return undefined;
  return row.low;
}

/** Whether a group's page filters only by group (so its spans' counts tell where its page ends). */
const groupOnly = (filter: LineFilter) =>
  Boolean(filter.groupId) &&
  !filter.levels?.length &&
  !filter.source &&
  !filter.appVersion &&
  !filter.userId &&
  !filter.from &&
  !filter.to &&
  !searches(filter);

export async function listLinePage<T extends { ts: string; id: string | number }>(
  db: Database,
  projectId: string,
  filter: LineFilter,
  limit: number,
  cursor: LineCursor | undefined,
): Promise<{ rows: T[]; hasMore: boolean; next?: LineCursor }> {
  if (db.dialect === 'postgres' && filter.fields?.some((field) => field.op === 'eq')) {
    const rows = await byFieldIndex<T>(db, projectId, filter, limit + 1, cursor);
    return { rows: rows.slice(0, limit), hasMore: rows.length > limit };
  }
  if (searches(filter)) return searchedPage<T>(db, projectId, filter, limit, cursor);
  if (groupOnly(filter)) {
    // The newest spans first: a group's page reads the lines of the spans that can hold it.
    const low = await groupLinesFloor(db, filter.groupId!, limit + 1, cursor);
    if (low !== undefined) {
      const rows = await db.all<T>(...pageArgs(linePageQuery(db.dialect, projectId, filter, limit + 1, cursor, low)));
      if (rows.length > limit) return { rows: rows.slice(0, limit), hasMore: true };
    }
  }
  const rows = await db.all<T>(...pageArgs(linePageQuery(db.dialect, projectId, filter, limit + 1, cursor)));
  const hasMore = rows.length > limit;
  return { rows: hasMore ? rows.slice(0, limit) : rows, hasMore };
}

/**
 * Lines a search (text, fields) reads in time order for one page at most. A page's read is thus
 * bounded whatever the table holds (about 10 ms on SQLite here, where it runs on the event loop
 * unless read workers take it: a window of 50,000 held the loop 33 ms at 1,000,000 lines); a rare
 * value takes more pages, which the dashboard reads on by itself (packages/bench/README.md, "Log
 * lines: a smaller search window").
 */
export const SEARCH_BUDGET = 10_000;

/**
 * One window of a search, exported for the query-plan test: the newest SEARCH_BUDGET lines after
 * `cursor` that match the other filters, read in index order, then searched.
 */
export function searchWindowQuery(
  dialect: Dialect,
  projectId: string,
  filter: LineFilter,
  limit: number,
  cursor: LineCursor | undefined,
): { sql: string; params: SqlValue[] } {
  const plain = addCursor(lineWhere(dialect, projectId, { ...filter, q: undefined, fields: [] }), filter, cursor);
  const search = searchWhere(new Where(), dialect, filter);
  const from = linesFrom(dialect, filter);
  if (!needsGroup(filter)) {
    // Only the lines' own columns are filtered: the window reads log_lines alone and the page's
    // few matches meet their groups afterwards (the join per line was about half of a rare
    // field value's time at 1,000,000 lines).
    return {
      sql: `SELECT ${LINE_COLUMNS} FROM (SELECT * FROM (SELECT l.* FROM ${from} WHERE ${plain.sql}
        ORDER BY l.ts DESC, l.id DESC LIMIT ${SEARCH_BUDGET}) l
        WHERE ${search.sql} ORDER BY l.ts DESC, l.id DESC LIMIT ?) l JOIN log_groups g ON g.id = l.group_id
        ORDER BY l.ts DESC, l.id DESC`,
      params: [...plain.params, ...search.params, limit],
    };
  }
  // The window's rows carry the group's columns: the search reads them there (no second lookup).
  const outer = search.sql.replaceAll('g.message', 'l.message').replaceAll('g.category', 'l.category');
  return {
    sql: `SELECT * FROM (SELECT ${LINE_COLUMNS} FROM ${from} JOIN log_groups g ON g.id = l.group_id
      WHERE ${plain.sql} ORDER BY l.ts DESC, l.id DESC LIMIT ${SEARCH_BUDGET}) l
      WHERE ${outer} ORDER BY l.ts DESC, l.id DESC LIMIT ?`,
    params: [...plain.params, ...search.params, limit],
  };
}

/**
 * A search's page without reading every line: one window of SEARCH_BUDGET lines in time order.
 * When the window ends before the page is full, the page is what it found, `hasMore` is true and
 * `next` is where the window ended: the next page goes on searching from there.
 */
async function searchedPage<T extends { ts: string; id: string | number }>(
  db: Database,
  projectId: string,
  filter: LineFilter,
  limit: number,
  cursor: LineCursor | undefined,
): Promise<{ rows: T[]; hasMore: boolean; next?: LineCursor }> {
  const { sql, params } = searchWindowQuery(db.dialect, projectId, filter, limit + 1, cursor);
  const rows = await db.all<T>(sql, params);
  if (rows.length > limit) return { rows: rows.slice(0, limit), hasMore: true };
  const end = await windowEnd(db, projectId, filter, cursor, SEARCH_BUDGET);
  return end ? { rows, hasMore: true, next: end } : { rows, hasMore: false };
}

const pageArgs = (query: { sql: string; params: SqlValue[] }) => [query.sql, query.params] as const;

/** Lines read in time order before an equality field filter falls back to its GIN index (PostgreSQL). */
export const FIELD_WINDOW = 5000;

/**
 * PostgreSQL, an equality field filter: first the newest FIELD_WINDOW lines in time order
 * (a value many lines hold fills the page there), then, for what is left, the lines the GIN
 * index finds (`data @> …`, taken apart from the ordering in a MATERIALIZED CTE, so a rare value
 * costs its matches, not a scan of every line), sorted. Exported for the query-plan test.
 */
export function fieldIndexQueries(
  projectId: string,
  filter: LineFilter,
  limit: number,
  cursor: LineCursor | undefined,
): { window: { sql: string; params: SqlValue[] }; rest: (after: LineCursor) => { sql: string; params: SqlValue[] } } {
  const plain = (after: LineCursor | undefined) =>
    addCursor(lineWhere('postgres', projectId, { ...filter, fields: [] }), filter, after);
  const from = linesFrom('postgres', filter);
  const fields = new Where();
  for (const field of filter.fields ?? []) fieldClause(fields, 'postgres', field);
  const first = plain(cursor);
  // As in searchWindowQuery: lines meet their groups before filtering only when a condition reads the group.
  const grouped = needsGroup(filter);
  const join = grouped ? 'JOIN log_groups g ON g.id = l.group_id' : '';
  return {
    window: grouped
      ? {
          sql: `SELECT * FROM (SELECT ${LINE_COLUMNS} FROM ${from} JOIN log_groups g ON g.id = l.group_id
        WHERE ${first.sql} ORDER BY l.ts DESC, l.id DESC LIMIT ${FIELD_WINDOW}) l
        WHERE ${fields.sql} ORDER BY l.ts DESC, l.id DESC LIMIT ?`,
          params: [...first.params, ...fields.params, limit],
        }
      : {
          sql: `SELECT ${LINE_COLUMNS} FROM (SELECT * FROM (SELECT l.* FROM ${from} WHERE ${first.sql}
        ORDER BY l.ts DESC, l.id DESC LIMIT ${FIELD_WINDOW}) l
        WHERE ${fields.sql} ORDER BY l.ts DESC, l.id DESC LIMIT ?) l JOIN log_groups g ON g.id = l.group_id
        ORDER BY l.ts DESC, l.id DESC`,
          params: [...first.params, ...fields.params, limit],
        },
    rest: (after) => {
      const where = plain(after);
      return {
        // The hits carry their rows: joined back to log_lines by id alone (its key is (id, ts), one
        // index per day's partition), PostgreSQL read every partition for a few hits (a hash join
        // over a scan of all lines, 586 ms at 1,000,000 lines for 10 hits).
        // Planned with its values each time (CUSTOM_PLAN): a generic plan read the time index too.
        sql: `${CUSTOM_PLAN}WITH hits AS MATERIALIZED (SELECT l.* FROM ${from} ${join}
          WHERE ${where.sql} AND ${fields.sql})
          SELECT ${LINE_COLUMNS} FROM hits l JOIN log_groups g ON g.id = l.group_id
          ORDER BY l.ts DESC, l.id DESC LIMIT ?`,
        params: [...where.params, ...fields.params, limit],
      };
    },
  };
}

/** Where the newest FIELD_WINDOW lines (before `cursor`, other filters applied) end, or undefined if they are all. */
async function windowEnd(
  db: Database,
  projectId: string,
  filter: LineFilter,
  cursor: LineCursor | undefined,
  size: number,
  keepText = false,
): Promise<LineCursor | undefined> {
  const bounds = { ...filter, fields: [], q: keepText ? filter.q : undefined };
  const where = addCursor(lineWhere(db.dialect, projectId, bounds), bounds, cursor);
  // Without a group condition, no group is read: on the time index alone this is an index-only count.
  const join = needsGroup(bounds) ? 'JOIN log_groups g ON g.id = l.group_id' : '';
  const end = await db.get<{ ts: string; id: string | number }>(
    `SELECT l.ts, l.id FROM ${linesFrom(db.dialect, bounds)} ${join} WHERE ${where.sql}
      ORDER BY l.ts DESC, l.id DESC LIMIT 1 OFFSET ${size - 1}`,
    where.params,
  );
  return end ? { ts: end.ts, id: String(end.id) } : undefined;
}

async function byFieldIndex<T extends { ts: string; id: string | number }>(
  db: Database,
  projectId: string,
  filter: LineFilter,
  limit: number,
  cursor: LineCursor | undefined,
): Promise<T[]> {
  const { window, rest } = fieldIndexQueries(projectId, filter, limit, cursor);
  const rows = await db.all<T>(window.sql, window.params);
  if (rows.length >= limit) return rows;
  const end = await windowEnd(db, projectId, filter, cursor, FIELD_WINDOW, true);
  if (!end) return rows;
  const older = rest(end);
  return [...rows, ...(await db.all<T>(older.sql, [...older.params.slice(0, -1), limit - rows.length]))];
}

/** The lines of every group of the line's project and environment within `spanMs` either side of it. */
export async function linesAround<T>(
  db: Queryable,
  projectId: string,
  lineId: string,
  spanMs: number,
  limit: number,
): Promise<{ line: T & { ts: string }; rows: T[] } | undefined> {
  if (!/^\d{1,18}$/.test(lineId)) return undefined;
  const line = await db.get<T & { ts: string; environment: string }>(
    `SELECT ${LINE_COLUMNS} FROM log_lines l JOIN log_groups g ON g.id = l.group_id
      WHERE l.project_id = ? AND l.id = CAST(? AS BIGINT)`,
    [projectId, lineId],
  );
  if (!line) return undefined;
  const at = Date.parse(line.ts);
  const rows = await db.all<T>(
    `SELECT ${LINE_COLUMNS} FROM log_lines l JOIN log_groups g ON g.id = l.group_id
      WHERE l.project_id = ? AND l.environment = ? AND l.ts >= ? AND l.ts <= ? ORDER BY l.ts, l.id LIMIT ?`,
    [projectId, line.environment, new Date(at - spanMs).toISOString(), new Date(at + spanMs).toISOString(), limit],
  );
  return { line, rows };
}

/** Lines written after `afterId`, oldest first: the live tail's poll (ids grow with every insert). */
export async function linesAfter<T>(
  db: Database,
  projectId: string,
  filter: LineFilter,
  afterId: string,
  limit: number,
): Promise<T[]> {
  // The new lines by id, not through spans: a poll reads what was written since the last one.
  const where = lineWhere(db.dialect, projectId, filter, false);
  where.add('l.id > CAST(? AS BIGINT)', afterId);
  return db.all<T>(
    `SELECT ${LINE_COLUMNS} FROM log_lines l JOIN log_groups g ON g.id = l.group_id
      WHERE ${where.sql} ORDER BY l.id LIMIT ?`,
    [...where.params, limit],
  );
}

/**
 * The newest line id of all (the live tail starts after it), or '0': the primary key's last
 * entry, one read whatever the project (linesAfter keeps to the tail's project).
 */
export async function lastLineId(db: Queryable): Promise<string> {
  const row = await db.get<{ id: string | number | null }>('SELECT MAX(id) AS id FROM log_lines');
  return row?.id === null || row?.id === undefined ? '0' : String(row.id);
}
