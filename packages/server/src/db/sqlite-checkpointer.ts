/**
 * WAL checkpoints off the event loop (issue 37, "no request stalls the others").
 *
 * SQLite's automatic checkpoint runs inside the COMMIT that crosses `wal_autocheckpoint` pages, on
 * the connection that committed: here the writer, on the event loop. Copying 10,000 pages (about
 * 40 MB) back into the database file took 50–60 ms, once a second under new error groups, and
 * was the whole of the loop delay's p99 in `npm run loop-delay` (writes alone: p99 58–75 ms;
 * with the checkpoint moved out of the way, 13 ms at the probe's 10 ms resolution).
 *
 * So the writer checkpoints by itself only as a backstop (sqlite.ts sets its `wal_autocheckpoint`
 * at CHECKPOINT_BACKSTOP times the threshold, reached only when this worker falls far behind) and a worker thread with its own connection runs a PASSIVE checkpoint when the WAL holds
 * as many frames as the writer's threshold was: the same checkpoints as before, off the loop. (A
 * checkpoint every second instead, tried first, cost new error groups about a third of their rate:
 * pages written again and again were copied back every second rather than once per 40 MB.) How
 * full the WAL is comes from the wal-index header in the `-shm` file (its documented layout,
 * https://sqlite.org/walformat.html: `mxFrame` at byte 16, `nBackfill` at byte 96), read every
 * TICK_MS while commits arrive; where it cannot be read, a checkpoint follows each tick with
 * commits. A PASSIVE checkpoint is what the automatic one was: it copies the frames no reader still
 * needs and never blocks.
 *
 * The WAL starts again from its beginning only when a write transaction begins with every frame
 * already in the file. The writer's own checkpoint ran between its commits, so that held; the
 * worker's runs while the writer goes on appending, and under steady writes it never quite caught
 * up: the WAL grew without end (to 200 MB in seconds in test/db/wal.test.ts). So once the worker
 * has copied the bulk, it copies the tail while the writer waits between two of its transactions:
 * the frames written during the bulk, a small part of the whole. (The writer once copied the
 * tail itself, on the event loop: the copy ends with two fsyncs, of the WAL and of the database
 * file, which took 5–41 ms each on a virtual machine's disk and were the loop delay's p99 under
 * the soak on SQLite; now only writes wait for them, and reads go on.) The worker starts with the
 * first checkpoint (a server that only reads never pays for its thread) and ends when the server
 * rests. If it fails, the writer checkpoints by itself again, as before.
 */
