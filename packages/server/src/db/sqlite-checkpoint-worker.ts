/**
 * The WAL checkpoint of a SQLite database file, in a worker thread (see sqlite-checkpointer.ts):
 * each message runs one PASSIVE checkpoint on this thread's own connection and posts back what
 * SQLite reports. PASSIVE never waits for the writer or the readers: it copies what it can.
 */
import { DatabaseSync } from 'node:sqlite';
import { parentPort, workerData } from 'node:worker_threads';

export interface CheckpointReply {
  /** Frames in the WAL, and how many of them are now in the database file. */
  log: number;
  checkpointed: number;
  error?: string;
}

const db = new DatabaseSync((workerData as { path: string }).path, { timeout: 5000 });
db.exec('PRAGMA cache_size = -2048;');
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
const userVersion = db.prepare('PRAGMA user_version');

/**
 * With every frame copied back and the writer held (the tail), one write here starts the WAL
 * again from its beginning: the first commit after a restart writes the WAL's header and fsyncs
 * it (SQLite's guard against out-of-order writes, https://sqlite.org/src/info/ff5be73dee), and that
 * fsync, 5–40 ms on a virtual machine's disk, then falls to this thread, not to the writer's
 * next commit on the event loop. The write sets user_version to what it is (no data changes; the
 * server does not use it), which dirties only the header page. If a reader still needs the old
 * frames, nothing restarts and the writer appends as before.
 */
function restartWal(): void {
  const { user_version: version } = userVersion.get() as { user_version: number };
  db.exec(`PRAGMA user_version = ${Number(version)}`);
}

parentPort!.on('message', (message: { tail: boolean }) => {
  let reply: CheckpointReply;
  try {
    const row = checkpoint.all()[0] as { busy: number; log: number; checkpointed: number };
    if (message.tail && row.busy === 0 && row.log > 0 && row.checkpointed === row.log) restartWal();
    reply = { log: row.log, checkpointed: row.checkpointed };
  } catch (error) {
    reply = { log: -1, checkpointed: -1, error: (error as Error).message };
  }
  parentPort!.postMessage(reply);
});
