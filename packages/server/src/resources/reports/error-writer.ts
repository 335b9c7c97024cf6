/**
 * Error reports of one process, folded per group while the group's previous write is under way.
 *
 * The first report of a group is written at once. Identical reports (same project, environment
 * and fingerprint) that arrive while it is being written wait, and are then written together as
 * one count: a burst of the same error through 32 connections costs a few row updates instead of
 * 32 transactions queued on one row lock (on PostgreSQL, every queued one holds a pooled
 * connection). Counts are exact: the database adds each write's count to the record and to its
 * hour, so other processes folding their own bursts add up too. Each report is answered once the
 * write holding it has committed.
 *
 * One failed folded write (e.g. the database briefly gone) does not fail every report folded
 * into it for the others' sake: its reports are then written one by one, and only those whose
 * own write fails are refused.
 */
import type { Static } from 'typebox';
import type { Database } from '../../db/database.ts';
import type { Scope } from '../../kernel/scope.ts';
import type { ErrorBody } from './schemas.ts';
import { type ErrorReport, errorFingerprint, type Occurrence, writeErrors } from './store.ts';

interface Waiting {
  report: ErrorReport;
  answer: PromiseWithResolvers<Occurrence>;
}

class ErrorWriter {
  private readonly db: Database;
  private readonly retentionDays: number;
  /** Reports that arrived while their group was being written, by group. */
  private readonly waiting = new Map<string, Waiting[]>();
  /** Groups with a write under way. */
  private readonly busy = new Set<string>();

  constructor(db: Database, retentionDays: number) {
    this.db = db;
    this.retentionDays = retentionDays;
  }

  add(report: ErrorReport): Promise<Occurrence> {
    const group = `${report.scope.projectId}\u0000${report.scope.environment}\u0000${report.fingerprint}`;
    const entry: Waiting = { report, answer: Promise.withResolvers<Occurrence>() };
    if (this.busy.has(group)) {
      const queue = this.waiting.get(group);
      if (queue) queue.push(entry);
      else this.waiting.set(group, [entry]);
    } else {
      this.busy.add(group);
      void this.write(group, [entry]);
    }
    return entry.answer.promise;
  }

  private async write(group: string, entries: Waiting[]): Promise<void> {
    try {
      const results = await writeErrors(
        this.db,
        entries.map((entry) => entry.report),
        this.retentionDays,
      );
      for (const [i, entry] of entries.entries()) entry.answer.resolve(results[i]!);
    } catch (error) {
      if (entries.length === 1) entries[0]!.answer.reject(error);
      else await this.writeOneByOne(entries);
    } finally {
      const next = this.waiting.get(group);
      this.waiting.delete(group);
      if (next) void this.write(group, next);
      else this.busy.delete(group);
    }
  }

  private async writeOneByOne(entries: Waiting[]): Promise<void> {
    for (const entry of entries) {
      try {
        const [result] = await writeErrors(this.db, [entry.report], this.retentionDays);
        entry.answer.resolve(result!);
      } catch (error) {
        entry.answer.reject(error);
      }
    }
  }
}

const writers = new WeakMap<Database, ErrorWriter>();

/**
 * An error; repeats of the same title and errorType within the window are counted on one record
 * (writeErrors in store.ts), identical reports arriving together in one write.
 */
export function recordError(
  db: Database,
  scope: Scope,
  body: Static<typeof ErrorBody>,
  now: Date,
  retentionDays = 30,
): Promise<Occurrence> {
  // One writer per process and database, as the folding must be.
  let writer = writers.get(db);
  if (!writer) {
    writer = new ErrorWriter(db, retentionDays);
    writers.set(db, writer);
  }
  return writer.add({ scope, body, now, fingerprint: errorFingerprint(body) });
}
