/**
 * Triage queries shared by every grouped-report table (bug_reports, error_reports here; log_groups
 * in resources/logs): lists with filters, the full record, and the triage status of a group
 * (open, resolved, ignored). Each table's own store calls them with its `TriageTable`, so a
 * table's name appears only in its own store.
 */
import type { Queryable } from '../../db/database.ts';
import type { KeyEnvironment } from '../../kernel/api-keys.ts';
import { page, type From } from '../../db/page.ts';
import { searchClause, Where } from '../../db/query.ts';

export const REPORT_STATUSES = ['open', 'resolved', 'ignored'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];
/** Errors have one more: a resolved group that occurred again. */
export const ERROR_STATUSES = ['open', 'resolved', 'ignored', 'regressed'] as const;
export type ErrorStatus = (typeof ERROR_STATUSES)[number];

/** A grouped-report table as triage reads it. */
export interface TriageTable {
  table: string;
  /** Columns searched by `q`. */
  search: readonly string[];
  /** The filter column of `severity` (bugs, errors) or `level` (logs). */
  grade: 'severity' | 'level';
  /**
   * Records that belong to one group (errors: environment and fingerprint, across dedup windows).
   * When set, lists and counts show a group's newest record, with the group's totals in
   * group_occurrences, group_first_seen_at and group_records.
   */
  groupBy?: string;
}

export interface ReportFilter {
  environment?: KeyEnvironment | undefined;
  status?: ReportStatus | ErrorStatus | undefined;
  /** Errors only: the release (app.version) of the group's last report. */
  release?: string | undefined;
  /** severity (bugs, errors) or level (logs); several allowed. */
  grades?: string[] | undefined;
  /** Groups seen at or after this time (last seen). */
  since?: string | undefined;
  /** Groups seen before this time (first seen). */
  until?: string | undefined;
  q?: string | undefined;
  /** Logs only. */
  category?: string | undefined;
  source?: string | undefined;
  /** Bugs only: the reports linked to this feature (created with createFeature, or moved by a merge). */
  featureId?: string | undefined;
  sort: 'lastSeen' | 'firstSeen' | 'occurrences';
  limit: number;
  offset: number;
}

const ORDER: Record<ReportFilter['sort'], string> = {
  lastSeen: 'last_seen_at DESC, id DESC',
  firstSeen: 'first_seen_at DESC, id DESC',
  occurrences: 'occurrences DESC, last_seen_at DESC, id DESC',
};

/** In a grouped table, a group's totals stand where a record's own counts are. */
const GROUP_ORDER: Record<ReportFilter['sort'], string> = {
  lastSeen: ORDER.lastSeen,
  firstSeen: 'group_first_seen_at DESC, id DESC',
  occurrences: 'group_occurrences DESC, last_seen_at DESC, id DESC',
};

/** The newest record of each group of a project, with the group's totals (see TriageTable.groupBy). */
function groupedRecords(info: TriageTable & { groupBy: string }, projectId: string): From {
  const group = `PARTITION BY ${info.groupBy}`;
  return {
    sql: `(SELECT r.*,
        ROW_NUMBER() OVER (${group} ORDER BY first_seen_at DESC, id DESC) AS group_rank,
        SUM(occurrences) OVER (${group}) AS group_occurrences,
        MIN(first_seen_at) OVER (${group}) AS group_first_seen_at,
        COUNT(*) OVER (${group}) AS group_records
      FROM ${info.table} r WHERE project_id = ?) AS grouped`,
    params: [projectId],
  };
}

const isGrouped = (info: TriageTable): info is TriageTable & { groupBy: string } => info.groupBy !== undefined;

export async function listTriage<T>(db: Queryable, info: TriageTable, projectId: string, filter: ReportFilter) {
  const grouped = isGrouped(info);
  const where = new Where(grouped ? 'project_id = ? AND group_rank = 1' : 'project_id = ?', projectId)
    .when(filter.environment, 'environment = ?', filter.environment ?? null)
    .when(filter.status, 'status = ?', filter.status ?? null)
    .when(filter.since, 'last_seen_at >= ?', filter.since ?? null)
    .when(filter.until, grouped ? 'group_first_seen_at < ?' : 'first_seen_at < ?', filter.until ?? null)
    .when(filter.category, 'category = ?', filter.category ?? null)
    .when(filter.source, 'source = ?', filter.source ?? null)
    .when(filter.featureId, 'feature_id = ?', filter.featureId ?? null)
    .when(filter.release, 'app_version = ?', filter.release ?? null);
  if (filter.grades && filter.grades.length > 0) {
    where.add(`${info.grade} IN (${filter.grades.map(() => '?').join(', ')})`, ...filter.grades);
  }
  if (filter.q) {
    const search = searchClause(info.search, filter.q);
    where.add(search.sql, ...search.params);
  }
  if (grouped) {
    return page<T>(
      db,
      groupedRecords(info, projectId),
      where,
      '*',
      GROUP_ORDER[filter.sort],
      filter.limit,
      filter.offset,
    );
  }
  return page<T>(db, info.table, where, '*', ORDER[filter.sort], filter.limit, filter.offset);
}

export async function getTriage<T>(
  db: Queryable,
  info: TriageTable,
  projectId: string,
  id: string,
): Promise<T | undefined> {
  return db.get<T>(`SELECT * FROM ${info.table} WHERE id = ? AND project_id = ?`, [id, projectId]);
}

export async function setTriageStatus(
  db: Queryable,
  info: TriageTable,
  projectId: string,
  id: string,
  status: ReportStatus,
): Promise<boolean> {
  const { changes } = await db.run(`UPDATE ${info.table} SET status = ? WHERE id = ? AND project_id = ?`, [
    status,
    id,
    projectId,
  ]);
  return changes === 1;
}

/** Counts per status, for the headers of a triage view. */
export async function triageStatusCounts(
  db: Queryable,
  info: TriageTable,
  projectId: string,
  environment: KeyEnvironment | undefined,
  statuses: readonly string[] = REPORT_STATUSES,
) {
  const where = new Where('project_id = ?', projectId).when(environment, 'environment = ?', environment ?? null);
  let rows: { status: string; n: number }[];
  if (isGrouped(info)) {
    const from = groupedRecords(info, projectId);
    where.add('group_rank = 1');
    rows = await db.all(`SELECT status, COUNT(*) AS n FROM ${from.sql} WHERE ${where.sql} GROUP BY status`, [
      ...from.params,
      ...where.params,
    ]);
  } else {
    rows = await db.all(
      `SELECT status, COUNT(*) AS n FROM ${info.table} WHERE ${where.sql} GROUP BY status`,
      where.params,
    );
  }
  const counts: Record<string, number> = Object.fromEntries(statuses.map((status) => [status, 0]));
  for (const row of rows) if (row.status in counts) counts[row.status] = Number(row.n);
  return counts as Record<ReportStatus, number>;
}
