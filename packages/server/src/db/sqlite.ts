import { AsyncLocalStorage } from 'node:async_hooks';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { mkdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, resolve } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { classifyDatabaseError } from './failures.ts';
import type { Database, Queryable, Row, RunResult, SqlValue, TransactionOptions } from './database.ts';
import { changesMemoisedData } from './memoised-writes.ts';
import { Mutex } from './mutex.ts';
import { readsOffThread } from './read-context.ts';
import { SqliteCheckpointer } from './sqlite-checkpointer.ts';
import { SqliteWorkerPool } from './sqlite-worker-pool.ts';
import { StatementCache } from './statement-cache.ts';

/**
 * Set while a transaction's work runs (it holds the writer): its reads in a worker must not wait
 * for a checkpoint's tail, which waits for the writer (sqlite-worker-pool.ts).
 */
const inWriteTransaction = new AsyncLocalStorage<true>();

/**
 * SQLite's read workers by default: one per core beside the event loop's, at least 1, at most 2.
 * Each is a thread with its own V8 heap, page cache and statements (12–28 MB under the bench's load), and on
 * two cores a second one only takes turns from the event loop: measured with the bench's standard
 * load on a 2-core host, one worker left 251 MB resident against 263–271 MB with two, the
 * management reads no slower (packages/bench README, "Memory on SQLite, 2026-11-30").
 */
export const DEFAULT_READ_WORKERS = Math.max(1, Math.min(2, availableParallelism() - 1));
/**
 * The worker threads' nice value (sqlite-worker.ts): 10 when this process has one CPU to run on
 * (a container of one CPU; the loop-delay bench pins the server to one core), else 0. With one
 * CPU a worker's read can only run by taking the event loop's time: under the loop-delay bench's
 * mixed soak (2026-11-30, 100,000 log groups, two runs each) the loop's p99 read 19.0 and 22.0 ms
 * at nice 0, 18.4 and 22.2 at 5, 10.3 and 14.6 at 10, the public API's rate 2.5 times as high, the
 * management and MCP reads then 6–7 req/s instead of 32–44 (p99 0.5–0.7 s): on a saturated CPU
 * they wait, the apps do not. With cores to spare the workers run beside the loop and keep its
 * priority. Linux ranks a nice value within the thread's CPU group (a container, a systemd unit, a
 * session under autogroup): sharing one with other busy processes, the workers yield to them too
 * (on a 2-core machine running the whole test suite in one session, a management read at nice 10
 * starved past 30 s).
 */
export const DEFAULT_WORKER_NICE = availableParallelism() === 1 ? 10 : 0;

/**
 * WAL pages (4 KiB) between the writer's own checkpoints unless configured, where it takes them
 * (an in-memory database has none; a file's are taken by sqlite-checkpointer.ts's worker, and by
 * the writer only if that worker fails): 10,000 (a WAL of up to about 40 MiB) rather than SQLite's 1,000. Measured on the error report path, each new report cost about a
 * quarter less, as pages written many times between checkpoints (index interiors, the tables'
 * last pages) are copied back once.
 */
export const DEFAULT_CHECKPOINT_PAGES = 10_000;

/**
 * The writer's own checkpoint, where the worker takes them, at this many times the pages: only if
 * the worker falls far behind. At 1.5 it fell to the writer under a steady log load on a slow
 * virtual machine (a copy of 10,000 pages took the worker 100–160 ms while the writer added
 * 17,000 frames a second): the writer's COMMIT then copied the WAL back itself, 50–180 ms on the
 * event loop, the loop delay's p99 under `npm run loop-delay` (logs alone 44–54 ms, 22 ms at 4×).
 * The WAL stays under three times the threshold (120 MiB at the default).
 */
export const CHECKPOINT_BACKSTOP = 3;

const READ_ONLY = /^\s*(select|with)\b/i;
/** At most this many transactions share one commit, so one batch never holds the lock for long. */
const MAX_GROUP = 64;

interface PendingTransaction {
  fn: (tx: Queryable) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** A connection with a cache of prepared statements, bounded by the memory they hold (statement-cache.ts). */
class Connection {
  readonly db: DatabaseSync;
  private readonly statements: StatementCache;

