/**
 * SQLite's slow work in worker threads (sqlite-worker.ts), off the event loop that answers the
 * public API: the reads `readOffThread` marks (the management API's), so a long query occupies a
 * worker, and the WAL checkpoints (sqlite-checkpointer.ts), which always go to the first worker.
 * Up to `readers` workers (at least the checkpoints' one), started on first use (a server nobody
 * manages and nothing writes to never pays for them) and ended when the server rests
 * (http/at-rest.ts); a worker that dies fails what it had in flight and is replaced by the next
 * request.
 */
import { extname } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { SqlValue } from './database.ts';
import type { WorkerReply, WorkerRequest } from './sqlite-worker.ts';

/**
 * A worker with nothing in flight for this long ends, as the server's rest ends its workers
 * (`MEMORY_REST_SECONDS`, default 30): one started while the server rests (a checkpoint after a
 * background job's writes) would otherwise keep its thread, isolate and page caches, 50–60 MB,
 * until the next rest, which only a request can bring.
 */
export const WORKER_IDLE_MS = 30_000;

/** What a worker that ended (died, or was ended) answers to what it had not done. */
export class WorkerEndedError extends Error {}

interface Pending {
  resolve: (reply: WorkerReply) => void;
  reject: (error: Error) => void;
}

/** A request as its sender writes it: each kind without the id the worker gives it. */
type Unsent<R> = R extends unknown ? Omit<R, 'id'> : never;

class SqliteWorker {
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  /** Resolved, and forgotten, when nothing is in flight any more (`drained`). */
  private idle: PromiseWithResolvers<void> | undefined;
  /** Ends this worker once it has had nothing to do for `idleMs` (set while nothing is in flight). */
  private idleTimer: NodeJS.Timeout | undefined;
  private readonly idleMs: number;
  private readonly onIdle: (worker: SqliteWorker) => void;
  dead = false;

  constructor(path: string, nice: number, idleMs: number, onIdle: (worker: SqliteWorker) => void) {
    this.idleMs = idleMs;
    this.onIdle = onIdle;
    // `.ts` in the source tree, `.js` in the built server (dist/).
    this.worker = new Worker(new URL(`./sqlite-worker${extname(import.meta.url)}`, import.meta.url), {
      workerData: { path, nice },
    });
    // An idle worker must not keep a finished process alive; a busy one must, as someone awaits it.
    this.worker.unref();
    this.worker.on('message', (reply: WorkerReply) => {
      const waiting = this.pending.get(reply.id);
      if (!waiting) return;
      this.pending.delete(reply.id);
      if (this.pending.size === 0) this.settle();
      if ('error' in reply) waiting.reject(Object.assign(new Error(reply.error.message), reply.error));
      else waiting.resolve(reply);
    });
    const fail = (error: Error) => {
      this.dead = true;
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
      this.settle();
    };
    this.worker.on('error', (error) => fail(new WorkerEndedError(`SQLite worker failed: ${error.message}`)));
    this.worker.on('exit', (code) => fail(new WorkerEndedError(`SQLite worker exited (${code})`)));
  }

  get load(): number {
    return this.pending.size;
  }

  send(request: Unsent<WorkerRequest>): Promise<WorkerReply> {
    if (this.dead) return Promise.reject(new WorkerEndedError('SQLite worker ended'));
    const id = this.nextId++;
    clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    return new Promise((resolve, reject) => {
      if (this.pending.size === 0) this.worker.ref();
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ ...request, id } as WorkerRequest);
    });
  }

  /** Resolves once nothing is in flight (at once if nothing is). */
  async drained(): Promise<void> {
    if (this.pending.size === 0) return;
    this.idle ??= Promise.withResolvers<void>();
    await this.idle.promise;
  }

  private settle(): void {
    this.worker.unref();
    this.idle?.resolve();
    this.idle = undefined;
    if (this.dead || this.idleMs <= 0) return;
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      if (this.pending.size === 0 && !this.dead) this.onIdle(this);
    }, this.idleMs);
    this.idleTimer.unref();
  }

  terminate(): Promise<number> {
    this.dead = true;
    clearTimeout(this.idleTimer);
    return this.worker.terminate();
  }
}

