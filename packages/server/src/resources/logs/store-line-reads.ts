/**
 * Reads of log_lines, log_volume and log_group_attributes (issue 32): the explorer's lines
 * (newest first, keyset pages on (ts, id) read in the order of an index, so a first page reads
 * rows in proportion to the page, not the table), a group's lines, the histogram by level from
 * the volume counts, the lines around one line and the live tail's new lines.
 */
import type { Database, Queryable, SqlValue } from '../../db/database.ts';
import { containsPattern, Where } from '../../db/query.ts';
import type { KeyEnvironment } from '../../kernel/api-keys.ts';
import type { ReportStatus } from '../reports/index.ts';
import type { FieldFilter } from './field-filter.ts';
import { ATTRIBUTE_KINDS, type AttributeKind } from './store-lines.ts';

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

type Dialect = Database['dialect'];

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

function lineWhere(dialect: Dialect, projectId: string, filter: LineFilter): Where {
  const where = new Where('l.project_id = ?', projectId)
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
): { sql: string; params: SqlValue[] } {
  const where = lineWhere(dialect, projectId, filter);
  if (cursor) where.add('(l.ts, l.id) < (?, CAST(? AS BIGINT))', cursor.ts, cursor.id);
  return {
    sql: `SELECT ${LINE_COLUMNS} FROM log_lines l JOIN log_groups g ON g.id = l.group_id
      WHERE ${where.sql} ORDER BY l.ts DESC, l.id DESC LIMIT ?`,
    params: [...where.params, limit],
  };
}

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
  const rows = await db.all<T>(...pageArgs(linePageQuery(db.dialect, projectId, filter, limit + 1, cursor)));
  const hasMore = rows.length > limit;
  return { rows: hasMore ? rows.slice(0, limit) : rows, hasMore };
}

