/**
 * The one store of bug_reports and error_reports: recording a report (deduplicated by
 * fingerprint within the window), linking a bug to the feature created for it, and the triage
 * reads and status changes of both tables.
 */
import type { Static } from 'typebox';
import type { Database, Queryable, SqlValue } from '../../db/database.ts';
import type { KeyEnvironment } from '../../kernel/api-keys.ts';
import { newId } from '../../kernel/ids.ts';
import { emitDomainEvent, type SharedReads } from '../../db/domain-events.ts';
import type { Scope } from '../../kernel/scope.ts';
import { DEDUP_WINDOW_MS, fingerprintOf } from './dedup.ts';
import { countOccurrence, countOccurrencesIn, ERROR_ID_PREFIX, hourOf, pruneHistory } from './store-history.ts';
import type { BugBody, ErrorBody } from './schemas.ts';
import { lifecycleAfterRepeat } from './lifecycle.ts';
import { recordAudit } from '../audit/index.ts';
import type { PreparedEvent } from './error-event.ts';
import { DEFAULT_EVENTS_PER_GROUP, type GroupChange, type GroupEventInput, writeGroupEvents } from './store-groups.ts';

export { compareVersions, lifecycleAfterRepeat } from './lifecycle.ts';
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

const RELAXED = { durability: 'relaxed' } as const;

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

/** One error report waiting to be written: its scope, body and arrival time. */
export interface ErrorReport {
  scope: Scope;
  body: Static<typeof ErrorBody>;
  now: Date;
  /** errorFingerprint(body): the group it counts on. */
  fingerprint: string;
  /** The event as its error group keeps it (error-event.ts). */
  event: PreparedEvent;
}

export const errorFingerprint = (body: Static<typeof ErrorBody>) => fingerprintOf(body.title, body.errorType);

/** A group's reports, as the error writer folded them: same project, environment and fingerprint. */
export type ErrorGroupReports = readonly ErrorReport[];

/**
 * Records reports of several groups in one transaction of a few statements, however many groups:
 * one multi-row upsert of the records (which count their hours: the history), one read of the
 * previous records of the groups that got a new one, and an update only where a status moves. On
 * PostgreSQL a commit waits for the disk, so reports that arrive together share one commit
 * (error-writer.ts gathers them) instead of queueing for one commit each.
 *
 * Each group counts its reports on one record: the first report's when it is new; the release
 * is the latest one given. The lifecycle: a resolved group that occurs again is regressed
 * (unless it was resolved in the next release and no report is from a newer one); an ignored one
 * stays ignored. A new record of a fingerprint takes the lifecycle of the group's previous
 * record. The first report of a group gets the record's answer; the others are duplicates of it.
 *
 * Groups are written in key order, so that two processes writing overlapping groups lock their
 * rows in the same order (PostgreSQL) and never deadlock on each other.
 */
