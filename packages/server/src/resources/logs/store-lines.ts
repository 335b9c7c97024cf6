/**
 * The one store of log_lines, log_line_spans, log_volume and log_group_attributes (issue 32): what
 * the group write (store.ts) adds, in its transaction, for every accepted entry: the entry as a
 * line of its group, one span per group and write that finds the group's lines by id
 * (store-line-reads.ts), the group's per-hour and per-minute counts, and every source, app
 * version and user that sent it. One multi-row statement per table and chunk, counts folded per
 * batch first, so a batch of repeats costs a few upserts, not one per entry.
 */
import { type Database, placeholders, type Queryable, type SqlValue } from '../../db/database.ts';
import type { Scope } from '../../kernel/scope.ts';
import type { LogEntry } from './schemas.ts';
import { compareText } from '../../kernel/compare-text.ts';

/** A written group: its id and the entries of the batch that went to it, each with its time. */
export interface LineGroup {
  id: string;
  lines: ReadonlyArray<readonly [LogEntry, string]>;
}

/**
 * `fatal`, which the spec's five levels do not have: the group and the line keep the level
 * `error` and the line's `severity` says `fatal`. Read from what each intake leaves in `data`:
 * OTLP's severityNumber 21–24 or severityText, pino's and Sentry's `severity: "fatal"` (their
 * mappings set it), or a client's own `data.severity`.
 */
export function severityOf(entry: LogEntry): string | null {
  const data = entry.data;
  if (!data || entry.level !== 'error') return null;
  const severity = data['severity'];
  if (typeof severity === 'string' && severity.toLowerCase() === 'fatal') return 'fatal';
  const number = data['severityNumber'];
  if (typeof number === 'number' && number >= 21) return 'fatal';
  const text = data['severityText'];
  if (typeof text === 'string' && /^fatal/i.test(text)) return 'fatal';
  return null;
}

function idOf(data: Record<string, unknown> | undefined, ...names: string[]): string | null {
  if (!data) return null;
  for (const name of names) {
    const value = data[name];
    if (typeof value === 'string' && value !== '') return value.slice(0, 64);
  }
  return null;
}

type Dialect = Database['dialect'];

const LINE_COLUMNS = 12;
const LINE_ROW = `(${placeholders(LINE_COLUMNS)})`;
const ROWS = 100;

const cache = new Map<string, string>();
function statement(key: string, rows: number, build: (values: string) => string, row: string): string {
  const id = `${key}:${rows}`;
  let sql = cache.get(id);
  if (sql === undefined) {
    sql = build(`VALUES ${Array.from({ length: rows }, () => row).join(', ')}`);
    cache.set(id, sql);
  }
  return sql;
}

const insertLines = (rows: number) =>
  statement(
    'lines',
    rows,
    (values) => `INSERT INTO log_lines (group_id, project_id, environment, ts, level, severity, source, app_version,
      user_id, data, trace_id, span_id) ${values}`,
    LINE_ROW,
  );

const VOLUME_CONFLICT = `ON CONFLICT (project_id, unit, bucket, group_id) DO UPDATE SET n = log_volume.n + excluded.n,
  level = excluded.level`;
const ATTRIBUTE_CONFLICT = `ON CONFLICT (group_id, kind, value) DO UPDATE SET n = log_group_attributes.n + excluded.n,
  last_seen_at = CASE WHEN excluded.last_seen_at > log_group_attributes.last_seen_at
    THEN excluded.last_seen_at ELSE log_group_attributes.last_seen_at END`;

const VOLUME_ROW = `(${placeholders(7)})`;
const upsertVolume = (rows: number) =>
  statement(
    'volume',
    rows,
    (values) => `INSERT INTO log_volume (project_id, unit, bucket, group_id, environment, level, n) ${values}
      ${VOLUME_CONFLICT}`,
    VOLUME_ROW,
  );

