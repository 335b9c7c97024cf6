/**
 * Read-only SQLite connections in worker threads, for the reads `readOffThread` marks (the
 * management API's): a long query there occupies a worker, not the event loop that answers the
 * public API. Started on first use (a server nobody manages never pays for them) and ended when
 * the server rests (http/at-rest.ts); a worker that dies fails its queries in flight and is
 * replaced by the next query.
 */
import { extname } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { SqlValue } from './database.ts';
import type { ReadReply, ReadRequest } from './sqlite-read-worker.ts';

interface Pending {
  resolve: (rows: unknown[]) => void;
  reject: (error: Error) => void;
}

class ReadWorker {
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  dead = false;

  constructor(path: string) {
    // `.ts` in the source tree, `.js` in the built server (dist/).
    this.worker = new Worker(new URL(`./sqlite-read-worker${extname(import.meta.url)}`, import.meta.url), {
      workerData: { path },
    });
    // An idle worker must not keep a finished process alive; a busy one must, as someone awaits it.
    this.worker.unref();
    this.worker.on('message', (reply: ReadReply) => {
      const waiting = this.pending.get(reply.id);
      if (!waiting) return;
      this.pending.delete(reply.id);
      if (this.pending.size === 0) this.worker.unref();
      if ('rows' in reply) waiting.resolve(reply.rows);
      else waiting.reject(Object.assign(new Error(reply.error.message), reply.error));
    });
    const fail = (error: Error) => {
      this.dead = true;
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
    };
    this.worker.on('error', fail);
    this.worker.on('exit', (code) => fail(new Error(`SQLite read worker exited (${code})`)));
  }

  get load(): number {
    return this.pending.size;
  }

  all(sql: string, params: readonly SqlValue[]): Promise<unknown[]> {
    const id = this.nextId++;
    const request: ReadRequest = { id, sql, params: [...params] };
    return new Promise((resolve, reject) => {
      if (this.pending.size === 0) this.worker.ref();
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage(request);
    });
  }

  terminate(): Promise<number> {
    this.dead = true;
    return this.worker.terminate();
  }
}

export class SqliteReadPool {
  private readonly path: string;
  private readonly size: number;
  private readonly workers: ReadWorker[] = [];

  constructor(path: string, size: number) {
    this.path = path;
    this.size = size;
  }

  /** The rows of a read, from the least busy worker (a new one while there are fewer than `size`). */
  all<T>(sql: string, params: readonly SqlValue[]): Promise<T[]> {
    for (let i = this.workers.length - 1; i >= 0; i--) if (this.workers[i]!.dead) this.workers.splice(i, 1);
    let worker = this.workers.reduce<ReadWorker | undefined>(
      (best, candidate) => (best === undefined || candidate.load < best.load ? candidate : best),
      undefined,
    );
    if (!worker || (worker.load > 0 && this.workers.length < this.size)) {
      worker = new ReadWorker(this.path);
      this.workers.push(worker);
    }
    return worker.all(sql, params) as Promise<T[]>;
  }

  /** Ends the workers with no query in flight (each holds a thread, a V8 heap and a page cache). */
  async releaseIdle(): Promise<void> {
    const idle = this.workers.filter((worker) => worker.load === 0);
    for (const worker of idle) this.workers.splice(this.workers.indexOf(worker), 1);
    await Promise.all(idle.map((worker) => worker.terminate()));
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.splice(0).map((worker) => worker.terminate()));
  }
}
