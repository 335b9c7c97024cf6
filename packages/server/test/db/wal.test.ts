/**
 * SQLite's write-ahead log stays bounded under sustained writes through HTTP: automatic
 * checkpoints must keep running, and a clean shutdown resets the WAL.
 *
 * What breaks them: a write statement left unfinished on the writer connection, such as an
 * `INSERT … RETURNING` read with node:sqlite's `.get()`. When such statements are the only
 * writes (every authenticated request of a project with a plan quota runs one upsert …
 * RETURNING on quota_usage), the WAL grows with every request and never shrinks. Phase 2
 * below is exactly that workload; with `.get()` there the WAL passes 8 MiB within seconds.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { readWalIndex } from '../../src/db/sqlite-checkpointer.ts';
import { createTestDatabase, testDbKind, type TestDatabase } from '../support/database.ts';
import { migratedProject } from '../support/database-project.ts';
import { startServerProcess, type ServerProcess } from '../support/server.ts';

const skip = testDbKind() === 'sqlite' ? false : 'SQLite only: PostgreSQL has no WAL file of ours to watch';

const MiB = 1024 * 1024;
/**
 * The server here checkpoints every 1000 pages of 4 KiB (SQLITE_CHECKPOINT_PAGES; the default is
 * larger, and would only make this test write more to see the same thing). A checkpointed WAL is
 * reused from its start, so it stays near the threshold plus the last transaction: twice that.
 */
const CHECKPOINT_PAGES = 1000;
const WAL_LIMIT = 8 * MiB;
/**
 * Under log batches of 100 new groups (7 MiB a second here) the WAL passes the threshold by
 * whatever arrives while the checkpoint worker copies: on a loaded 2-core machine, where that
 * thread waits for a core, it reached 13.7 MiB once in three whole runs. Four times the threshold
 * tells a bounded WAL from one never checkpointed, which holds everything written (the check
 * against half of it below).
 */
const MIXED_WAL_LIMIT = 16 * MiB;
const IN_FLIGHT = 8;
/** A WAL frame: a 4 KiB page and its 24-byte header. */
const FRAME_BYTES = 4096 + 24;

const fileSize = (path: string) => (existsSync(path) ? statSync(path).size : 0);
/**
 * What the WAL holds now, from its wal-index (the frames in use), not the file's size: the file
 * is reused from its beginning after a checkpoint and never shrinks while the server runs, so its
 * size is the largest the WAL ever was, earlier tests' included.
 */
const walBytes = (dbPath: string) => (readWalIndex(dbPath)?.frames ?? 0) * FRAME_BYTES;
const mib = (bytes: number) => `${(bytes / MiB).toFixed(1)} MiB`;

/** Runs `IN_FLIGHT` request loops until `more()` turns false; counts failures. */
async function load(
  more: (sent: number, elapsedMs: number) => boolean,
  request: (n: number, worker: number) => Promise<Response>,
) {
  const startedAt = Date.now();
  let sent = 0;
  let failed = 0;
  const worker = async (w: number) => {
    while (more(sent, Date.now() - startedAt)) {
      const res = await request(sent++, w);
      await res.arrayBuffer();
      if (res.status >= 400) failed++;
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, (_, w) => worker(w)));
  return { sent, failed, seconds: (Date.now() - startedAt) / 1000 };
}