/** PostgreSQL: a write's volume rows in one statement, as INSERT_LINES_PG sends lines: [unit, bucket, group, level, n]. */
const UPSERT_VOLUME_PG = `INSERT INTO log_volume (project_id, unit, bucket, group_id, environment, level, n)
  SELECT ?, r->>0, r->>1, r->>2, ?, r->>3, CAST(r->>4 AS bigint) FROM jsonb_array_elements(CAST(? AS jsonb)) AS r
  ${VOLUME_CONFLICT}`;

/** PostgreSQL: a write's attribution in one statement: [group, kind, value, n, last seen]. */
const UPSERT_ATTRIBUTES_PG = `INSERT INTO log_group_attributes (group_id, kind, value, n, last_seen_at)
  SELECT r->>0, r->>1, r->>2, CAST(r->>3 AS bigint), r->>4 FROM jsonb_array_elements(CAST(? AS jsonb)) AS r
  ${ATTRIBUTE_CONFLICT}`;

const ATTRIBUTE_ROW = `(${placeholders(5)})`;
const upsertAttributes = (rows: number) =>
  statement(
    'attributes',
    rows,
    (values) => `INSERT INTO log_group_attributes (group_id, kind, value, n, last_seen_at) ${values}
      ${ATTRIBUTE_CONFLICT}`,
    ATTRIBUTE_ROW,
  );

/**
 * PostgreSQL: all of a write's lines in one statement, and their spans: one per run of consecutive
 * ids of one group (a group's lines in one write are one run unless another process's write took
 * ids between them; a span never covers another group's line, so no two spans overlap). The
 * lines go as one JSON array of one array per line (`pgLine`) that the database takes apart.
 * Before, the lines went as one array per column (`unnest`): node-postgres wrote each column as
 * an array literal in JavaScript, escaping every element, and each line's data was a JSON text
 * of its own inside it. One `JSON.stringify` of the whole write (data nested as objects) cost the
 * server about a fifth of that per line, and PostgreSQL parses one document instead of twelve
 * array literals and a JSON text per line (packages/bench/README.md, "Log lines, third round").
 */
const INSERT_LINES_PG = `WITH written AS (INSERT INTO log_lines (group_id, project_id, environment, ts, level, severity,
    source, app_version, user_id, data, trace_id, span_id)
  SELECT r->>0, ?, ?, r->>1, r->>2, r->>3, r->>4, r->>5, r->>6, NULLIF(r->7, 'null'::jsonb), r->>8, r->>9
  FROM jsonb_array_elements(CAST(? AS jsonb)) AS r
  RETURNING id, group_id, ts)
  INSERT INTO log_line_spans (group_id, max_ts, first_id, last_id, min_ts, n, project_id)
  SELECT group_id, MAX(ts), MIN(id), MAX(id), MIN(ts), COUNT(*), ?
  FROM (SELECT group_id, id, ts, id - ROW_NUMBER() OVER (PARTITION BY group_id ORDER BY id) AS run FROM written) w
  GROUP BY group_id, run`;

/**
 * SQLite: a write's spans, one row per group ([group, max ts, first id, last id, min ts, n,
 * project]). The ids are the write's own: SQLite has one writer and gives each inserted row the
 * greatest rowid plus one, so a write's lines are consecutive ids in the order they were sent.
 */
const SPAN_ROW = `(${placeholders(7)})`;
const insertSpans = (rows: number) =>
  statement(
    'spans',
    rows,
    (values) => `INSERT INTO log_line_spans (group_id, max_ts, first_id, last_id, min_ts, n, project_id) ${values}`,
    SPAN_ROW,
  );

/**
 * A text column's value inside the JSON document: well formed, as node-postgres sends a text
 * parameter (a lone surrogate becomes U+FFFD), where `JSON.stringify` would write it as a `\u`
 * escape that PostgreSQL's JSON parser refuses. `data` is sent as before (its JSON text was
 * always parsed by PostgreSQL).
 */
const wellFormed = (value: string | undefined): string | null =>
  value === undefined ? null : value.isWellFormed() ? value : value.toWellFormed();

