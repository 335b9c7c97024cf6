/**
 * Error reports of one process, written together while an earlier write is under way.
 *
 * A report that arrives while nothing is being written is written at once. Reports that arrive
 * while a write is under way wait for it, and are then written together in one transaction
 * (writeErrorGroups in store.ts): identical ones (same project, environment and fingerprint) as
 * one count on their group's record, different ones as rows of the same few statements. On
 * PostgreSQL every commit waits for the disk, so a burst of reports costs a few commits instead
 * of one each queued on the disk, and a burst of the same error a few row updates instead of a
 * queue on one row lock. Counts are exact: the database adds each write's count to the record
 * and to its hour, so other processes writing their own bursts add up too. Each report is
 * answered once the write holding it has committed.
 *
 * One failed write (e.g. the database briefly gone, or a value it refuses) does not fail every
 * report written with it for the others' sake: its groups are then written one by one, and a
 * group that fails alone has its reports written one by one, so only those whose own write
 * fails are refused.
 */
import type { Static } from 'typebox';
import type { Database } from '../../db/database.ts';
import type { Scope } from '../../kernel/scope.ts';
import { type PreparedEvent, prepareReportBody } from './error-event.ts';
import type { ErrorBody } from './schemas.ts';
import { DEFAULT_EVENTS_PER_GROUP } from './store-groups.ts';
import { type ErrorReport, errorFingerprint, groupKeyOf, takeColumns, writeErrorGroups } from './store-error-writes.ts';
import type { Occurrence } from './store-report-table.ts';

/** Reports taken into one write at most (and so groups per statement: the parameters stay few). */
const MAX_REPORTS_PER_WRITE = 200;

interface Waiting {
  report: ErrorReport;
  /** Its group: project, environment and fingerprint. */
  key: string;
  answer: PromiseWithResolvers<Occurrence>;
}

class ErrorWriter {
  private readonly db: Database;
  private readonly retentionDays: number;
  private readonly eventsPerGroup: number;
  /** Reports that arrived while a write was under way, in arrival order. */
  private queue: Waiting[] = [];
  /** How many reports of each group the queue holds. */
  private readonly queued = new Map<string, number>();
  private writing = false;

  constructor(db: Database, retentionDays: number, eventsPerGroup: number) {
    this.db = db;
    this.retentionDays = retentionDays;
    this.eventsPerGroup = eventsPerGroup;
  }

  add(report: ErrorReport): Promise<Occurrence> {
    const { scope, fingerprint } = report;
    const key = groupKeyOf(scope.projectId, scope.environment, fingerprint);
    const queued = this.queued.get(key) ?? 0;
    // The first report of its group in the queue is its group's first in the write that takes it
    // (writes take the queue from its front, in order): the one a new record is written from. Its
    // record's columns are taken now and its body let go (takeColumns), so the body's objects do
    // not wait for the write; the group's later reports are counted, their bodies not written.
    if (queued === 0) takeColumns(report);
    this.queued.set(key, queued + 1);
    const entry: Waiting = { report, key, answer: Promise.withResolvers<Occurrence>() };
    this.queue.push(entry);
    if (!this.writing) void this.drain();
    return entry.answer.promise;
  }

  private async drain(): Promise<void> {
    this.writing = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, MAX_REPORTS_PER_WRITE);
        for (const { key } of batch) {
          const left = this.queued.get(key)! - 1;
          if (left === 0) this.queued.delete(key);
          else this.queued.set(key, left);
        }
        await this.write(groupsOf(batch));
      }
    } finally {
      this.writing = false;
    }
  }

  private async write(groups: Waiting[][]): Promise<void> {
    try {
      const results = await writeErrorGroups(
        this.db,
        groups.map((group) => group.map((entry) => entry.report)),
        this.retentionDays,
        this.eventsPerGroup,
      );
      for (const [g, group] of groups.entries()) {
        for (const [i, entry] of group.entries()) entry.answer.resolve(results[g]![i]!);
      }
    } catch (error) {
      if (groups.length === 1 && groups[0]!.length === 1) groups[0]![0]!.answer.reject(error);
      else if (groups.length === 1) await this.writeOneByOne(groups[0]!);
      else for (const group of groups) await this.write([group]);
    }
  }

  private async writeOneByOne(entries: Waiting[]): Promise<void> {
    for (const entry of entries) await this.write([[entry]]);
  }
}

/** The reports by group (project, environment, fingerprint), each group in arrival order. */
function groupsOf(entries: readonly Waiting[]): Waiting[][] {
  const groups = new Map<string, Waiting[]>();
  for (const entry of entries) {
    const group = groups.get(entry.key);
    if (group) group.push(entry);
    else groups.set(entry.key, [entry]);
  }
  return [...groups.values()];
}

const writers = new WeakMap<Database, ErrorWriter>();

/**
 * An error; repeats of the same title and errorType within the window are counted on one record
 * (writeErrorGroups in store.ts), reports arriving together in one write. `event` is the event its
 * error group keeps (a Sentry event as sent; by default the body in that shape).
 */
export function recordError(
  db: Database,
  scope: Scope,
  body: Static<typeof ErrorBody>,
  now: Date,
  retentionDays = 30,
  event: PreparedEvent = prepareReportBody(body, now),
  eventsPerGroup = DEFAULT_EVENTS_PER_GROUP,
): Promise<Occurrence> {
  // One writer per process and database, as the gathering must be.
  let writer = writers.get(db);
  if (!writer) {
    writer = new ErrorWriter(db, retentionDays, eventsPerGroup);
    writers.set(db, writer);
  }
  return writer.add({ scope, body, now, fingerprint: errorFingerprint(body), event });
}