describe('SQLite WAL under sustained writes', { skip }, () => {
  let database: TestDatabase;
  let server: ServerProcess;
  let key: string;
  let dbPath: string;
  let walPath: string;
  let maxWal = 0;
  let sampler: NodeJS.Timeout | undefined;

  before(async () => {
    database = await createTestDatabase('sqlite');
    dbPath = join(database.dataDir, 'signpost.db');
    walPath = `${dbPath}-wal`;
    // A plan quota: every authenticated request also runs the quota upsert … RETURNING.
    ({ key } = await migratedProject(database, 'WAL', { monthlyQuota: 100_000_000 }));
    server = await startServerProcess(database, { SQLITE_CHECKPOINT_PAGES: String(CHECKPOINT_PAGES) });
    sampler = setInterval(() => (maxWal = Math.max(maxWal, walBytes(dbPath))), 20);
  });

  after(async () => {
    clearInterval(sampler);
    if (server && server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
    await database?.drop();
  });

  it('stays bounded under thousands of mixed writes (log batches, errors, reads)', async () => {
    maxWal = walBytes(dbPath);
    const sizeBefore = fileSize(dbPath) + fileSize(walPath);
    const grown = () => fileSize(dbPath) + fileSize(walPath) - sizeBefore;
    const headers = { 'content-type': 'application/json', 'x-api-key': key };
    // At least 6 s, then on until 32 MiB are written (8 × the checkpoint threshold); at most 30 s
    // (a loaded machine writes slower, and what is judged is the WAL against what was written).
    const result = await load(
      (sent, elapsed) => sent < 20_000 && elapsed < 30_000 && (elapsed < 6_000 || grown() < 32 * MiB),
      (n, w) => {
        if (n % 5 === 4) return fetch(`${server.baseUrl}/features?limit=20`, { headers: { 'x-api-key': key } });
        if (n % 5 === 3) {
          return fetch(`${server.baseUrl}/errors`, {
            method: 'POST',
            headers,
            body: JSON.stringify({
              title: `Sustained error ${n}`,
              message: `A distinct error ${n} from worker ${w}, to keep the writer busy`,
              stackTrace: 'Error\n    at sustained (wal.test.ts:1:1)\n'.repeat(10),
            }),
          });
        }
        // 100 distinct lines: 100 new log groups per request.
        const logs = Array.from({ length: 100 }, (_, i) => ({
          level: 'info',
          category: 'wal',
          message: `Sustained line ${n}/${i} from worker ${w}: ${'x'.repeat(80)}`,
          data: { n, i },
        }));
        return fetch(`${server.baseUrl}/logs`, { method: 'POST', headers, body: JSON.stringify({ logs }) });
      },
    );
    maxWal = Math.max(maxWal, walBytes(dbPath));
    const written = grown();
    const summary = `${result.sent} requests in ${result.seconds.toFixed(1)} s; largest WAL ${mib(maxWal)}; database grew by ${mib(written)}`;
    process.stdout.write(`# mixed writes: ${summary}\n`);

    assert.equal(result.failed, 0, summary);
    assert.ok(written >= 16 * MiB, `too little written to judge: ${summary}`);
    assert.ok(maxWal < MIXED_WAL_LIMIT, `the WAL grew to ${mib(maxWal)}: ${summary}`);
    // Checkpoints ran: the WAL never held all that was written (with checkpoints blocked,
    // every page written since the start stays in it).
    assert.ok(maxWal < written / 2, `the WAL (${mib(maxWal)}) holds most of what was written (${mib(written)})`);
  });

  it('stays bounded when the only writes are upserts with RETURNING (quota counting on cached reads)', async () => {
    maxWal = walBytes(dbPath);
    const first = await fetch(`${server.baseUrl}/translations?locale=en`, { headers: { 'x-api-key': key } });
    const etag = first.headers.get('etag')!;
    await first.arrayBuffer();
    // Each request commits one quota upsert (a WAL frame of 4 KiB): 2000 of them would add
    // 8 MiB to a WAL that is never checkpointed.
    // At least 10 s, then on until 2,500 requests (10 MiB of frames unchecked); at most 40 s.
    const result = await load(
      (sent, elapsed) => sent < 8_000 && elapsed < 40_000 && (elapsed < 10_000 || sent < 2_500),
      () => fetch(`${server.baseUrl}/translations?locale=en`, { headers: { 'x-api-key': key, 'if-none-match': etag } }),
    );
    maxWal = Math.max(maxWal, walBytes(dbPath));
    const summary = `${result.sent} requests in ${result.seconds.toFixed(1)} s; largest WAL ${mib(maxWal)}`;
    process.stdout.write(`# quota upserts only: ${summary}\n`);

    assert.equal(result.failed, 0, summary);
    assert.ok(result.sent >= 2_000, `too few requests to judge: ${summary}`);
    assert.ok(maxWal < WAL_LIMIT, `the WAL grew to ${mib(maxWal)}: ${summary}`);
  });

  it('is reset by a clean shutdown', async () => {
    const code = await server.stop('SIGTERM');
    assert.equal(code, 0, server.output().slice(-1000));
    assert.equal(fileSize(walPath), 0, 'a clean shutdown checkpoints and truncates (or removes) the WAL');
  });
});