/** A line as INSERT_LINES_PG reads it: group, time, level, severity, source, version, user, data, trace, span. */
function pgLine(groupId: string, entry: LogEntry, at: string): unknown[] {
  const data = entry.data;
  if (data === undefined)
    return [
      groupId,
      at,
      entry.level,
      null,
      wellFormed(entry.source),
      wellFormed(entry.appVersion),
      wellFormed(entry.userId),
      null,
      null,
      null,
    ];
  return [
    groupId,
    at,
    entry.level,
    severityOf(entry),
    wellFormed(entry.source),
    wellFormed(entry.appVersion),
    wellFormed(entry.userId),
    data,
    wellFormed(idOf(data, 'traceId', 'trace_id') ?? undefined),
    wellFormed(idOf(data, 'spanId', 'span_id') ?? undefined),
  ];
}

/** Runs `rows` (each `width` values) as multi-row statements of at most ROWS rows. */
async function inChunks(
  tx: Queryable,
  values: SqlValue[],
  width: number,
  sqlFor: (rows: number) => string,
): Promise<void> {
  const per = ROWS * width;
  for (let from = 0; from < values.length; from += per) {
    const chunk = from === 0 && values.length <= per ? values : values.slice(from, from + per);
    await tx.run(sqlFor(chunk.length / width), chunk);
  }
}

/**
 * SQLite: inserts the write's lines (LINE_COLUMNS values each) in statements of ROWS lines and
 * returns the first line's id. Each statement's last rowid must be the one before plus its rows
 * (consecutive ids, which the spans rely on); anything else fails the write rather than store a
 * span that names other lines.
 */
async function insertLinesSqlite(tx: Queryable, values: SqlValue[]): Promise<number> {
  const per = ROWS * LINE_COLUMNS;
  let first: number | undefined;
  let last = 0;
  for (let from = 0; from < values.length; from += per) {
    const chunk = from === 0 && values.length <= per ? values : values.slice(from, from + per);
    const rows = chunk.length / LINE_COLUMNS;
    const inserted = (await tx.run(insertLines(rows), chunk)).lastInsertRowid;
    if (inserted === undefined || (first !== undefined && inserted !== last + rows))
      throw new Error('log lines: the ids of one write are not consecutive');
    first ??= inserted - rows + 1;
    last = inserted;
  }
  return first!;
}

/** A group's lines in one write: where they start among the write's lines, how many, their time range. */
interface SpanOfWrite {
  group: string;
  start: number;
  n: number;
  minTs: string;
  maxTs: string;
}

export const ATTRIBUTE_KINDS = ['source', 'app_version', 'user_id'] as const;
export type AttributeKind = (typeof ATTRIBUTE_KINDS)[number];

interface VolumeRow {
  group: string;
  unit: string;
  bucket: string;
  level: string;
  n: number;
}

/** Adds `n` lines of `level` at minute `minute` (`YYYY-MM-DDTHH:MM`) to `owner`'s hour and minute counts. */
function addVolume(
  volume: Map<string, VolumeRow>,
  owner: string,
  hourUnit: string,
  minuteUnit: string,
  minute: string,
  level: string,
  n: number,
): void {
  addCount(volume, owner, hourUnit, minute.slice(0, 13), level, n);
  addCount(volume, owner, minuteUnit, minute, level, n);
}

function addCount(
  volume: Map<string, VolumeRow>,
  owner: string,
  unit: string,
  bucket: string,
  level: string,
  n: number,
): void {
  const key = `${owner}\u0000${unit}\u0000${bucket}`;
  const counted = volume.get(key);
  if (counted) {
    counted.n += n;
    counted.level = level;
  } else volume.set(key, { group: owner, unit, bucket, level, n });
}

interface AttributeCount {
  n: number;
  last: string;
}

/**
 * One group's values of one attribute kind, counted (keyed by the value alone: no key built per
 * line). The map is made on the first value: most groups of a write send no app version or user.
 */