  constructor(path: string, readOnly: boolean) {
    this.db = new DatabaseSync(path, { readOnly, timeout: 5000 });
    this.statements = new StatementCache(this.db);
  }

  prepare(sql: string): StatementSync {
    return this.statements.prepare(sql);
  }

  // Rows are always read with `.all()`: a write with RETURNING read through `.get()` is never
  // stepped to completion, which keeps its write open and blocks WAL checkpoints for good.
  all<T>(sql: string, params: readonly SqlValue[]): T[] {
    try {
      return this.prepare(sql).all(...(params as SqlValue[])) as T[];
    } catch (error) {
      throw classifyDatabaseError(error);
    }
  }

  run(sql: string, params: readonly SqlValue[]): RunResult {
    try {
      const result = this.prepare(sql).run(...(params as SqlValue[]));
      return { changes: Number(result.changes), lastInsertRowid: Number(result.lastInsertRowid) };
    } catch (error) {
      throw classifyDatabaseError(error);
    }
  }
}

/**
 * How long a transaction's statements run on the event loop before it lets the loop turn once.
 * node:sqlite is synchronous, so a transaction of many statements (a folded log write of a few
 * hundred entries, a group commit of many callers) held the loop for all of them at once: 10–60 ms
 * on a slow virtual machine under `npm run loop-delay`. The writer stays held meanwhile (the write
 * lock), so no other statement of this connection runs inside the transaction; reads go on, on
 * their own connections, and see the last commit as before.
 */
const SLICE_MS = 5;

/**
 * Open databases of this process by file. Two in one process (tests run two servers on one file)
 * must not slice: while one lets the loop turn inside its transaction, the other's BEGIN waits
 * for SQLite's lock in a busy handler that sleeps on the same thread, so the first never gets
 * the turn to finish (a deadlock until the busy timeout). Another process waits on its own loop.
 */
const openFiles = new Map<string, number>();
const fileKey = (path: string) => (path === ':memory:' ? path : resolve(path));
const aloneInProcess = (path: string) => path !== ':memory:' && openFiles.get(fileKey(path)) === 1;

/**
 * The writer inside a transaction: notes whether the transaction may change what a memo reads,
 * and lets the event loop turn between two statements once SLICE_MS have passed.
 */
class SqliteQueryable implements Queryable {
  private readonly connection: Connection;
  /** Set by a statement that may change memoised data (memoised-writes.ts); cleared at each BEGIN. */
  changedMemoised = false;
  /** When the transaction began or last let the loop turn. */
  private sliceStart = 0;
  private readonly maySlice: () => boolean;
  constructor(connection: Connection, maySlice: () => boolean) {
    this.connection = connection;
    this.maySlice = maySlice;
  }
  /** A transaction begins on this connection. */
  begin(): void {
    this.changedMemoised = false;
    this.sliceStart = performance.now();
  }
  async all<T = Row>(sql: string, params: readonly SqlValue[] = []): Promise<T[]> {
    await this.pace();
    if (changesMemoisedData(sql)) this.changedMemoised = true;
    return this.connection.all<T>(sql, params);
  }
  async get<T = Row>(sql: string, params: readonly SqlValue[] = []): Promise<T | undefined> {
    return (await this.all<T>(sql, params))[0];
  }
  async run(sql: string, params: readonly SqlValue[] = []): Promise<RunResult> {
    await this.pace();
    if (changesMemoisedData(sql)) this.changedMemoised = true;
    return this.connection.run(sql, params);
  }
  private async pace(): Promise<void> {
    if (performance.now() - this.sliceStart < SLICE_MS || !this.maySlice()) return;
    await nextTurn();
    this.sliceStart = performance.now();
  }
}

/**
 * SQLite through node:sqlite. One writer connection, guarded by a mutex so that an async
 * transaction never interleaves with another request's statements, and one reader connection
 * that sees the last committed state (WAL lets it read while the writer writes).
 */
export class SqliteDatabase implements Database {
  readonly dialect = 'sqlite' as const;
  private readonly writer: Connection;
  private readonly reader: Connection;
  private readonly writeLock = new Mutex();
  private readonly writerQueryable: SqliteQueryable;
  /** `PRAGMA data_version` on the writer: it moves with the commits of every other connection. */
  private readonly dataVersion: StatementSync;
  /** This process's commits that may have changed memoised data (memoised-writes.ts). */
  private memoisedCommits = 0;
  private readonly pending: PendingTransaction[] = [];
  /** Transaction control statements, prepared once: parsing them per request showed in profiles. */
  private readonly control: Record<'begin' | 'commit' | 'savepoint' | 'release' | 'rollbackTo', StatementSync>;

