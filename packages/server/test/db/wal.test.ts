/**
 * SQLite's write-ahead log stays bounded under sustained writes through HTTP: automatic
 * checkpoints must keep running, and a clean shutdown resets the WAL.
 *
 * What breaks them: a write statement left unfinished on the writer connection, such as an
 * `INSERT … RETURNING` read with node:sqlite's `.get()`. When such statements are the only
 * writes (requests of a project with a plan quota on cached reads: the quota meter's flush is one
 * upsert … RETURNING on quota_usage), the WAL grows with every flush and never shrinks. Phase 2
 * below is that workload, with the meter flushing every 10 ms (QUOTA_FLUSH_INTERVAL_MS) so that it
 * writes a hundred times a second.
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
 * The server here checkpoints every 200 pages of 4 KiB (SQLITE_CHECKPOINT_PAGES; the default is
 * larger, and would only make this test write more to see the same thing).
 */
const CHECKPOINT_PAGES = 200;
/**
 * What tells a bounded WAL from an unbounded one is not a size: a checkpointed WAL holds the
 * threshold plus whatever the writer appended while the checkpoint ran (one tick of the
 * checkpointer, the copy, the tail), and a fast machine appends more in that time than a slow
 * one. With a fixed 8 MiB bound, quota upserts on a fast host reached 8.8–11.7 MiB in 3 of 4
 * runs while checkpoints ran as designed. What an unchecked WAL does is never start again from
 * its beginning, so it holds everything written. So the checks are: the WAL started again from
 * its beginning many times, never held more than a third of what went through it, and stayed
 * under a ceiling no checkpointed WAL here came near (32 MiB).
 */
const WAL_CEILING = 32 * MiB;
const MIN_RESTARTS = 3;
const IN_FLIGHT = 8;
/** A WAL frame: a 4 KiB page and its 24-byte header. */
const FRAME_BYTES = 4096 + 24;

const fileSize = (path: string) => (existsSync(path) ? statSync(path).size : 0);
const mib = (bytes: number) => `${(bytes / MiB).toFixed(1)} MiB`;

/**
 * Watches the WAL through its wal-index (the frames in use), not the file's size: the file is
 * reused from its beginning after a checkpoint and never shrinks while the server runs, so its
 * size is the largest the WAL ever was, earlier tests' included. Sampled every 10 ms: the largest
 * WAL, the frames appended (the sum of the rises; after a restart, the new WAL's frames), and the
 * restarts (the frame count falling).
 */
class WalWatcher {
  largestFrames: number;
  appendedFrames = 0;
  restarts = 0;
  private last: number;
  private readonly timer: NodeJS.Timeout;
  private readonly dbPath: string;

  /**
   * The frames an earlier phase left in the WAL, not counted until it starts again: the mixed
   * phase leaves up to 3.6 MiB, and counted as the upsert phase's own it made that phase's
   * largest WAL more than a third of the 6.3 MiB it wrote (a run of 2026-11-30).
   */
  private leftover: number;

  constructor(dbPath: string) {
    this.dbPath = dbPath;
    this.last = this.frames();
    this.leftover = this.last;
    this.largestFrames = 0;
    this.timer = setInterval(() => this.sample(), 10);
  }

  private frames(): number {
    return readWalIndex(this.dbPath)?.frames ?? 0;
  }

  private sample(): void {
    const now = this.frames();
    if (now < this.last) {
      this.restarts++;
      this.appendedFrames += now;
      this.leftover = 0;
    } else {
      this.appendedFrames += now - this.last;
    }
    this.last = now;
    this.largestFrames = Math.max(this.largestFrames, now - this.leftover);
  }

  /** Stops sampling, after one last look. */
  stop() {
    this.sample();
    clearInterval(this.timer);
    const largest = this.largestFrames * FRAME_BYTES;
    const appended = this.appendedFrames * FRAME_BYTES;
    return {
      largest,
      appended,
      restarts: this.restarts,
      summary: `largest WAL ${mib(largest)}; ${mib(appended)} through it; ${this.restarts} restarts`,
    };
  }
}