function countValue(
  values: Map<string, AttributeCount> | undefined,
  value: string | undefined,
  at: string,
): Map<string, AttributeCount> | undefined {
  if (value === undefined) return values;
  const seen = values?.get(value);
  if (!seen) {
    const counted = values ?? new Map<string, AttributeCount>();
    counted.set(value, { n: 1, last: at });
    return counted;
  }
  seen.n++;
  if (at > seen.last) seen.last = at;
  return values;
}

/** A group's values of one kind in order (one value, the usual case, without a copy to sort). */
const sortedValues = (values: Map<string, AttributeCount>): Iterable<string> =>
  values.size === 1 ? values.keys() : [...values.keys()].sort(compareText);

/**
 * Writes the batch's lines, volume and attribution: called inside the group write's transaction.
 *
 * Per line, only the line's own row is built; the counts are folded per run of lines of one
 * group in one minute and level (a batch's lines mostly share both), and attribution per group by
 * value, so the maps see a key per run, not several keys built per line. A profile of POST /logs
 * with repeats had the per-line keys of the first version at a sixth of the server's CPU.
 */
export async function writeLines(
  tx: Queryable,
  dialect: Dialect,
  scope: Scope,
  groups: readonly LineGroup[],
): Promise<void> {
  const pg = dialect === 'postgres';
  /** SQLite: LINE_COLUMNS values a line, for multi-row `VALUES`; PostgreSQL: one array a line (pgLine). */
  const lines: unknown[] = [];
  const volume = new Map<string, VolumeRow>();
  const attributes: Array<[string, AttributeKind, Map<string, AttributeCount>]> = [];
  const spans: SpanOfWrite[] = [];
  let written = 0;
  const { projectId, environment } = scope;
  for (const group of groups) {
    const groupId = group.id;
    if (group.lines.length === 0) continue;
    const span: SpanOfWrite = { group: groupId, start: written, n: group.lines.length, minTs: '', maxTs: '' };
    written += span.n;
    let minTs = group.lines[0]![1];
    let maxTs = minTs;
    let sources: Map<string, AttributeCount> | undefined;
    let versions: Map<string, AttributeCount> | undefined;
    let users: Map<string, AttributeCount> | undefined;
    // The current run: lines of one minute and level, counted once it ends.
    let runAt = '';
    let runMinute = '';
    let runLevel = '';
    let runLines = 0;
    for (const [entry, at] of group.lines) {
      const data = entry.data;
      const level = entry.level;
      if (pg) lines.push(pgLine(groupId, entry, at));
      else
        lines.push(
          groupId,
          projectId,
          environment,
          at,
          level,
          data === undefined ? null : severityOf(entry),
          entry.source ?? null,
          entry.appVersion ?? null,
          entry.userId ?? null,
          data === undefined ? null : JSON.stringify(data),
          data === undefined ? null : idOf(data, 'traceId', 'trace_id'),
          data === undefined ? null : idOf(data, 'spanId', 'span_id'),
        );
      if (at !== runAt || level !== runLevel) {
        const minute = at === runAt ? runMinute : at.slice(0, 16);
        if (minute !== runMinute || level !== runLevel) {
          if (runLines > 0) countRun(volume, groupId, environment, runMinute, runLevel, runLines);
          runMinute = minute;
          runLevel = level;
          runLines = 0;
        }
        runAt = at;
      }
      runLines++;
      if (at < minTs) minTs = at;
      else if (at > maxTs) maxTs = at;
      sources = countValue(sources, entry.source, at);
      versions = countValue(versions, entry.appVersion, at);
      users = countValue(users, entry.userId, at);
    }
    if (runLines > 0) countRun(volume, groupId, environment, runMinute, runLevel, runLines);
    span.minTs = minTs;
    span.maxTs = maxTs;
    spans.push(span);
    if (sources) attributes.push([groupId, 'source', sources]);
    if (versions) attributes.push([groupId, 'app_version', versions]);
    if (users) attributes.push([groupId, 'user_id', users]);
  }
  if (pg) {
    if (lines.length > 0) await tx.run(INSERT_LINES_PG, [projectId, environment, JSON.stringify(lines), projectId]);
  } else if (lines.length > 0) {
    const first = await insertLinesSqlite(tx, lines as SqlValue[]);
    const spanValues: SqlValue[] = [];
    for (const span of spans) {
      const from = first + span.start;
      spanValues.push(span.group, span.maxTs, from, from + span.n - 1, span.minTs, span.n, projectId);
    }
    await inChunks(tx, spanValues, 7, insertSpans);
  }
  // Sorted: two PostgreSQL writers upserting the same rows take their locks in one order.
  const volumeKeys = [...volume.keys()].sort();
  // In (group, kind, value) order, for the same reason.
  attributes.sort((a, b) => compareText(a[0], b[0]) || compareText(a[1], b[1]));
  if (pg) {
    // One statement each, the rows as one JSON document (a write of new groups has thousands).
    const volumeRows = volumeKeys.map((key) => {
      const row = volume.get(key)!;
      return [row.unit, row.bucket, row.group, row.level, row.n];
    });
    const attributeRows: SqlValue[][] = [];
    for (const [groupId, kind, values] of attributes)
      for (const value of sortedValues(values)) {
        const count = values.get(value)!;
        attributeRows.push([groupId, kind, wellFormed(value), count.n, count.last]);
      }
    if (volumeRows.length > 0) await tx.run(UPSERT_VOLUME_PG, [projectId, environment, JSON.stringify(volumeRows)]);
    if (attributeRows.length > 0) await tx.run(UPSERT_ATTRIBUTES_PG, [JSON.stringify(attributeRows)]);
    return;
  }
  // SQLite: the statements' values, flat (7 a volume row, 5 an attribute row).
  const volumeValues: SqlValue[] = [];
  for (const key of volumeKeys) {
    const row = volume.get(key)!;
    volumeValues.push(projectId, row.unit, row.bucket, row.group, environment, row.level, row.n);
  }
  await inChunks(tx, volumeValues, 7, upsertVolume);
  const attributeValues: SqlValue[] = [];
  for (const [groupId, kind, values] of attributes)
    for (const value of sortedValues(values)) {
      const count = values.get(value)!;
      attributeValues.push(groupId, kind, value, count.n, count.last);
    }
  await inChunks(tx, attributeValues, 5, upsertAttributes);
}

