/**
 * The one store of log_lines, log_volume and log_group_attributes (issue 32): what the group
 * write (store.ts) adds, in its transaction, for every accepted entry: the entry as a line of its
 * group, the group's per-hour and per-minute counts, and every source, app version and user that
 * sent it. One multi-row statement per table and chunk, counts folded per batch first, so a
 * batch of repeats costs a few upserts, not one per entry.
 */
import { placeholders, type Queryable, type SqlValue } from '../../db/database.ts';
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

/** Writes the batch's lines, volume and attribution: called inside the group write's transaction. */
export async function writeLines(tx: Queryable, scope: Scope, groups: readonly LineGroup[]): Promise<void> {
  const lines: SqlValue[] = [];
  const volume = new Map<string, { group: string; unit: string; bucket: string; level: string; n: number }>();
  const attributes = new Map<string, { group: string; kind: AttributeKind; value: string; n: number; last: string }>();
  const count = (group: string, kind: AttributeKind, value: string | undefined, at: string) => {
    if (value === undefined) return;
    const key = `${group}\u0000${kind}\u0000${value}`;
    const seen = attributes.get(key);
    if (!seen) attributes.set(key, { group, kind, value, n: 1, last: at });
    else {
      seen.n++;
      if (at > seen.last) seen.last = at;
    }
  };
  for (const group of groups) {
    for (const [entry, at] of group.lines) {
      const data = entry.data;
      lines.push(
        group.id,
        scope.projectId,
        scope.environment,
        at,
        entry.level,
        severityOf(entry),
        entry.source ?? null,
        entry.appVersion ?? null,
        entry.userId ?? null,
        data === undefined ? null : JSON.stringify(data),
        idOf(data, 'traceId', 'trace_id'),
        idOf(data, 'spanId', 'span_id'),
      );
      const rollup = `*${scope.environment}*${entry.level}`;
      for (const [unit, length, owner] of [
        ['h', 13, group.id],
        ['m', 16, group.id],
        ['H', 13, rollup],
        ['M', 16, rollup],
      ] as const) {
        const bucket = at.slice(0, length);
        const key = `${owner}\u0000${unit}\u0000${bucket}`;
        const counted = volume.get(key);
        if (counted) {
          counted.n++;
          counted.level = entry.level;
        } else volume.set(key, { group: owner, unit, bucket, level: entry.level, n: 1 });
      }
      count(group.id, 'source', entry.source, at);
      count(group.id, 'app_version', entry.appVersion, at);
      count(group.id, 'user_id', entry.userId, at);
    }
  }
  await inChunks(tx, lines, LINE_COLUMNS, insertLines);
  // Sorted: two PostgreSQL writers upserting the same rows take their locks in one order.
  const volumeRows: SqlValue[] = [];
  for (const key of [...volume.keys()].sort()) {
    const row = volume.get(key)!;
    volumeRows.push(scope.projectId, row.unit, row.bucket, row.group, scope.environment, row.level, row.n);
  }
  await inChunks(tx, volumeRows, 7, upsertVolume);
  const attributeRows: SqlValue[] = [];
  for (const key of [...attributes.keys()].sort()) {
    const row = attributes.get(key)!;
    attributeRows.push(row.group, row.kind, row.value, row.n, row.last);
  }
  await inChunks(tx, attributeRows, 5, upsertAttributes);
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