import { closeSync, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { endianness } from 'node:os';
import { type SqliteWorkerPool, WorkerEndedError } from './sqlite-worker-pool.ts';

/** How often the WAL's fill is looked at while commits arrive. */
export const TICK_MS = 250;
/** Byte offsets in the wal-index header (native byte order). */
const MX_FRAME = 16;
const N_BACKFILL = 96;

/**
 * Per `-shm` file, the descriptor this process reads its header through, and the file's inode.
 *
 * Never closed while its file is the database's. POSIX drops every lock a process holds on a
 * file when the process closes any descriptor of that file, SQLite's lock that marks the wal-index
 * owned included; another process opening the database then (`npm run backup`, the CLI, a second
 * server process) takes the wal-index for unowned and truncates it under this process's mapping.
 * Opened and closed for each look, as this once did, the server died of SIGBUS
 * (test/db/sqlite-shm-locks.test.ts), and a wal-index started afresh under a live writer can
 * corrupt the database (https://sqlite.org/howtocorrupt.html, 2.2). Any connection of this
 * process, the checkpointer's or another's, may hold those locks, so no moment to close is safe
 * but a file SQLite has replaced (removed when its last connection closed, and made again): a
 * descriptor of the old inode holds no lock anyone needs.
 */
const shmDescriptors = new Map<string, { fd: number; inode: number }>();

function shmDescriptor(path: string): number {
  const inode = statSync(path).ino;
  const known = shmDescriptors.get(path);
  if (known?.inode === inode) return known.fd;
  const fd = openSync(path, 'r');
  if (known) closeSync(known.fd);
  shmDescriptors.set(path, { fd, inode: fstatSync(fd).ino });
  return fd;
}

const WAL_INDEX_HEADER_BYTES = N_BACKFILL + 4;

/**
 * The WAL's frames (`mxFrame`) and those already copied back (`nBackfill`) of the database at
 * `path`, from its wal-index header, read through this process's one descriptor of the `-shm`
 * file; undefined if it cannot be read. `header` is a buffer to reuse, or a new one.
 */
export function readWalIndex(
  path: string,
  header = Buffer.alloc(WAL_INDEX_HEADER_BYTES),
): { frames: number; backfilled: number } | undefined {
  try {
    const fd = shmDescriptor(`${path}-shm`);
    if (readSync(fd, header, 0, WAL_INDEX_HEADER_BYTES, 0) < WAL_INDEX_HEADER_BYTES) return undefined;
    const little = endianness() === 'LE';
    const read = (offset: number) => (little ? header.readUInt32LE(offset) : header.readUInt32BE(offset));
    return { frames: read(MX_FRAME), backfilled: read(N_BACKFILL) };
  } catch {
    return undefined;
  }
}

export class SqliteCheckpointer {
  private readonly path: string;
  /** The worker threads the checkpoints run in (the first one, beside its reads). */
  private readonly workers: SqliteWorkerPool;
  /** Called when the worker cannot run: the writer takes its checkpoints back. */
  private readonly onFailure: () => void;
  private timer: NodeJS.Timeout | undefined;
  private failed = false;
  /** Moves with every stop: a checkpoint begun before one does not count as failed by its end. */
  private generation = 0;
  /** Commits noted since the last checkpoint was asked for. */
  private dirty = false;
  /**
   * The checkpoint under way, settled (never rejected) when it ends: set until its tail is
   * copied, so that no second bulk starts meanwhile.
   */
  private current: Promise<void> | undefined;

  /** Frames in the WAL not yet in the file that start a checkpoint. */
  private readonly pages: number;
  private readonly header = Buffer.alloc(WAL_INDEX_HEADER_BYTES);

  /** Runs `copy` while the writer waits between two of its transactions (the tail, see above). */
  private readonly betweenWrites: (copy: () => Promise<void>) => Promise<void>;

  constructor(
    path: string,
    pages: number,
    workers: SqliteWorkerPool,
    hooks: { betweenWrites: (copy: () => Promise<void>) => Promise<void>; onFailure: () => void },
  ) {
    this.path = path;
    this.pages = pages;
    this.workers = workers;
    this.betweenWrites = hooks.betweenWrites;
    this.onFailure = hooks.onFailure;
  }

  /** A commit happened: the WAL's fill is looked at on the next tick. Cheap: a flag. */
  noteCommit(): void {
    this.dirty = true;
    if (this.timer || this.failed) return;
    this.timer = setInterval(() => this.tick(), TICK_MS);
    this.timer.unref();
  }

  private tick(): void {
    if (!this.dirty || this.current) return;
    const waiting = this.framesWaiting();
    if (waiting !== undefined && waiting < this.pages) return;
    this.dirty = false;
    this.start();
  }

  /** Starts a checkpoint (bulk, then tail) as `current`. */
  private start(): Promise<void> {
    const generation = this.generation;
    const current = this.checkpoint(generation)
      .catch((error: unknown) => {
        // SQLite's own refusal (a busy file, say) copies nothing and changes nothing: the next
        // tick tries again. A worker that ended by itself hands the checkpoints back.
        if (error instanceof WorkerEndedError && generation === this.generation) this.fail();
      })
      .finally(() => {
        if (generation === this.generation) this.current = undefined;
      });
    this.current = current;
    return current;
  }

  /** The bulk beside the writer, then the tail with the writer held (sqlite-worker-pool.ts). */
  private async checkpoint(generation: number): Promise<void> {
    await this.workers.checkpoint();
    // Stopped meanwhile (the server rests): the tail would start a worker the rest just ended.
    if (generation === this.generation) await this.workers.checkpointTail(this.betweenWrites);
  }

  /** Frames in the WAL not yet copied back; undefined if unreadable. */
  private framesWaiting(): number | undefined {
    const index = readWalIndex(this.path, this.header);
    return index && Math.max(0, index.frames - index.backfilled);
  }

  private fail(): void {
    this.failed = true;
    this.stopTimer();
    this.onFailure();
  }

  private stopTimer(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /**
   * Stops looking (the server rests or closes); the next commit starts again. Settles once a
   * checkpoint under way has ended (its bulk: the tail is left for the next one), so that the
   * rest finds its worker idle and ends it: a worker left running keeps its isolate and its
   * connections' page caches (the bench, a minute after its load: 180.4 MiB resident, against 131.8).
   */
  async stop(): Promise<void> {
    this.stopTimer();
    this.generation++;
    const current = this.current;
    this.current = undefined;
    await current;
  }

  /**
   * The server rests: looking stops as in `stop`, and what the WAL still holds is copied back now,
   * bulk and tail, so that nothing is left waiting. Left there, those frames (the rest's own sweep
   * of the log keys writes tens of MB) met the threshold at the first commit of a background job
   * after the rest and started the worker again, seconds after the rest had ended it: the bench
   * read 174 MiB resident a minute after its load, against 116 once the rest had ended it.
   */
  async rest(): Promise<void> {
    await this.stop();
    if (this.failed || (this.framesWaiting() ?? 1) === 0) return;
    await this.start();
  }
}
