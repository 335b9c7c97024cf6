/**
 * Bug reports, error reports and log groups as a project's team reads them: lists with
 * filters, the full record, and the triage status of a group (open, resolved, ignored).
 */
import type { Queryable } from '../../db/database.ts';
import type { KeyEnvironment } from '../../kernel/api-keys.ts';
import { page, searchClause, Where } from '../../management/support/query.ts';

export const REPORT_STATUSES = ['open', 'resolved', 'ignored'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

export type ReportKind = 'bugs' | 'errors' | 'logs';

interface KindInfo {
  table: string;
  /** Columns searched by `q`. */
  search: string[];
  /** The filter column of `severity` (bugs, errors) or `level` (logs). */
  grade: 'severity' | 'level';
}

export const KINDS: Record<ReportKind, KindInfo> = {
  bugs: { table: 'bug_reports', search: ['title', 'message', 'stack_trace', 'bug_type'], grade: 'severity' },
  errors: { table: 'error_reports', search: ['title', 'message', 'stack_trace', 'error_type', 'url'], grade: 'severity' },
  logs: { table: 'log_groups', search: ['message', 'category', 'source', 'fingerprint'], grade: 'level' },
};

export interface ReportFilter {
  environment?: KeyEnvironment | undefined;
  status?: ReportStatus | undefined;
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
  sort: 'lastSeen' | 'firstSeen' | 'occurrences';
  limit: number;
  offset: number;
}

const ORDER: Record<ReportFilter['sort'], string> = {
  lastSeen: 'last_seen_at DESC, id DESC',
  firstSeen: 'first_seen_at DESC, id DESC',
  occurrences: 'occurrences DESC, last_seen_at DESC, id DESC',
};

export async function listReports<T>(db: Queryable, kind: ReportKind, projectId: string, filter: ReportFilter) {
  const info = KINDS[kind];
  const where = new Where('project_id = ?', projectId)
    .when(filter.environment, 'environment = ?', filter.environment ?? null)
    .when(filter.status, 'status = ?', filter.status ?? null)
    .when(filter.since, 'last_seen_at >= ?', filter.since ?? null)
    .when(filter.until, 'first_seen_at < ?', filter.until ?? null)
    .when(filter.category, 'category = ?', filter.category ?? null)
    .when(filter.source, 'source = ?', filter.source ?? null);
  if (filter.grades && filter.grades.length > 0) {
    where.add(`${info.grade} IN (${filter.grades.map(() => '?').join(', ')})`, ...filter.grades);
  }
  if (filter.q) {
    const search = searchClause(info.search, filter.q);
    where.add(search.sql, ...search.params);
  }
  return page<T>(db, info.table, where, '*', ORDER[filter.sort], filter.limit, filter.offset);
}

export async function getReport<T>(db: Queryable, kind: ReportKind, projectId: string, id: string): Promise<T | undefined> {
  return db.get<T>(`SELECT * FROM ${KINDS[kind].table} WHERE id = ? AND project_id = ?`, [id, projectId]);
}

export async function setReportStatus(db: Queryable, kind: ReportKind, projectId: string, id: string, status: ReportStatus): Promise<boolean> {
  const { changes } = await db.run(`UPDATE ${KINDS[kind].table} SET status = ? WHERE id = ? AND project_id = ?`, [status, id, projectId]);
  return changes === 1;
}

/** Counts per status, for the headers of a triage view. */
export async function statusCounts(db: Queryable, kind: ReportKind, projectId: string, environment: KeyEnvironment | undefined) {
  const where = new Where('project_id = ?', projectId).when(environment, 'environment = ?', environment ?? null);
  const rows = await db.all<{ status: ReportStatus; n: number }>(
    `SELECT status, COUNT(*) AS n FROM ${KINDS[kind].table} WHERE ${where.sql} GROUP BY status`,
    where.params,
  );
  const counts: Record<ReportStatus, number> = { open: 0, resolved: 0, ignored: 0 };
  for (const row of rows) counts[row.status] = Number(row.n);
  return counts;
}