/** A run of `n` lines of one group, minute and level: the group's counts and the project's totals. */
function countRun(
  volume: Map<string, VolumeRow>,
  groupId: string,
  environment: string,
  minute: string,
  level: string,
  n: number,
): void {
  addVolume(volume, groupId, 'h', 'm', minute, level, n);
  addVolume(volume, `*${environment}*${level}`, 'H', 'M', minute, level, n);
}

/**
 * Erasing a person (issue 36): log groups and lines that name one of their ids lose it; the
 * group's tally of that user goes (the counts of the group and its lines stay).
 */
export async function eraseLogUser(tx: Queryable, projectId: string, userIds: readonly string[]): Promise<number> {
  if (userIds.length === 0) return 0;
  const list = userIds.map(() => '?').join(', ');
  await tx.run(
    `DELETE FROM log_group_attributes WHERE kind = 'user_id' AND value IN (${list})
     AND group_id IN (SELECT id FROM log_groups WHERE project_id = ?)`,
    [...userIds, projectId],
  );
  await tx.run(`UPDATE log_lines SET user_id = NULL WHERE project_id = ? AND user_id IN (${list})`, [
    projectId,
    ...userIds,
  ]);
  const { changes } = await tx.run(
    `UPDATE log_groups SET user_id = NULL WHERE project_id = ? AND user_id IN (${list})`,
    [projectId, ...userIds],
  );
  return changes;
}
