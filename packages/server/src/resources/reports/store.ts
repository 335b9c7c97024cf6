/**
 * The one store of bug_reports and error_reports (with store-report-table.ts, the statements that
 * record a report, and store-error-writes.ts, error reports written in batches): recording a bug
 * (deduplicated by fingerprint within the window), linking a bug to the feature created for it,
 * and the triage reads and status changes of both tables.
 */
import type { Static } from 'typebox';
import type { Database, Queryable } from '../../db/database.ts';
import type { KeyEnvironment } from '../../kernel/api-keys.ts';
import type { Scope } from '../../kernel/scope.ts';
import { fingerprintOf } from './dedup.ts';
import type { BugBody } from './schemas.ts';
import { recordAudit } from '../audit/index.ts';

export { compareVersions, lifecycleAfterRepeat } from './lifecycle.ts';
import { BUGS, type Occurrence, recordOccurrence } from './store-report-table.ts';
export type { Occurrence } from './store-report-table.ts';
import {
  getTriage,
  listTriage,
  setTriageStatus,
  triageStatusCounts,
  ERROR_STATUSES,
  REPORT_STATUSES,
  type ErrorStatus,
  type ReportFilter,
  type ReportStatus,
  type TriageTable,
} from './store-triage.ts';

export type ReportKind = 'bugs' | 'errors';

const TRIAGE: Record<ReportKind, TriageTable> = {
  bugs: { table: 'bug_reports', search: ['title', 'message', 'stack_trace', 'bug_type'], grade: 'severity' },
  errors: {
    table: 'error_reports',
    search: ['title', 'message', 'stack_trace', 'error_type', 'url'],
    grade: 'severity',
    // A group outlives its dedup records: each hour of repeats is a record of the same fingerprint.
    // Records from before fingerprints were stored are groups of one.
    groupBy: 'environment, COALESCE(fingerprint, id)',
  },
};

export async function listReports<T>(db: Queryable, kind: ReportKind, projectId: string, filter: ReportFilter) {
  return listTriage<T>(db, TRIAGE[kind], projectId, filter);
}

export async function getReport<T>(
  db: Queryable,
  kind: ReportKind,
  projectId: string,
  id: string,
): Promise<T | undefined> {
  const row = await getTriage<Record<string, unknown>>(db, TRIAGE[kind], projectId, id);
  if (!row || kind !== 'errors') return row as T | undefined;
  const group = await db.get<Record<string, unknown>>(
    `SELECT SUM(occurrences) AS group_occurrences, MIN(first_seen_at) AS group_first_seen_at, COUNT(*) AS group_records
       FROM error_reports WHERE ${GROUP_OF_RECORD}`,
    [projectId, row['environment'] as string, row['fingerprint'] as string | null, id],
  );
  return { ...row, ...group } as T;
}

/** The records of the group of record `id`: parameters project, environment, fingerprint, id. */
const GROUP_OF_RECORD = 'project_id = ? AND environment = ? AND (fingerprint = ? OR id = ?)';

export async function setReportStatus(
  db: Database,
  kind: ReportKind,
  projectId: string,
  id: string,
  status: ReportStatus,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const before = await getReport<{ status: string }>(tx, kind, projectId, id);
    if (!before || !(await setTriageStatus(tx, TRIAGE[kind], projectId, id, status))) return false;
    // A bug report's status is a team decision the audit log keeps (log groups' are housekeeping).
    if (kind === 'bugs') {
      await recordAudit(tx, {
        projectId,
        action: 'bug.status_changed',
        target: { type: 'bug', id },
        before: { status: before.status },
        after: { status },
      });
    }
    return true;
  });
}

/** Counts per status, for the headers of a triage view. */
export async function statusCounts(
  db: Queryable,
  kind: ReportKind,
  projectId: string,
  environment: KeyEnvironment | undefined,
) {
  return triageStatusCounts(
    db,
    TRIAGE[kind],
    projectId,
    environment,
    kind === 'errors' ? ERROR_STATUSES : REPORT_STATUSES,
  );
}