  readonly path: string;

  /** The worker threads running and what they have in flight (read by tests; none in memory). */
  get workerThreads(): { threads: number; inFlight: number } {
    return this.workers?.running ?? { threads: 0, inFlight: 0 };
  }

  /** Worker threads: reads marked `readOffThread`, WAL checkpoints (none in memory). */
  private readonly workers: SqliteWorkerPool | undefined;
  /**
   * Between a rest and the next request (`rest`, `wake`): reads marked `readOffThread` run on the
   * reader here. They are a background job's (the log lines' upkeep, every minute), nothing waits
   * for the event loop, and in a worker they started one again a minute after the rest had ended
   * it, its 50–60 MB resident for the idle time (the bench's reading at rest: 185 MiB, not 148).
   */
  private resting = false;
  /** Whether reads marked `readOffThread` go to the workers (`readWorkers` above 0). */
  private readonly readsInWorkers: boolean;
  /** WAL checkpoints in a worker, not in the COMMIT on the event loop (none in memory). */
  private readonly checkpointer: SqliteCheckpointer | undefined;

  constructor(
    path: string,
    options: {
      checkpointPages?: number | undefined;
      readWorkers?: number | undefined;
      workerNice?: number | undefined;
      /** A worker with nothing to do for this long ends (`WORKER_IDLE_MS`; 0: only at rest). */
      workerIdleMs?: number | undefined;
    } = {},
  ) {
    this.path = path;
    openFiles.set(fileKey(path), (openFiles.get(fileKey(path)) ?? 0) + 1);
    const workers = Math.trunc(options.readWorkers ?? DEFAULT_READ_WORKERS);
    const nice = Math.trunc(options.workerNice ?? DEFAULT_WORKER_NICE);
    this.workers = path !== ':memory:' ? new SqliteWorkerPool(path, workers, nice, options.workerIdleMs) : undefined;
    this.readsInWorkers = workers > 0;
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    this.writer = new Connection(path, false);
    // The writer's page cache is 8 MB, not the reader's 64: SQLite walks the whole page-cache hash
    // table at the end of every write transaction here (pcache1TruncateUnsafe, 4–6 % of the CPU of
    // POST /errors with new groups under perf), so a larger cache makes every commit dearer, while
    // the pages a write reads beyond it come from the OS's cache. Paired (`npm run compare`),
    // 8 MB against 64: new error groups 1.07–1.12×, Sentry envelopes with new events 1.10×, all-new
    // log lines 1.01×, GET /features 1.01×; 2 MB and 16 MB were both worse than 8 on some of them.
    // secure_delete FAST: deleted and overwritten row content is zeroed on the b-tree page it
    // leaves (no extra I/O), so an erased person's e-mail or name (issue 36) is not left in the file.
    this.writer.db.exec(`
      PRAGMA journal_mode = WAL;
      PRAGMA secure_delete = FAST;
      PRAGMA synchronous = NORMAL;
      PRAGMA foreign_keys = ON;
      PRAGMA busy_timeout = 5000;
      PRAGMA cache_size = -8192;
      PRAGMA temp_store = MEMORY;
    `);
    const checkpointPages = Math.trunc(options.checkpointPages ?? DEFAULT_CHECKPOINT_PAGES);
    this.checkpointer =
      this.workers === undefined
        ? undefined
        : new SqliteCheckpointer(path, checkpointPages, this.workers, {
            betweenWrites: (copy) => this.writeLock.run(copy),
            onFailure: () => this.writer.db.exec(`PRAGMA wal_autocheckpoint = ${checkpointPages}`),
          });
    // With the worker, the writer's own checkpoint stays as a backstop half as far again: it runs
    // only when the worker falls behind (a starved thread on an overloaded machine), so the WAL
    // stays bounded whatever the worker's pace.
    this.writer.db.exec(
      `PRAGMA wal_autocheckpoint = ${this.checkpointer ? Math.ceil(checkpointPages * CHECKPOINT_BACKSTOP) : checkpointPages}`,
    );
    this.reader = path === ':memory:' ? this.writer : new Connection(path, false);
    this.reader.db.exec('PRAGMA busy_timeout = 5000; PRAGMA query_only = ON; PRAGMA cache_size = -65536;');
    this.writerQueryable = new SqliteQueryable(this.writer, () => aloneInProcess(path));
    this.dataVersion = this.writer.db.prepare('PRAGMA data_version');
    this.control = {
      begin: this.writer.db.prepare('BEGIN IMMEDIATE'),
      commit: this.writer.db.prepare('COMMIT'),
      savepoint: this.writer.db.prepare('SAVEPOINT signpost_tx'),
      release: this.writer.db.prepare('RELEASE signpost_tx'),
      rollbackTo: this.writer.db.prepare('ROLLBACK TO signpost_tx'),
    };
  }