export class SqliteWorkerPool {
  private readonly path: string;
  private readonly readers: number;
  /** The workers' nice value (sqlite-worker.ts, `yieldToTheEventLoop`). */
  private readonly nice: number;
  private readonly workers: SqliteWorker[] = [];
  /** Closed while a checkpoint's tail holds the writer: reads wait here, not behind the tail. */
  private gate: PromiseWithResolvers<void> | undefined;

  /** How long a worker with nothing to do lives on (`WORKER_IDLE_MS`; 0: until the rest). */
  private readonly idleMs: number;

  /** `readers`: how many workers reads may spread over (0: reads are not sent here). */
  constructor(path: string, readers: number, nice: number, idleMs: number = WORKER_IDLE_MS) {
    this.path = path;
    this.readers = Math.max(1, readers);
    this.nice = nice;
    this.idleMs = idleMs;
  }

  private startWorker(): SqliteWorker {
    const worker = new SqliteWorker(this.path, this.nice, this.idleMs, (idle) => {
      // A checkpoint's tail waits for the writer with this worker drained: it must find it running
      // (it arms the timer again when it is done).
      if (this.gate) return;
      const index = this.workers.indexOf(idle);
      if (index >= 0) this.workers.splice(index, 1);
      void idle.terminate();
    });
    this.workers.push(worker);
    return worker;
  }

  /**
   * The rows of a read, from the least busy worker (a new one while there are fewer than
   * `readers`). `duringWrite`: the caller holds the writer (a read inside a transaction's work),
   * so it must not wait for a checkpoint's tail, which waits for the writer.
   */
  async all<T>(sql: string, params: readonly SqlValue[], duringWrite = false): Promise<T[]> {
    while (this.gate && !duringWrite) await this.gate.promise;
    this.forgetDead();
    let worker = this.workers.reduce<SqliteWorker | undefined>(
      (best, candidate) => (best === undefined || candidate.load < best.load ? candidate : best),
      undefined,
    );
    if (!worker || (worker.load > 0 && this.workers.length < this.readers)) worker = this.startWorker();
    const reply = await worker.send({ kind: 'read', sql, params: [...params] });
    return (reply as { rows: T[] }).rows;
  }

  /**
   * One PASSIVE checkpoint on the first worker's writable connection. Rejects with SQLite's error,
   * or with `WorkerEndedError` if that worker ends first.
   */
  async checkpoint(): Promise<void> {
    await this.checkpointWorker().send({ kind: 'checkpoint', tail: false });
  }

  /**
   * The checkpoint's tail, run by `hold` (which holds the writer around it) and followed by the
   * WAL's restart (sqlite-worker.ts). The writer must not wait behind a read in that worker, so
   * new reads wait until the tail is done and the ones in flight there are answered before `hold`
   * is called: reads wait for the tail, never the writer for a read. (A read from within a
   * transaction does not wait, or the tail would wait for its transaction and it for the tail;
   * it is answered before the tail begins, as the tail begins only once that transaction ended.)
   */
  async checkpointTail(hold: (copy: () => Promise<void>) => Promise<void>): Promise<void> {
    const gate = Promise.withResolvers<void>();
    this.gate = gate;
    try {
      const worker = this.checkpointWorker();
      await worker.drained();
      await hold(async () => void (await worker.send({ kind: 'checkpoint', tail: true })));
    } finally {
      this.gate = undefined;
      gate.resolve();
    }
  }

  private checkpointWorker(): SqliteWorker {
    this.forgetDead();
    return this.workers[0] ?? this.startWorker();
  }

  private forgetDead(): void {
    for (let i = this.workers.length - 1; i >= 0; i--) if (this.workers[i]!.dead) this.workers.splice(i, 1);
  }

  /** The workers running, and the reads and checkpoints they have in flight (read by tests). */
  get running(): { threads: number; inFlight: number } {
    this.forgetDead();
    return { threads: this.workers.length, inFlight: this.workers.reduce((sum, worker) => sum + worker.load, 0) };
  }

  /** Ends the workers with nothing in flight (each holds a thread, a V8 heap and page caches). */
  async releaseIdle(): Promise<void> {
    const idle = this.workers.filter((worker) => worker.load === 0);
    for (const worker of idle) this.workers.splice(this.workers.indexOf(worker), 1);
    await Promise.all(idle.map((worker) => worker.terminate()));
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.splice(0).map((worker) => worker.terminate()));
  }
}