/** The checks of a bounded WAL (see WAL_CEILING). */
function assertBounded(wal: ReturnType<WalWatcher['stop']>, summary: string) {
  assert.ok(
    wal.restarts >= MIN_RESTARTS,
    `the WAL started again from its beginning only ${wal.restarts} times: ${summary}`,
  );
  assert.ok(wal.largest < wal.appended / 3, `the WAL held more than a third of what went through it: ${summary}`);
  assert.ok(wal.largest < WAL_CEILING, `the WAL grew to ${mib(wal.largest)}: ${summary}`);
}

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
  before(async () => {
    database = await createTestDatabase('sqlite');
    dbPath = join(database.dataDir, 'signpost.db');
    walPath = `${dbPath}-wal`;
    // A plan quota: the meter counts every authenticated request and flushes with an upsert … RETURNING.
    ({ key } = await migratedProject(database, 'WAL', { monthlyQuota: 100_000_000 }));
    server = await startServerProcess(database, {
      SQLITE_CHECKPOINT_PAGES: String(CHECKPOINT_PAGES),
      QUOTA_FLUSH_INTERVAL_MS: '10',
    });
  });

  after(async () => {
    if (server && server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
    await database?.drop();
  });

  it('stays bounded under thousands of mixed writes (log batches, errors, reads)', async () => {
    const watcher = new WalWatcher(dbPath);
    const sizeBefore = fileSize(dbPath) + fileSize(walPath);
    const grown = () => fileSize(dbPath) + fileSize(walPath) - sizeBefore;
    const headers = { 'content-type': 'application/json', 'x-api-key': key };
    // At least 6 s, then on until 32 MiB are written (8 × the checkpoint threshold); at most 30 s
    // (a loaded machine writes slower, and what is judged is the WAL against what went through it).
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
    const wal = watcher.stop();
    const written = grown();
    const summary = `${result.sent} requests in ${result.seconds.toFixed(1)} s; ${wal.summary}; database grew by ${mib(written)}`;
    process.stdout.write(`# mixed writes: ${summary}\n`);

    assert.equal(result.failed, 0, summary);
    assert.ok(written >= 16 * MiB, `too little written to judge: ${summary}`);
    assertBounded(wal, summary);
  });

  it('stays bounded when the only writes are upserts with RETURNING (quota counting on cached reads)', async () => {
    const first = await fetch(`${server.baseUrl}/translations?locale=en`, { headers: { 'x-api-key': key } });
    const etag = first.headers.get('etag')!;
    await first.arrayBuffer();
    const watcher = new WalWatcher(dbPath);
    // The meter's flushes are the only commits (a WAL frame or two of 4 KiB each). At least 5 s, then on
    // until 8 checkpoint thresholds of frames went through the WAL (a WAL never checkpointed
    // would hold them all); at most 60 s.
    const result = await load(
      (sent, elapsed) =>
        sent < 30_000 && elapsed < 60_000 && (elapsed < 5_000 || watcher.appendedFrames < 8 * CHECKPOINT_PAGES),
      () => fetch(`${server.baseUrl}/translations?locale=en`, { headers: { 'x-api-key': key, 'if-none-match': etag } }),
    );
    const wal = watcher.stop();
    const summary = `${result.sent} requests in ${result.seconds.toFixed(1)} s; ${wal.summary}`;
    process.stdout.write(`# quota upserts only: ${summary}\n`);

    assert.equal(result.failed, 0, summary);
    // Enough for MIN_RESTARTS checkpoints: a loaded 2-core machine (the whole test run) flushed
    // about 28 times a second on one host, 5.6 thresholds in 40 s, and on a slower one 3.5
    // thresholds in 40 s (2,818 requests, 3 restarts).
    assert.ok(
      wal.appended >= MIN_RESTARTS * CHECKPOINT_PAGES * FRAME_BYTES,
      `too little went through the WAL to judge: ${summary}`,
    );
    assertBounded(wal, summary);
  });

  it('is reset by a clean shutdown', async () => {
    const code = await server.stop('SIGTERM');
    assert.equal(code, 0, server.output().slice(-1000));
    assert.equal(fileSize(walPath), 0, 'a clean shutdown checkpoints and truncates (or removes) the WAL');
  });
});