export async function writeErrorGroups(
  db: Database,
  groups: readonly ErrorGroupReports[],
  retentionDays: number,
  eventsPerGroup = DEFAULT_EVENTS_PER_GROUP,
): Promise<Occurrence[][]> {
  const written = groups
    .map((reports, index) => ({ index, plan: planGroup(reports) }))
    .sort((a, b) => (a.plan.key < b.plan.key ? -1 : a.plan.key > b.plan.key ? 1 : 0));
  const latest = Math.max(...written.map(({ plan }) => plan.arrivals.last.getTime()));
  // One window edge for the whole write (the latest arrival's): reports written together arrived
  // within the same few milliseconds.
  const cutoff = new Date(latest - DEDUP_WINDOW_MS).toISOString();
  // Telemetry: on PostgreSQL the commit need not wait for the disk (TransactionOptions).
  const answers = await db.transaction(async (tx) => {
    const plans = written.map(({ plan }) => plan);
    // The groups first: a new record points to the group of its first report.
    const inputs: GroupEventInput[] = [];
    const firsts: GroupEventInput[] = [];
    const planOf = new Map<GroupEventInput, number>();
    for (const [i, { index }] of written.entries()) {
      for (const [n, report] of groups[index]!.entries()) {
        inputs.push({ scope: report.scope, event: report.event, receivedAt: report.now });
        planOf.set(inputs[inputs.length - 1]!, i);
        if (n === 0) firsts.push(inputs[inputs.length - 1]!);
      }
    }
    const { groupOf, changes } = await writeGroupEvents(tx, inputs, eventsPerGroup);
    for (const [i, plan] of plans.entries()) plan.values.push(groupOf.get(firsts[i]!) ?? null);
    const recorded = await upsertErrorRecords(tx, plans, cutoff);
    // Groups whose open record is past the window: those records are closed, and the upsert again
    // opens new ones (or, where another process opened one meanwhile, counts on it). The closed
    // record is the group's previous one, whose lifecycle a new record takes.
    const closed = new Map<string, PreviousRecord>();
    for (let attempt = 0; recorded.size < plans.length; attempt++) {
      if (attempt === 3) throw new Error('No open error_reports record for a fingerprint after three attempts');
      const missing = plans.filter((plan) => !recorded.has(plan.key));
      for (const plan of missing) {
        const [record] = await tx.all<PreviousRecord>(`${ERRORS.close} RETURNING status, resolved_in_release`, [
          plan.scope.projectId,
          plan.scope.environment,
          plan.fingerprint,
          cutoff,
        ]);
        if (record && !closed.has(plan.key)) closed.set(plan.key, record);
      }
      for (const [key, group] of await upsertErrorRecords(tx, missing, cutoff)) recorded.set(key, group);
    }
    // Records count their own hours; one from before they did is counted in the hourly table.
    const uncounted = plans.filter((plan) => !recorded.get(plan.key)!.countsHours);
    if (uncounted.length > 0)
      await countOccurrences(
        tx,
        uncounted.flatMap((plan) =>
          [...plan.perHour].map(([hour, count]) => ({ scope: plan.scope, fingerprint: plan.fingerprint, hour, count })),
        ),
      );
    await applyLifecycle(tx, plans, recorded, closed);
    // New and regressed groups are told per error group (webhooks and alerts subscribe).
    const shared: SharedReads = new Map();
    for (const change of changes) {
      const plan = plans[planOf.get(change.input)!]!;
      await tellEvent(
        tx,
        change.kind === 'new' ? 'error.new-group' : 'error.regressed',
        plan,
        change,
        recorded,
        shared,
      );
    }
    return plans.map((plan) => recorded.get(plan.key)!);
  }, RELAXED);
  await pruneHistory(db, retentionDays, new Date(latest));
  const results: Occurrence[][] = [];
  for (const [i, { index }] of written.entries()) {
    const { id, duplicate } = answers[i]!;
    results[index] = groups[index]!.map((_, n) => (n === 0 ? { id, duplicate } : { id, duplicate: true }));
  }
  return results;
}

/** What one group writes: its key, record values, arrivals and hours. */
interface GroupPlan {
  key: string;
  scope: Scope;
  fingerprint: string;
  candidate: string;
  version: string | null;
  values: SqlValue[];
  arrivals: Arrivals;
  perHour: Map<string, number>;
  /** How many of the reports arrived in the hour of the last one. */
  lastHourCount: number;
}

function planGroup(reports: ErrorGroupReports): GroupPlan {
  const first = reports[0]!;
  const last = reports[reports.length - 1]!;
  const { scope, body, fingerprint } = first;
  const version = reports.findLast((report) => report.body.app?.version)?.body.app?.version ?? null;
  const perHour = new Map<string, number>();
  for (const report of reports) {
    const hour = hourOf(report.now);
    perHour.set(hour, (perHour.get(hour) ?? 0) + 1);
  }
  return {
    key: `${scope.projectId}\u0000${scope.environment}\u0000${fingerprint}`,
    scope,
    fingerprint,
    candidate: newId(ERRORS.idPrefix),
    version,
    values: [
      body.title,
      body.message,
      body.stackTrace ?? null,
      body.errorType ?? null,
      body.severity ?? 'medium',
      json(body.breadcrumbs),
      json(body.device),
      json(body.network),
      json(body.app),
      body.url ?? null,
      body.referrer ?? null,
      body.timestamp ?? null,
      json(body.metadata),
      version,
    ],
    arrivals: { first: first.now, last: last.now, count: reports.length },
    perHour,
    lastHourCount: perHour.get(hourOf(last.now)) ?? 0,
  };
}

/** A group's record after the upsert, with what the lifecycle needs of it. */
interface RecordedGroup extends Occurrence {
  status: string;
  resolvedInRelease: string | null;
  appVersion: string | null;
  /** False for a record from before records counted their hours (migration 202612020100). */
  countsHours: boolean;
}

/**
 * One upsert for every group: a new record, or the count added to the open record when that was
 * first seen after `cutoff`. Groups missing from the answer have an open record past the window.
 */