  async all<T = Row>(sql: string, params: readonly SqlValue[] = []): Promise<T[]> {
    // Reads see the last committed state on the reader connection, never queued behind writes.
    if (READ_ONLY.test(sql) && this.reader !== this.writer) {
      if (this.workers && this.readsInWorkers && !this.resting && readsOffThread())
        return this.workers.all<T>(sql, params, inWriteTransaction.getStore() === true);
      return this.reader.all<T>(sql, params);
    }
    return this.writeLock.run(async () => {
      if (changesMemoisedData(sql)) this.memoisedCommits++;
      this.checkpointer?.noteCommit();
      return this.writer.all<T>(sql, params);
    });
  }

  /**
   * Changes whenever something a memo may read is committed, by this process or another one.
   * `PRAGMA data_version` on the writer moves with every commit of any other connection (another
   * process, the CLI, a tool) and never with the writer's own; those are counted here instead,
   * at once and only when they may have changed memoised data (memoised-writes.ts). So an error
   * report, a log batch or a quota flush leaves every memo warm, as on PostgreSQL, while any
   * other process's commit empties them all (which tables it wrote cannot be known here).
   *
   * `data_version` is read once per event-loop turn, not per call: each read is a WAL read
   * transaction, which takes and drops an fcntl lock on the -shm file, and on the hot read paths
   * those two system calls cost more than the rest of the request. So a commit by another process
   * is seen from the next turn on (well under a millisecond while requests are waiting, as each
   * turn's requests were received before it began); this process's own commits are seen at once.
   */
  changeMarker(): number {
    if (this.turnDataVersion === undefined) {
      // all(), not get(): every statement on the writer is stepped to its end (see Connection).
      this.turnDataVersion = (this.dataVersion.all()[0] as { data_version: number }).data_version;
      setImmediate(this.forgetDataVersion);
    }
    return this.turnDataVersion * 1_000_000 + (this.memoisedCommits % 1_000_000);
  }

  private turnDataVersion: number | undefined;
  private readonly forgetDataVersion = () => {
    this.turnDataVersion = undefined;
  };

  async get<T = Row>(sql: string, params: readonly SqlValue[] = []): Promise<T | undefined> {
    return (await this.all<T>(sql, params))[0];
  }

  async run(sql: string, params: readonly SqlValue[] = []): Promise<RunResult> {
    return this.writeLock.run(async () => {
      if (changesMemoisedData(sql)) this.memoisedCommits++;
      this.checkpointer?.noteCommit();
      return this.writer.run(sql, params);
    });
  }

