/**
 * One read-only SQLite connection in a worker thread (see sqlite-read-pool.ts): runs each query
 * it is sent and posts the rows back. WAL lets it read the last committed state while the
 * server's writer writes.
 */
import { DatabaseSync } from 'node:sqlite';
import { parentPort, workerData } from 'node:worker_threads';
import { StatementCache } from './statement-cache.ts';

export interface ReadRequest {
  id: number;
  sql: string;
  params: unknown[];
}
export type ReadReply =
  | { id: number; rows: unknown[] }
  | { id: number; error: { message: string; code?: string; errcode?: number } };

const db = new DatabaseSync((workerData as { path: string }).path, { readOnly: true, timeout: 5000 });
db.exec('PRAGMA query_only = ON; PRAGMA cache_size = -16384;');
const statements = new StatementCache(db);

parentPort!.on('message', ({ id, sql, params }: ReadRequest) => {
  let reply: ReadReply;
  try {
    reply = { id, rows: statements.prepare(sql).all(...(params as never[])) };
  } catch (error) {
    const failure = error as { message: string; code?: string; errcode?: number };
    reply = { id, error: { message: failure.message, code: failure.code, errcode: failure.errcode } };
  }
  parentPort!.postMessage(reply);
});