async function upsertErrorRecords(
  tx: Queryable,
  plans: readonly GroupPlan[],
  cutoff: string,
): Promise<Map<string, RecordedGroup>> {
  const params: SqlValue[] = [];
  for (const plan of plans) {
    const { scope, fingerprint, candidate, values, arrivals } = plan;
    params.push(candidate, scope.projectId, scope.environment, fingerprint, ...values, arrivals.count);
    params.push(arrivals.first.toISOString(), arrivals.last.toISOString(), plan.lastHourCount);
  }
  params.push(cutoff);
  const rows = await tx.all<{
    id: string;
    project_id: string;
    environment: string;
    fingerprint: string;
    status: string;
    resolved_in_release: string | null;
    app_version: string | null;
    last_hour_occurrences: number | null;
  }>(ERRORS.upsertRows(plans.length), params);
  const candidates = new Map(plans.map((plan) => [plan.key, plan.candidate]));
  const recorded = new Map<string, RecordedGroup>();
  for (const row of rows) {
    const key = `${row.project_id}\u0000${row.environment}\u0000${row.fingerprint}`;
    recorded.set(key, {
      id: row.id,
      duplicate: row.id !== candidates.get(key),
      status: row.status,
      resolvedInRelease: row.resolved_in_release,
      appVersion: row.app_version,
      countsHours: row.last_hour_occurrences !== null,
    });
  }
  return recorded;
}

/** Adds every group's occurrences to its hours, in one upsert (rows in key order). */
async function countOccurrences(
  tx: Queryable,
  counts: readonly { scope: Scope; fingerprint: string; hour: string; count: number }[],
): Promise<void> {
  if (counts.length === 1) {
    const [{ scope, fingerprint, hour, count }] = counts as [(typeof counts)[number]];
    await countOccurrence(tx, scope, fingerprint, hour, count);
    return;
  }
  await countOccurrencesIn(
    tx,
    counts.map(({ scope, fingerprint, hour, count }) => [scope.projectId, scope.environment, fingerprint, hour, count]),
  );
}

/**
 * The lifecycle after the write: a repeat of a resolved group may regress it, and a release may
 * move; a new record takes its group's previous status, from the record this write closed.
 *
 * A new record with nothing closed is a new group: a fingerprint's records always include one
 * open record (a record is closed only here, in the transaction that opens the next one, and
 * records are never deleted but with their project), so a fingerprint without an open record has
 * no records at all. No read is needed to tell, where a probe of the group's earlier records was:
 * that read was one more statement per write, and on PostgreSQL a planner with stale statistics
 * (a table analysed while empty) answered it by walking the project's records.
 */
async function applyLifecycle(
  tx: Queryable,
  plans: readonly GroupPlan[],
  recorded: ReadonlyMap<string, RecordedGroup>,
  previous: ReadonlyMap<string, PreviousRecord>,
): Promise<void> {
  for (const plan of plans) {
    const record = recorded.get(plan.key)!;
    if (record.duplicate) {
      const status = lifecycleAfterRepeat(record.status, record.resolvedInRelease, plan.version);
      // Written only when something changed: most repeats are of an open group and its release.
      if (status !== record.status || (plan.version !== null && plan.version !== record.appVersion)) {
        await tx.run('UPDATE error_reports SET status = ?, app_version = COALESCE(?, app_version) WHERE id = ?', [
          status,
          plan.version,
          record.id,
        ]);
      }
      continue;
    }
    const before = previous.get(plan.key);
    if (!before || before.status === 'open') continue;
    const status = lifecycleAfterRepeat(before.status, before.resolved_in_release, plan.version);
    await tx.run('UPDATE error_reports SET status = ?, resolved_in_release = ? WHERE id = ?', [
      status,
      status === 'resolved' ? before.resolved_in_release : null,
      record.id,
    ]);
  }
}

/**
 * A new error group, or a regressed one, told in the write's transaction (webhooks and alerts
 * subscribe); `errorId` is the dedup record the group's event was counted on.
 */
function tellEvent(
  tx: Queryable,
  event: 'error.new-group' | 'error.regressed',
  plan: GroupPlan,
  change: GroupChange,
  recorded: ReadonlyMap<string, RecordedGroup>,
  shared: SharedReads,
) {
  const { event: prepared } = change.input;
  return emitDomainEvent(
    tx,
    event,
    {
      projectId: plan.scope.projectId,
      environment: plan.scope.environment,
      errorId: recorded.get(plan.key)!.id,
      groupId: change.groupId,
      title: prepared.title,
      fingerprint: plan.fingerprint,
      sdkEnvironment: prepared.sdkEnvironment,
      level: prepared.level,
    },
    shared,
  );
}

interface PreviousRecord {
  status: string;
  resolved_in_release: string | null;
}

export interface Occurrence {
  id: string;
  duplicate: boolean;
}

/** A report table, with the statements that record a report in it, built once. */
interface ReportTable {
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
interface Arrivals {
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
async function recordOccurrence(
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

const BUGS = reportTable('bug_reports', 'bug', [
  'title',
  'message',
  'stack_trace',
  'bug_type',
  'severity',
  'channel',
  'metadata',
]);
const ERRORS = reportTable(
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