/**
 * The lifecycle of an error group: open, resolved (`inNextRelease`: resolved as of the release
 * after the group's last reported one, kept in resolved_in_release), ignored. False when there is
 * no such group; 'no-release' when resolving in the next release without a known release.
 */
export async function setErrorStatus(
  db: Queryable,
  projectId: string,
  id: string,
  status: ErrorStatus,
  inNextRelease: boolean,
): Promise<boolean | 'no-release'> {
  const record = await db.get<{ environment: string; fingerprint: string | null; group_id: string | null }>(
    'SELECT environment, fingerprint, group_id FROM error_reports WHERE id = ? AND project_id = ?',
    [id, projectId],
  );
  if (!record) return false;
  const group = [projectId, record.environment, record.fingerprint, id];
  // The group's release is its newest record's: the one a new report is compared with.
  const newest = await db.get<{ app_version: string | null }>(
    `SELECT app_version FROM error_reports WHERE ${GROUP_OF_RECORD} ORDER BY first_seen_at DESC, id DESC LIMIT 1`,
    group,
  );
  const version = newest?.app_version ?? null;
  if (inNextRelease && status === 'resolved' && version === null) return 'no-release';
  const release = inNextRelease && status === 'resolved' ? version : null;
  // Every record of the group, so that the group reads the same from any of its records.
  await db.run(`UPDATE error_reports SET status = ?, resolved_in_release = ? WHERE ${GROUP_OF_RECORD}`, [
    status,
    release,
    ...group,
  ]);
  // The error group of the record follows (issue 31: the lifecycle lives on groups).
  if (record.group_id) {
    await db.run(
      'UPDATE error_groups SET status = ?, resolved_in_release = ?, regressed_in_release = NULL WHERE id = ? AND project_id = ?',
      [status, release, record.group_id, projectId],
    );
  }
  return true;
}

/** What identifies an error's group in the hourly history. */
export async function errorGroupOf(db: Queryable, projectId: string, id: string) {
  return db.get<{ project_id: string; environment: string; fingerprint: string | null }>(
    'SELECT project_id, environment, fingerprint FROM error_reports WHERE id = ? AND project_id = ?',
    [id, projectId],
  );
}

/** The group and key environment of one error record of a project. */
export async function groupOfRecord(db: Queryable, projectId: string, id: string) {
  return db.get<{ group_id: string | null; environment: string }>(
    'SELECT group_id, environment FROM error_reports WHERE id = ? AND project_id = ?',
    [id, projectId],
  );
}

/** Records the feature created for a new bug (POST /bugs with createFeature), in its transaction. */
export async function linkBugToFeature(tx: Queryable, bugId: string, featureId: string): Promise<void> {
  await tx.run('UPDATE bug_reports SET feature_id = ? WHERE id = ?', [featureId, bugId]);
}

/** Bugs linked to a deleted feature keep their record, without the link. */
export async function unlinkBugsFromFeature(tx: Queryable, featureId: string): Promise<void> {
  await tx.run('UPDATE bug_reports SET feature_id = NULL WHERE feature_id = ?', [featureId]);
}

/** Bugs linked to a feature merged into another follow it. */
export async function moveBugsToFeature(tx: Queryable, fromFeatureId: string, toFeatureId: string): Promise<void> {
  await tx.run('UPDATE bug_reports SET feature_id = ? WHERE feature_id = ?', [toFeatureId, fromFeatureId]);
}

const _RELAXED = { durability: 'relaxed' } as const;

const json = (value: unknown): string | null => (value === undefined ? null : JSON.stringify(value));

/** A bug; repeats of the same title and message within the window are counted on one record. */
export async function recordBug(
  db: Database,
  scope: Scope,
  body: Static<typeof BugBody>,
  now: Date,
  onNew?: (tx: Queryable, id: string) => Promise<void>,
): Promise<Occurrence> {
  return recordOccurrence(
    db,
    scope,
    fingerprintOf(body.title, body.message),
    { first: now, last: now, count: 1 },
    BUGS,
    [
      body.title,
      body.message,
      body.stackTrace ?? null,
      body.bugType ?? null,
      body.severity ?? 'medium',
      body.channel ?? null,
      json(body.metadata),
    ],
    onNew,
  );
}
