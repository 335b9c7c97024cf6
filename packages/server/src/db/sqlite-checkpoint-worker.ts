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

parentPort!.on('message', () => {
  let reply: CheckpointReply;
  try {
    const row = checkpoint.all()[0] as { busy: number; log: number; checkpointed: number };
    reply = { log: row.log, checkpointed: row.checkpointed };
  } catch (error) {
    reply = { log: -1, checkpointed: -1, error: (error as Error).message };
  }
  parentPort!.postMessage(reply);
});
