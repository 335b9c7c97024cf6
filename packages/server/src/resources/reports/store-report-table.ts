/**
 * The two report tables as one shape: the statements that record a report (deduplicated by
 * fingerprint within the window, counted on one open record) and the single-report write.
 */
import type { Database, Queryable, SqlValue } from '../../db/database.ts';
import { newId } from '../../kernel/ids.ts';
import type { Scope } from '../../kernel/scope.ts';
import { DEDUP_WINDOW_MS } from './dedup.ts';
import { ERROR_ID_PREFIX } from './store-history.ts';

export interface Occurrence {
  id: string;
  duplicate: boolean;
}

/** A report table, with the statements that record a report in it, built once. */
export interface ReportTable {
  name: 'bug_reports' | 'error_reports';
  idPrefix: string;
  /**
   * A new record, or one more occurrence of the open record of the same fingerprint when that was
   * first seen inside the window; the conflict target is the unique index that admits one open
   * record per fingerprint (see reportTable). A repeat of a resolved report is a regression: it
   * opens again; an ignored one stays ignored.
   */
  upsert: string;
  /** `upsert` for `rows` records at once, returning what the lifecycle reads of each. */
  upsertRows(rows: number): string;
  /** Closes the open record of a fingerprint when it is past the window. */
  close: string;
}

/** `columns`: what a new record holds besides its id, scope, fingerprint, count and times. */
function reportTable(
  name: ReportTable['name'],
  idPrefix: string,
  columns: readonly string[],
  options: {
    reopenResolved: boolean;
    lifecycleColumns?: readonly string[];
    slotted?: boolean;
    hourCounts?: boolean;
  } = {
    reopenResolved: true,
  },
): ReportTable {
  // `slotted`: the table's one unique index over a group's records takes the slot as its last
  // column: '' for the open record (a new record's default), the record's id once closed
  // (migration 202612010200). Otherwise the unique index is partial, over the open records.
  const conflict = options.slotted
    ? '(project_id, environment, fingerprint, dedup_slot)'
    : '(project_id, environment, fingerprint) WHERE dedup_open = 1';
  // `hourCounts`: a new record's value, after its times, is how many of its reports fell in the hour
  // of its last (migration 202612020100).
  const hours = options.hourCounts ?? false;
  const upsert = (rows: number, returning: string) => `
  INSERT INTO ${name} (id, project_id, environment, fingerprint, dedup_open, ${columns.join(', ')}, occurrences, first_seen_at, last_seen_at${hours ? ', last_hour_occurrences' : ''})
  VALUES ${Array.from({ length: rows }, () => `(?, ?, ?, ?, 1, ${columns.map(() => '?').join(', ')}, ?, ?, ?${hours ? ', ?' : ''})`).join(',\n    ')}
  ON CONFLICT ${conflict} DO UPDATE SET
    occurrences = ${name}.occurrences + excluded.occurrences,
    last_seen_at = CASE WHEN excluded.last_seen_at > ${name}.last_seen_at THEN excluded.last_seen_at ELSE ${name}.last_seen_at END,${hours ? lastHourUpdate(name) : ''}
    status = ${options.reopenResolved ? `CASE WHEN ${name}.status = 'resolved' THEN 'open' ELSE ${name}.status END` : `${name}.status`}
  WHERE ${name}.first_seen_at > ?
  RETURNING ${returning}`;
  const lifecycle = ['id', 'project_id', 'environment', 'fingerprint', 'status', ...(options.lifecycleColumns ?? [])];
  return {
    name,
    idPrefix,
    upsert: upsert(1, 'id'),
    upsertRows: (rows) => upsert(rows, lifecycle.join(', ')),
    close: `UPDATE ${name} SET dedup_open = 0${options.slotted ? ', dedup_slot = id' : ''}
      WHERE project_id = ? AND environment = ? AND fingerprint = ? AND dedup_open = 1 AND first_seen_at <= ?`,
  };
}

/**
 * The count of the hour of a record's last report, as a write adds to it (every SET sees the row
 * before the write). A write whose last report is in a later hour than the record's last starts
 * that hour with its own count; one in the same hour adds its count. A write's reports from an
 * earlier hour than its last are in the record's first hour, which `occurrences` minus this count
 * holds: a record spans at most two hours, so that hour is the first one. A report from a process
 * whose clock is behind, older than the record's last hour, is counted in the first hour too.
 * NULL stays NULL: such a record is counted in error_occurrences_hourly.
 */
function lastHourUpdate(name: string): string {
  const hourPart = (column: string) => `substr(${column}, 1, 13)`;
  return `
    last_hour_occurrences = CASE
      WHEN ${name}.last_hour_occurrences IS NULL THEN NULL
      WHEN ${hourPart('excluded.last_seen_at')} > ${hourPart(`${name}.last_seen_at`)} THEN excluded.last_hour_occurrences
      WHEN ${hourPart('excluded.last_seen_at')} = ${hourPart(`${name}.last_seen_at`)}
        THEN ${name}.last_hour_occurrences + excluded.last_hour_occurrences
      ELSE ${name}.last_hour_occurrences END,`;
}

/** When the reports of one write arrived, and how many they are. */
export interface Arrivals {
  first: Date;
  last: Date;
  count: number;
}

/**
 * Records `arrivals.count` identical reports: one upsert on the record table. Its unique index over open records makes
 * any number of identical reports arriving at once, through any number of processes, land on one
 * record with an exact count. When the open record is past the window, the upsert changes nothing;
 * that record is closed, and the upsert again opens a new one (or, where another process opened
 * one meanwhile, counts on it). `onNew` runs in the same transaction when a record was added.
 */
export async function recordOccurrence(
  db: Database,
  scope: Scope,
  fingerprint: string,
  arrivals: Arrivals,
  table: ReportTable,
  values: readonly SqlValue[],
  onNew?: (tx: Queryable, id: string) => Promise<void>,
): Promise<Occurrence> {
  const cutoff = new Date(arrivals.last.getTime() - DEDUP_WINDOW_MS).toISOString();
  const candidate = newId(table.idPrefix);
  const params = [
    candidate,
    scope.projectId,
    scope.environment,
    fingerprint,
    ...values,
    arrivals.count,
    arrivals.first.toISOString(),
    arrivals.last.toISOString(),
    cutoff,
  ];
  return db.transaction(async (tx) => {
    for (let attempt = 0; attempt < 3; attempt++) {
      const rows = await tx.all<{ id: string }>(table.upsert, params);
      if (rows.length > 0) {
        const id = rows[0]!.id;
        const duplicate = id !== candidate;
        if (!duplicate) await onNew?.(tx, id);
        return { id, duplicate };
      }
      await tx.run(table.close, [scope.projectId, scope.environment, fingerprint, cutoff]);
    }
    throw new Error(`No open ${table.name} record for a fingerprint after three attempts`);
  });
}

export const BUGS = reportTable('bug_reports', 'bug', [
  'title',
  'message',
  'stack_trace',
  'bug_type',
  'severity',
  'channel',
  'metadata',
]);
export const ERRORS = reportTable(
  'error_reports',
  ERROR_ID_PREFIX,
  [
    'title',
    'message',
    'stack_trace',
    'error_type',
    'severity',
    'breadcrumbs',
    'device',
    'network',
    'app',
    'url',
    'referrer',
    'occurred_at',
    'metadata',
    'app_version',
    'group_id',
  ],
  {
    reopenResolved: false,
    lifecycleColumns: ['resolved_in_release', 'app_version', 'last_hour_occurrences'],
    slotted: true,
    hourCounts: true,
  },
);
