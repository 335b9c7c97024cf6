/**
 * The one store of log_lines, log_volume and log_group_attributes (issue 32): what the group
 * write (store.ts) adds, in its transaction, for every accepted entry: the entry as a line of its
 * group, the group's per-hour and per-minute counts, and every source, app version and user that
 * sent it. One multi-row statement per table and chunk, counts folded per batch first, so a
 * batch of repeats costs a few upserts, not one per entry.
 */
import { type Database, placeholders, type Queryable, type SqlValue } from '../../db/database.ts';
import type { Scope } from '../../kernel/scope.ts';
import type { LogEntry } from './schemas.ts';

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

const VOLUME_ROW = `(${placeholders(7)})`;
const upsertVolume = (rows: number) =>
  statement(
    'volume',
    rows,
    (values) => `INSERT INTO log_volume (project_id, unit, bucket, group_id, environment, level, n) ${values}
      ON CONFLICT (project_id, unit, bucket, group_id) DO UPDATE SET n = log_volume.n + excluded.n, level = excluded.level`,
    VOLUME_ROW,
  );

const ATTRIBUTE_ROW = `(${placeholders(5)})`;
const upsertAttributes = (rows: number) =>
  statement(
    'attributes',
    rows,
    (values) => `INSERT INTO log_group_attributes (group_id, kind, value, n, last_seen_at) ${values}
      ON CONFLICT (group_id, kind, value) DO UPDATE SET n = log_group_attributes.n + excluded.n,
        last_seen_at = CASE WHEN excluded.last_seen_at > log_group_attributes.last_seen_at
          THEN excluded.last_seen_at ELSE log_group_attributes.last_seen_at END`,
    ATTRIBUTE_ROW,
  );

/**
 * PostgreSQL: all of a write's lines in one statement of one array per column. Against 100-row
 * `VALUES` statements of 12 parameters a row, 3,200 lines with the table's indexes took about a
 * quarter less (node-postgres, two runs, each way first once).
 */
const INSERT_LINES_PG = `INSERT INTO log_lines (group_id, project_id, environment, ts, level, severity, source,
    app_version, user_id, data, trace_id, span_id)
  SELECT * FROM unnest(CAST(? AS text[]), CAST(? AS text[]), CAST(? AS text[]), CAST(? AS text[]), CAST(? AS text[]),
    CAST(? AS text[]), CAST(? AS text[]), CAST(? AS text[]), CAST(? AS text[]), CAST(? AS jsonb[]), CAST(? AS text[]),
    CAST(? AS text[]))`;

/** The lines' values (LINE_COLUMNS a row) as one array per column, which node-postgres sends as PostgreSQL arrays. */
function columnsOf(values: readonly SqlValue[]): SqlValue[] {
  const columns: SqlValue[][] = Array.from({ length: LINE_COLUMNS }, () => []);
  for (let i = 0; i < values.length; i += LINE_COLUMNS)
    for (let column = 0; column < LINE_COLUMNS; column++) columns[column]!.push(values[i + column]!);
  // SqlValue names no arrays (SQLite has none); the PostgreSQL driver takes them as they are.
  return columns as unknown as SqlValue[];
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
  const hour = minute.slice(0, 13);
  for (const [unit, bucket] of [
    [hourUnit, hour],
    [minuteUnit, minute],
  ]) {
    const key = `${owner}\u0000${unit}\u0000${bucket}`;
    const counted = volume.get(key);
    if (counted) {
      counted.n += n;
      counted.level = level;
    } else volume.set(key, { group: owner, unit: unit!, bucket: bucket!, level, n });
  }
}

interface AttributeCount {
  n: number;
  last: string;
}

/** One group's values of one attribute kind, counted (keyed by the value alone: no key built per line). */
function countValue(values: Map<string, AttributeCount>, value: string | undefined, at: string): void {
  if (value === undefined) return;
  const seen = values.get(value);
  if (!seen) values.set(value, { n: 1, last: at });
  else {
    seen.n++;
    if (at > seen.last) seen.last = at;
  }
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

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
  const lines: SqlValue[] = [];
  const volume = new Map<string, VolumeRow>();
  const attributes: Array<[string, AttributeKind, Map<string, AttributeCount>]> = [];
  const { projectId, environment } = scope;
  for (const group of groups) {
    const groupId = group.id;
    const sources = new Map<string, AttributeCount>();
    const versions = new Map<string, AttributeCount>();
    const users = new Map<string, AttributeCount>();
    // The current run: lines of one minute and level, counted once it ends.
    let runAt = '';
    let runMinute = '';
    let runLevel = '';
    let runLines = 0;
    for (const [entry, at] of group.lines) {
      const data = entry.data;
      const level = entry.level;
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
      countValue(sources, entry.source, at);
      countValue(versions, entry.appVersion, at);
      countValue(users, entry.userId, at);
    }
    if (runLines > 0) countRun(volume, groupId, environment, runMinute, runLevel, runLines);
    if (sources.size > 0) attributes.push([groupId, 'source', sources]);
    if (versions.size > 0) attributes.push([groupId, 'app_version', versions]);
    if (users.size > 0) attributes.push([groupId, 'user_id', users]);
  }
  if (dialect === 'postgres') {
    if (lines.length > 0) await tx.run(INSERT_LINES_PG, columnsOf(lines));
  } else await inChunks(tx, lines, LINE_COLUMNS, insertLines);
  // Sorted: two PostgreSQL writers upserting the same rows take their locks in one order.
  const volumeRows: SqlValue[] = [];
  for (const key of [...volume.keys()].sort()) {
    const row = volume.get(key)!;
    volumeRows.push(projectId, row.unit, row.bucket, row.group, environment, row.level, row.n);
  }
  await inChunks(tx, volumeRows, 7, upsertVolume);
  // In (group, kind, value) order, for the same reason.
  attributes.sort((a, b) => byText(a[0], b[0]) || byText(a[1], b[1]));
  const attributeRows: SqlValue[] = [];
  for (const [groupId, kind, values] of attributes)
    for (const value of [...values.keys()].sort(byText)) {
      const count = values.get(value)!;
      attributeRows.push(groupId, kind, value, count.n, count.last);
    }
  await inChunks(tx, attributeRows, 5, upsertAttributes);
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
