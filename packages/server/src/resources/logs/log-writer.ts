/**
 * Log batches of one process, folded together while they wait for the database, and written by
 * store-group-writes.ts: what POST /logs, OTLP and Sentry logs call (`storeLogBatch`).
 */
import type { Database } from '../../db/database.ts';
import { isInputFault } from '../../db/failures.ts';
import { releasedAtRest } from '../../http/at-rest.ts';
import { BadRequestError } from '../../kernel/errors.ts';
import type { Scope } from '../../kernel/scope.ts';
import type { LogEntry } from './schemas.ts';
import { foldBatch, type Group, inLockOrder, writeGroups, writeGroupsSqlite } from './store-group-writes.ts';
import { reportKeyIndexError, SqliteKeyIndex } from './store-sqlite-keys.ts';

/** One request's entries, kept so that it can be written alone if the folded write fails. */
interface Batch {
  entries: readonly LogEntry[];
  receivedAt: string;
  written: PromiseWithResolvers<void>;
}

interface PendingScope {
  scope: Scope;
  /** Every batch below, folded as they arrived. */
  groups: Map<string, Group>;
  batches: Batch[];
}

/**
 * Log batches of one process, folded together while they wait for the database.
 *
 * Batches that arrive while a write is under way are folded per project, environment and
 * fingerprint, and written together by the next write: a line that several clients sent in the
 * meantime costs one row, not one per request. Each request is answered only once the write that
 * holds its batch has committed, so an acknowledged batch is stored. Counts add up as they would
 * one batch after another; the latest entry's fields win, as they would.
 *
 * One bad batch must not fail the others folded with it: when a folded write fails, nothing of
 * it is stored, and each of its batches is written again on its own, so only the batches whose
 * own write fails are refused.
 */
class LogWriter {
  private readonly db: Database;
  /** SQLite's lookup of groups by key (store-sqlite-keys.ts); PostgreSQL has its unique index. */
  private readonly keys: SqliteKeyIndex | undefined;
  private pending = new Map<string, PendingScope>();
  private writing = false;
  private scheduled = false;
  /** Set at rest while the key index sweeps every fresh key; settled when it is done. */
  private resting: PromiseWithResolvers<void> | undefined;

  constructor(db: Database) {
    this.db = db;
    this.keys = db.dialect === 'sqlite' ? new SqliteKeyIndex() : undefined;
    if (this.keys) releasedAtRest(this);
  }

  /**
   * At rest (http/at-rest.ts): the key index's fresh keys moved to their table, a step per write
   * turn (batches that arrive meanwhile are written first), so the map that held them shrinks.
   */
  release(): Promise<void> | undefined {
    if (!this.keys || this.keys.freshKeys === 0) return undefined;
    this.resting ??= Promise.withResolvers<void>();
    this.schedule();
    return this.resting.promise;
  }

  add(scope: Scope, entries: readonly LogEntry[], receivedAt: string): Promise<void> {
    const key = `${scope.projectId}\u0000${scope.environment}`;
    let waiting = this.pending.get(key);
    if (!waiting) {
      waiting = { scope, groups: new Map(), batches: [] };
      this.pending.set(key, waiting);
    }
    foldBatch(scope, waiting.groups, entries, receivedAt);
    const batch: Batch = { entries, receivedAt, written: Promise.withResolvers<void>() };
    waiting.batches.push(batch);
    this.schedule();
    return batch.written.promise;
  }

  /** Writes on the next turn, so the requests parsed in this one join; never two writes at once. */
  private schedule(): void {
    if (this.writing || this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.write();
    });
  }

  private async write(): Promise<void> {
    const batch = this.pending;
    this.pending = new Map();
    this.writing = true;
    try {
      if (this.keys) {
        // One after another: each write's keys are in memory before the next one looks.
        for (const waiting of batch.values()) await this.writeScope(waiting);
        let failed = false;
        await this.keys.maintain(this.db, this.resting !== undefined).catch((error: unknown) => {
          failed = true;
          reportKeyIndexError(error);
        });
        // Done when the sweep has ended (or was dropped: the table moved under it), or cannot go on.
        if (this.resting && (failed || !this.keys.sweeping)) {
          this.resting.resolve();
          this.resting = undefined;
        }
      } else {
        // Scopes share no rows, so their writes run side by side on PostgreSQL's pool.
        await Promise.all([...batch.values()].map((waiting) => this.writeScope(waiting)));
      }
    } finally {
      this.writing = false;
      if (this.pending.size > 0 || this.resting) this.schedule();
    }
  }

  /** A scope's folded groups. Lock order matters only on PostgreSQL, where writers run side by side. */
  private writeFolded(scope: Scope, groups: Map<string, Group>): Promise<void> {
    return this.keys
      ? writeGroupsSqlite(this.db, this.keys, scope, [...groups.values()])
      : writeGroups(this.db, scope, inLockOrder(groups));
  }

  private async writeScope(waiting: PendingScope): Promise<void> {
    try {
      await this.writeFolded(waiting.scope, waiting.groups);
      for (const batch of waiting.batches) batch.written.resolve();
      return;
    } catch (error) {
      if (waiting.batches.length === 1) {
        waiting.batches[0]!.written.reject(error);
        return;
      }
    }
    // The folded write stored nothing: each batch again on its own, one after another.
    for (const batch of waiting.batches) {
      const groups = new Map<string, Group>();
      foldBatch(waiting.scope, groups, batch.entries, batch.receivedAt);
      try {
        await this.writeFolded(waiting.scope, groups);
        batch.written.resolve();
      } catch (error) {
        batch.written.reject(error);
      }
    }
  }
}

const writers = new WeakMap<Database, LogWriter>();

/** Stores a validated batch: all of it or none, acknowledged once committed. */
export async function storeLogBatch(
  db: Database,
  scope: Scope,
  entries: readonly LogEntry[],
  receivedAt: Date,
): Promise<void> {
  if (entries.length === 0) return;
  let writer = writers.get(db);
  if (!writer) {
    writer = new LogWriter(db);
    writers.set(db, writer);
  }
  try {
    await writer.add(scope, entries, receivedAt.toISOString());
  } catch (error) {
    // Validation lets through what the database alone can refuse; that is still the batch's fault.
    if (isInputFault(error))
      throw new BadRequestError('Invalid field logs: the database refused a value of this batch', [
        { field: 'logs', message: 'holds a value the database cannot store' },
      ]);
    throw error;
  }
}