/** Lines a search (text, fields) reads in time order for one page at most. */
export const SEARCH_BUDGET = 50_000;

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
  const plain = lineWhere(dialect, projectId, { ...filter, q: undefined, fields: [] });
  if (cursor) plain.add('(l.ts, l.id) < (?, CAST(? AS BIGINT))', cursor.ts, cursor.id);
  const search = searchWhere(new Where(), dialect, filter);
  if (!needsGroup(filter)) {
    // Only the lines' own columns are filtered: the window reads log_lines alone and the page's
    // few matches meet their groups afterwards (the join per line was about half of a rare
    // field value's time at 1,000,000 lines).
    return {
      sql: `SELECT ${LINE_COLUMNS} FROM (SELECT * FROM (SELECT l.* FROM log_lines l WHERE ${plain.sql}
        ORDER BY l.ts DESC, l.id DESC LIMIT ${SEARCH_BUDGET}) l
        WHERE ${search.sql} ORDER BY l.ts DESC, l.id DESC LIMIT ?) l JOIN log_groups g ON g.id = l.group_id
        ORDER BY l.ts DESC, l.id DESC`,
      params: [...plain.params, ...search.params, limit],
    };
  }
  // The window's rows carry the group's columns: the search reads them there (no second lookup).
  const outer = search.sql.replaceAll('g.message', 'l.message').replaceAll('g.category', 'l.category');
  return {
    sql: `SELECT * FROM (SELECT ${LINE_COLUMNS} FROM log_lines l JOIN log_groups g ON g.id = l.group_id
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
  const plain = (after: LineCursor | undefined) => {
    const where = lineWhere('postgres', projectId, { ...filter, fields: [] });
    if (after) where.add('(l.ts, l.id) < (?, CAST(? AS BIGINT))', after.ts, after.id);
    return where;
  };
  const fields = new Where();
  for (const field of filter.fields ?? []) fieldClause(fields, 'postgres', field);
  const first = plain(cursor);
  // As in searchWindowQuery: lines meet their groups before filtering only when a condition reads the group.
  const grouped = needsGroup(filter);
  const join = grouped ? 'JOIN log_groups g ON g.id = l.group_id' : '';
  return {
    window: grouped
      ? {
          sql: `SELECT * FROM (SELECT ${LINE_COLUMNS} FROM log_lines l JOIN log_groups g ON g.id = l.group_id
        WHERE ${first.sql} ORDER BY l.ts DESC, l.id DESC LIMIT ${FIELD_WINDOW}) l
        WHERE ${fields.sql} ORDER BY l.ts DESC, l.id DESC LIMIT ?`,
          params: [...first.params, ...fields.params, limit],
        }
      : {
          sql: `SELECT ${LINE_COLUMNS} FROM (SELECT * FROM (SELECT l.* FROM log_lines l WHERE ${first.sql}
        ORDER BY l.ts DESC, l.id DESC LIMIT ${FIELD_WINDOW}) l
        WHERE ${fields.sql} ORDER BY l.ts DESC, l.id DESC LIMIT ?) l JOIN log_groups g ON g.id = l.group_id
        ORDER BY l.ts DESC, l.id DESC`,
          params: [...first.params, ...fields.params, limit],
        },
    rest: (after) => {
      const where = plain(after);
      return {
        sql: `WITH hits AS MATERIALIZED (SELECT l.id FROM log_lines l ${join}
          WHERE ${where.sql} AND ${fields.sql})
          SELECT ${LINE_COLUMNS} FROM hits JOIN log_lines l ON l.id = hits.id JOIN log_groups g ON g.id = l.group_id
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
  const where = lineWhere(db.dialect, projectId, bounds);
  if (cursor) where.add('(l.ts, l.id) < (?, CAST(? AS BIGINT))', cursor.ts, cursor.id);
  // Without a group condition, no group is read: on the time index alone this is an index-only count.
  const join = needsGroup(bounds) ? 'JOIN log_groups g ON g.id = l.group_id' : '';
  const end = await db.get<{ ts: string; id: string | number }>(
    `SELECT l.ts, l.id FROM log_lines l ${join} WHERE ${where.sql}
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
  const where = lineWhere(db.dialect, projectId, filter);
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

export type VolumeBucket = 'minute' | 'hour' | 'day';
const PREFIX: Record<VolumeBucket, number> = { minute: 16, hour: 13, day: 10 };

/** Filters the volume counts cannot answer (they are per group): these count lines instead. */
export const lineOnly = (filter: LineFilter) =>
  Boolean(filter.source || filter.appVersion || filter.userId || (filter.fields?.length ?? 0) > 0);

/**
 * Lines per bucket and level over [since, until). From log_volume (the project's totals, or per
 * group per hour and per minute for recent hours when a group filter applies: status, category,
 * text in the message or category) unless a filter looks into lines (lineOnly: source, app
 * version, user, fields) or minutes are asked for older than log_volume keeps them
 * (`countLines`): then the kept lines are counted.
 */
export function lineHistogramQuery(
  dialect: Dialect,
  projectId: string,
  filter: LineFilter & { from: string; to: string },
  bucket: VolumeBucket,
  countLines: boolean,
): { sql: string; params: SqlValue[] } {
  const length = PREFIX[bucket];
  if (countLines || lineOnly(filter)) {
    const where = lineWhere(dialect, projectId, filter);
    return {
      sql: `SELECT SUBSTR(l.ts, 1, ${length}) AS bucket, l.level, COUNT(*) AS n
        FROM log_lines l JOIN log_groups g ON g.id = l.group_id WHERE ${where.sql} GROUP BY 1, 2`,
      params: where.params,
    };
  }
  // The project's totals per level (units H and M, store-lines.ts) unless a filter needs groups.
  const perGroup = Boolean(filter.groupId || filter.status || filter.category || filter.q);
  const unit = bucket === 'minute' ? (perGroup ? 'm' : 'M') : perGroup ? 'h' : 'H';
  const cut = bucket === 'minute' ? 16 : 13;
  // Whole buckets: the one `to` falls in counts unless `to` is its start.
  const step = bucket === 'minute' ? 60_000 : 3_600_000;
  const end = new Date(Date.parse(filter.to) + step - 1).toISOString().slice(0, cut);
  const where = new Where(
    'v.project_id = ? AND v.unit = ? AND v.bucket >= ? AND v.bucket < ?',
    projectId,
    unit,
    filter.from.slice(0, cut),
    end,
  )
    .when(filter.environment, 'v.environment = ?', filter.environment ?? null)
    .when(filter.groupId, 'v.group_id = ?', filter.groupId ?? null)
    .when(filter.status, 'g.status = ?', filter.status ?? null)
    .when(filter.category, 'g.category = ?', filter.category ?? null);
  if (filter.levels && filter.levels.length > 0)
    where.add(`v.level IN (${filter.levels.map(() => '?').join(', ')})`, ...filter.levels);
  // Text, in the histogram, is the group's message or category (the lines' data would mean reading every line).
  if (filter.q) {
    const pattern = containsPattern(filter.q);
    where.add(
      `(LOWER(g.message) LIKE ? ESCAPE '\\' OR LOWER(COALESCE(g.category, '')) LIKE ? ESCAPE '\\')`,
      pattern,
      pattern,
    );
  }
  const join = filter.status || filter.category || filter.q ? 'JOIN log_groups g ON g.id = v.group_id' : '';
  return {
    sql: `SELECT SUBSTR(v.bucket, 1, ${length}) AS bucket, v.level, SUM(v.n) AS n
      FROM log_volume v ${join} WHERE ${where.sql} GROUP BY 1, 2`,
    params: where.params,
  };
}

export async function lineHistogramRows(
  db: Database,
  projectId: string,
  filter: LineFilter & { from: string; to: string },
  bucket: VolumeBucket,
  countLines: boolean,
): Promise<{ bucket: string; level: string; n: number }[]> {
  const { sql, params } = lineHistogramQuery(db.dialect, projectId, filter, bucket, countLines);
  const rows = await db.all<{ bucket: string; level: string; n: number | string }>(sql, params);
  return rows.map((row) => ({ bucket: row.bucket, level: row.level, n: Number(row.n) }));
}

/** Every source, app version and user of a group with its count, the most frequent first (`limit` each). */
export async function groupAttributes(
  db: Queryable,
  groupId: string,
  limit: number,
): Promise<Record<AttributeKind, { value: string; count: number }[]>> {
  const result = { source: [], app_version: [], user_id: [] } as Record<
    AttributeKind,
    { value: string; count: number }[]
  >;
  for (const kind of ATTRIBUTE_KINDS) {
    const rows = await db.all<{ value: string; n: number | string }>(
      'SELECT value, n FROM log_group_attributes WHERE group_id = ? AND kind = ? ORDER BY n DESC, value LIMIT ?',
      [groupId, kind, limit],
    );
    result[kind] = rows.map((row) => ({ value: row.value, count: Number(row.n) }));
  }
  return result;
}
