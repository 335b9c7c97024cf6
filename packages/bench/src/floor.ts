/**
 * The floor of the browser-event bench (issue 31): a bare node:http server that does the least
 * an error ingest must do with the same bytes: read the envelope, parse its header and event
 * JSON, and insert the event (its bytes as sent) into SQLite (node:sqlite, WAL, synchronous=NORMAL as the server
 * runs) in batches: requests that arrive while a batch is being written wait for the next one,
 * and each is answered once its batch has committed.
 */
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

// Its events are kept only for the run: each run writes gigabytes (30 KB an event at thousands a
// second), so the folder goes when the bench stops the floor.
const dir = mkdtempSync(join(tmpdir(), 'signpost-floor-'));
const db = new DatabaseSync(join(dir, 'floor.sqlite'));
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  });
}
db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;');
db.exec(
  'CREATE TABLE events (event_id TEXT NOT NULL, group_key TEXT NOT NULL, received_at TEXT NOT NULL, payload TEXT NOT NULL)',
);

type Row = [string, string, string, string];
let queue: { row: Row; done: () => void }[] = [];
let scheduled = false;
const statements = new Map<number, ReturnType<DatabaseSync['prepare']>>();
const insert = (n: number) => {
  let statement = statements.get(n);
  if (!statement) {
    statement = db.prepare(`INSERT INTO events VALUES ${Array.from({ length: n }, () => '(?, ?, ?, ?)').join(', ')}`);
    statements.set(n, statement);
  }
  return statement;
};

function flush(): void {
  scheduled = false;
  const batch = queue;
  queue = [];
  db.exec('BEGIN');
  for (let i = 0; i < batch.length; i += 100) {
    const chunk = batch.slice(i, i + 100);
    insert(chunk.length).run(...chunk.flatMap((entry) => entry.row));
  }
  db.exec('COMMIT');
  for (const entry of batch) entry.done();
}

const server = http.createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const lines = Buffer.concat(chunks).toString('utf8').split('\n');
    const header = JSON.parse(lines[0]!) as { event_id?: string };
    const event = JSON.parse(lines[2]!) as { exception?: { values?: { type?: string; value?: string }[] } };
    const exception = event.exception?.values?.at(-1);
    const row: Row = [
      header.event_id ?? '',
      `${exception?.type ?? ''}: ${exception?.value ?? ''}`,
      new Date().toISOString(),
      lines[2]!,
    ];
    queue.push({
      row,
      done: () => {
        const body = JSON.stringify({ id: header.event_id });
        response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
        response.end(body);
      },
    });
    if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
  });
});
server.keepAliveTimeout = 60_000;
server.listen(Number(process.env['PORT'] ?? 0), '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`listening ${typeof address === 'object' && address ? address.port : ''}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