  /**
   * Group commit: transactions that arrive while others wait are run one after another inside
   * one BEGIN IMMEDIATE … COMMIT, each in its own savepoint (a failure rolls back only its own
   * work). Every caller is answered after the shared COMMIT, so an acknowledged write is
   * committed; under load one WAL append serves many requests.
   *
   * One caller never fails the others: when the shared transaction is lost (a statement that
   * rolls back the whole transaction, such as a trigger's RAISE(ROLLBACK), or a failed COMMIT),
   * every caller not yet answered runs again in a transaction of its own, so only the ones
   * whose own work fails are refused.
   */
  // Every commit here is what PostgreSQL calls relaxed (WAL with synchronous=NORMAL): the options change nothing.
  async transaction<T>(fn: (tx: Queryable) => Promise<T>, _options?: TransactionOptions): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ fn, resolve, reject } as PendingTransaction);
      if (this.pending.length === 1) setImmediate(() => void this.commitPending());
    });
  }

  private async commitPending(): Promise<void> {
    await this.writeLock.run(async () => {
      while (this.pending.length > 0) {
        const batch = this.pending.splice(0, MAX_GROUP);
        const unanswered = batch.length === 1 ? batch : await this.commitGroup(batch);
        for (const item of unanswered) await this.commitAlone(item);
      }
      this.checkpointer?.noteCommit();
    });
  }

  /**
   * Runs the batch in one transaction; answers the callers it can and returns the ones to run
   * again alone (all that had not failed on their own, when the transaction was lost).
   */
  private async commitGroup(batch: PendingTransaction[]): Promise<PendingTransaction[]> {
    const succeeded: Array<{ item: PendingTransaction; value: unknown }> = [];
    const failed: Array<{ item: PendingTransaction; error: unknown }> = [];
    try {
      this.control.begin.run();
      this.writerQueryable.begin();
    } catch (error) {
      // No write lock (another process held it past the busy timeout), nothing ran: each caller
      // alone would only wait that long again, so all of them hear it now.
      for (const item of batch) item.reject(classifyDatabaseError(error));
      return [];
    }
    try {
      for (const item of batch) {
        this.control.savepoint.run();
        try {
          const value = await inWriteTransaction.run(true, () => item.fn(this.writerQueryable));
          this.control.release.run();
          succeeded.push({ item, value });
        } catch (error) {
          // A statement that rolled back the whole transaction leaves no savepoint to return to.
          if (!this.writer.db.isTransaction) throw error;
          this.control.rollbackTo.run();
          this.control.release.run();
          failed.push({ item, error });
        }
      }
      this.control.commit.run();
      if (this.writerQueryable.changedMemoised) this.memoisedCommits++;
    } catch {
      // COMMIT failed, or the transaction was rolled back under a caller: nothing of the batch
      // is stored. Those that failed in their own savepoint keep their answer.
      if (this.writer.db.isTransaction) this.writer.db.exec('ROLLBACK');
      const refused = new Set(failed.map(({ item }) => item));
      for (const { item, error } of failed) item.reject(classifyDatabaseError(error));
      return batch.filter((item) => !refused.has(item));
    }
    for (const { item, value } of succeeded) item.resolve(value);
    for (const { item, error } of failed) item.reject(classifyDatabaseError(error));
    return [];
  }

  /** One caller in its own BEGIN IMMEDIATE … COMMIT. */
  private async commitAlone(item: PendingTransaction): Promise<void> {
    try {
      this.control.begin.run();
      this.writerQueryable.begin();
      const value = await inWriteTransaction.run(true, () => item.fn(this.writerQueryable));
      this.control.commit.run();
      if (this.writerQueryable.changedMemoised) this.memoisedCommits++;
      item.resolve(value);
    } catch (error) {
      if (this.writer.db.isTransaction) this.writer.db.exec('ROLLBACK');
      item.reject(classifyDatabaseError(error));
    }
  }

  async exec(sql: string): Promise<void> {
    await this.writeLock.run(async () => {
      this.memoisedCommits++;
      this.checkpointer?.noteCommit();
      this.writer.db.exec(sql);
    });
  }

  wake(): void {
    this.resting = false;
  }

  async rest(): Promise<void> {
    this.resting = true;
    // The workers are started again by the next management read (sqlite-worker-pool.ts) and the
    // next checkpoint (sqlite-checkpointer.ts), which the rest leaves nothing waiting for.
    await this.checkpointer?.rest();
    await this.workers?.releaseIdle();
    if (this.reader !== this.writer) this.reader.db.exec('PRAGMA shrink_memory');
    await this.writeLock.run(async () => this.writer.db.exec('PRAGMA shrink_memory'));
  }

  async close(): Promise<void> {
    const key = fileKey(this.path);
    const open = (openFiles.get(key) ?? 1) - 1;
    if (open > 0) openFiles.set(key, open);
    else openFiles.delete(key);
    await this.checkpointer?.stop();
    await this.workers?.close();
    await this.writeLock.run(async () => {
      if (this.reader !== this.writer) this.reader.db.close();
      this.writer.db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
      this.writer.db.close();
    });
  }
}
