/**
 * Counted reads of the logs (issue 32): the explorer's histogram by level, from the volume counts
 * (log_volume) unless a filter looks into lines, and a group's attribute counts
 * (log_group_attributes). The lines themselves are read in store-line-reads.ts.
 */
import type { Database, Queryable, SqlValue } from '../../db/database.ts';
import { containsPattern, Where } from '../../db/query.ts';
import { type Dialect, type LineFilter, lineWhere, linesFrom } from './store-line-reads.ts';
import { ATTRIBUTE_KINDS, type AttributeKind } from './store-lines.ts';

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
        FROM ${linesFrom(dialect, filter)} JOIN log_groups g ON g.id = l.group_id WHERE ${where.sql} GROUP BY 1, 2`,
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
