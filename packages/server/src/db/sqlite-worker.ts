/**
 * A worker thread beside the event loop for SQLite's slow work (see sqlite-worker-pool.ts): the
 * management API's reads on a read-only connection, and the WAL's checkpoints on a second,
 * writable one (sqlite-checkpointer.ts). WAL lets the reads see the last committed state while
 * the server's writer writes. One thread does both because each thread is a V8 isolate with its
 * own heap, 11–14 MB resident however little it runs (issue 37).
 */
import { readlinkSync } from 'node:fs';
import os from 'node:os';
import { DatabaseSync } from 'node:sqlite';
import { parentPort, workerData } from 'node:worker_threads';
import { StatementCache } from './statement-cache.ts';

export type WorkerRequest =
  | { id: number; kind: 'read'; sql: string; params: unknown[] }
  /** One PASSIVE checkpoint; with `tail`, then the WAL's restart (below). */
  | { id: number; kind: 'checkpoint'; tail: boolean };

export type WorkerReply =
  | { id: number; rows: unknown[] }
  /** Frames in the WAL, and how many of them are now in the database file. */
  | { id: number; log: number; checkpointed: number }
  | { id: number; error: { message: string; code?: string; errcode?: number } };

const { path, nice } = workerData as { path: string; nice: number };
yieldToTheEventLoop(nice);
const db = new DatabaseSync(path, { readOnly: true, timeout: 5000 });
db.exec('PRAGMA query_only = ON; PRAGMA cache_size = -16384;');
const statements = new StatementCache(db);

/** The checkpoints' connection, opened with the first. */
let checkpoints: { checkpoint: ReturnType<DatabaseSync['prepare']>; restartWal: () => void } | undefined;

function openCheckpoints(): NonNullable<typeof checkpoints> {
  const writable = new DatabaseSync(path, { timeout: 5000 });
  writable.exec('PRAGMA cache_size = -2048;');
  const userVersion = writable.prepare('PRAGMA user_version');
  return {
    // PASSIVE never waits for the writer or the readers: it copies what it can.
    checkpoint: writable.prepare('PRAGMA wal_checkpoint(PASSIVE)'),
    /**
     * With every frame copied back and the writer held (the tail), one write here starts the WAL
     * again from its beginning: the first commit after a restart writes the WAL's header and
     * fsyncs it (SQLite's guard against out-of-order writes, https://sqlite.org/src/info/ff5be73dee),
     * and that fsync, 5–40 ms on a virtual machine's disk, then falls to this thread, not to the
     * writer's next commit on the event loop. The write sets user_version to what it is (no data
     * changes; the server does not use it), which dirties only the header page. If a reader still
     * needs the old frames, nothing restarts and the writer appends as before.
     */
    restartWal: () => {
      const { user_version: version } = userVersion.get() as { user_version: number };
      writable.exec(`PRAGMA user_version = ${Number(version)}`);
    },
  };
}

function checkpoint(tail: boolean): { log: number; checkpointed: number } {
  checkpoints ??= openCheckpoints();
  const row = checkpoints.checkpoint.all()[0] as { busy: number; log: number; checkpointed: number };
  if (tail && row.busy === 0 && row.log > 0 && row.checkpointed === row.log) checkpoints.restartWal();
  return { log: row.log, checkpointed: row.checkpointed };
}

parentPort!.on('message', (request: WorkerRequest) => {
  const { id } = request;
  let reply: WorkerReply;
  try {
    reply =
      request.kind === 'read'
        ? { id, rows: statements.prepare(request.sql).all(...(request.params as never[])) }
        : { id, ...checkpoint(request.tail) };
  } catch (error) {
    const failure = error as { message: string; code?: string; errcode?: number };
    reply = { id, error: { message: failure.message, code: failure.code, errcode: failure.errcode } };
  }
  parentPort!.postMessage(reply);
});

/**
 * This thread's nice value raised to `nice` (Linux keeps one per thread: setpriority with the
 * thread's id): where the server shares a core with its workers (a container of one CPU, the
 * bench's pinned soak), a long read here then waits for the event loop's turns instead of
 * stretching them, which is what moving it off the loop was for. With cores to spare, it changes
 * nothing. Elsewhere (no /proc/thread-self), the thread keeps its priority.
 */
function yieldToTheEventLoop(value: number): void {
  if (value <= 0) return;
  try {
    const threadId = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(threadId) && threadId > 0) os.setPriority(threadId, value);
  } catch {
    // Not Linux, or not allowed: the thread runs at the process's priority.
  }
}
