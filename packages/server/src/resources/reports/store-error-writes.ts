/**
 * Error reports written in batches (error-writer.ts gathers them): the records of several groups
 * upserted in one transaction, their lifecycle, and the events their groups keep.
 */
import type { Static } from 'typebox';
import type { Database, Queryable, SqlValue } from '../../db/database.ts';
import { newId } from '../../kernel/ids.ts';
import { emitDomainEvent, type SharedReads } from '../../db/domain-events.ts';
import type { Scope } from '../../kernel/scope.ts';
import { DEDUP_WINDOW_MS, fingerprintOf } from './dedup.ts';
import { countOccurrence, countOccurrencesIn, hourOf, pruneHistory } from './store-history.ts';
import type { ErrorBody } from './schemas.ts';
import { lifecycleAfterRepeat } from './lifecycle.ts';
import type { PreparedEvent } from './error-event.ts';
import { DEFAULT_EVENTS_PER_GROUP, type GroupChange, type GroupEventInput, writeGroupEvents } from './store-groups.ts';

import { type Arrivals, ERRORS, type Occurrence } from './store-report-table.ts';
import { compareText } from '../../kernel/compare-text.ts';

const RELAXED = { durability: 'relaxed' } as const;

const json = (value: unknown): string | null => (value === undefined ? null : JSON.stringify(value));

/** One error report waiting to be written: its scope, body and arrival time. */
export interface ErrorReport {
  scope: Scope;
  /** The body; undefined once its record's columns were taken from it (`taken`). */
  body: Static<typeof ErrorBody> | undefined;
  /** What a record is written from, taken from the body before the write (takeColumns). */
  taken?: TakenColumns;
  now: Date;
  /** errorFingerprint(body): the group it counts on. */
  fingerprint: string;
  /** The event as its error group keeps it (error-event.ts). */
  event: PreparedEvent;
}

export const errorFingerprint = (body: Static<typeof ErrorBody>) => fingerprintOf(body.title, body.errorType);

/** A group's key among the reports of one process: its project, environment and fingerprint. */
export const groupKeyOf = (projectId: string, environment: string, fingerprint: string): string =>
  `${projectId}\u0000${environment}\u0000${fingerprint}`;

/** A record's columns of a body (all but its release and group), and the release the body names. */
interface TakenColumns {
  columns: SqlValue[];
  version: string | undefined;
}

/** The columns a new record takes from its group's first report (planGroup), release and group aside. */
function recordColumns(body: Static<typeof ErrorBody>): SqlValue[] {
  return [
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
  ];
}

/**
 * Takes the record's columns from the report's body now and lets the body go: what the write needs
 * of it is then a few strings, not the body's objects (an SDK event's 50 breadcrumbs and their data
 * are some hundreds), which would otherwise live until the write, copied by every young-generation
 * collection meanwhile (issue 31). The error writer takes them of a report that will be its
 * group's first in a write (the one planGroup writes a new record from), so no body is serialised
 * that would not have been.
 */
export function takeColumns(report: ErrorReport): void {
  if (!report.body) return;
  report.taken = { columns: recordColumns(report.body), version: report.body.app?.version };
  report.body = undefined;
}

const versionOf = (report: ErrorReport) => (report.body ? report.body.app?.version : report.taken?.version);

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
    .sort((a, b) => compareText(a.plan.key, b.plan.key));
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
  const { scope, fingerprint } = first;
  const named = reports.findLast((report) => versionOf(report));
  const version = named ? versionOf(named)! : null;
  const perHour = new Map<string, number>();
  for (const report of reports) {
    const hour = hourOf(report.now);
    perHour.set(hour, (perHour.get(hour) ?? 0) + 1);
  }
  return {
    key: groupKeyOf(scope.projectId, scope.environment, fingerprint),
    scope,
    fingerprint,
    candidate: newId(ERRORS.idPrefix),
    version,
    values: [...(first.taken?.columns ?? recordColumns(first.body!)), version],
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
    const key = groupKeyOf(row.project_id, row.environment, row.fingerprint);
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
