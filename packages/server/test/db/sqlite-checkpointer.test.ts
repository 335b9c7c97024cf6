/**
 * WAL checkpoints run in a worker thread, not in the writer's COMMIT on the event loop (issue 37:
 * a 40 MB checkpoint stalled every request for 50–60 ms once a second under new error groups).
 * Written between the worker's threshold and the writer's backstop, the WAL is copied back and
 * started again from its beginning without the writer ever checkpointing by itself. The worker is
 * the management reads' (one isolate less): a long read there holds no write, and a transaction
 * that reads through it while a checkpoint waits for the writer does not lock the two together.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readOffThread } from '../../src/db/read-context.ts';
import { CHECKPOINT_BACKSTOP, SqliteDatabase } from '../../src/db/sqlite.ts';
import { readWalIndex } from '../../src/db/sqlite-checkpointer.ts';
import { testDbKind } from '../support/database.ts';

const skip = testDbKind() === 'sqlite' ? false : 'SQLite only: PostgreSQL checkpoints by itself';
const PAGES = 200;
// Counts to 8 million in one statement: a few seconds of one SQLite query.
const LONG_READ = `WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 8000000)
  SELECT COUNT(*) AS n FROM c`;

/** mxFrame and nBackfill, read as the checkpointer reads them (never closing the -shm file's descriptor). */
function walIndex(path: string): { frames: number; backfilled: number } {
  const index = readWalIndex(path);
  assert.ok(index, 'the wal-index header is readable');
  return index;
}

describe('SQLite checkpoints off the event loop', { skip }, () => {
  let dir: string;
  let db: SqliteDatabase;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'signpost-checkpoint-'));
    db = new SqliteDatabase(join(dir, 'db.sqlite'), { checkpointPages: PAGES });
    await db.exec('CREATE TABLE filler (body TEXT)');
  });
  after(async () => {
    await db?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("leaves the writer only a backstop, far past the worker's threshold", async () => {
    const [row] = await db.all<{ wal_autocheckpoint: number }>('PRAGMA wal_autocheckpoint');
    assert.equal(row!.wal_autocheckpoint, PAGES * CHECKPOINT_BACKSTOP);
  });

  it('copies the WAL back and starts it again, with the writer below its own threshold', async () => {
    const path = join(dir, 'db.sqlite');
    // About 1.2 × PAGES frames: past the worker's threshold, short of the writer's.
    while (walIndex(path).frames < PAGES * 1.2)
      await db.transaction(async (tx) => void (await tx.run('INSERT INTO filler VALUES (?)', ['x'.repeat(3000)])));
    const written = walIndex(path).frames;
    assert.ok(written >= PAGES && written < PAGES * CHECKPOINT_BACKSTOP, `frames written: ${written}`);
    // The worker looks every 250 ms; then the writer copies the tail and the next write restarts the WAL.
    const deadline = Date.now() + 20_000;
    let index = walIndex(path);
    while (Date.now() < deadline && index.frames >= written) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      await db.transaction(async (tx) => void (await tx.run('INSERT INTO filler VALUES (?)', ['y'])));
      index = walIndex(path);
    }
    assert.ok(index.frames < written, `the WAL was not started again: ${JSON.stringify(index)}, ${written} before`);
  });

  /** Writes with `write` until the WAL holds about 1.2 × PAGES frames, past the worker's threshold; the frames. */
  async function pastThreshold(path: string, write: () => Promise<void>): Promise<number> {
    while (walIndex(path).frames < PAGES * 1.2) await write();
    return walIndex(path).frames;
  }

  it('holds no write while a long read runs in the same worker, even one sent while a checkpoint waits for the writer', async () => {
    const path = join(dir, 'db.sqlite');
    const insert = (text: string) =>
      db.transaction(async (tx) => void (await tx.run('INSERT INTO filler VALUES (?)', [text])));
    // The read is sent from outside the transaction below (a promise reaction registered here
    // runs in this context, not the transaction's), when it is let go from inside it.
    const send = Promise.withResolvers<void>();
    const read = send.promise.then(() => readOffThread(() => db.get<{ n: number }>(LONG_READ)));
    let readDone = false;
    void read.finally(() => (readDone = true));
    await pastThreshold(path, () => insert('z'.repeat(3000)));
    // Hold the writer until the worker has copied the bulk (every frame back, the WAL not yet
    // started again): its tail now waits for this transaction. Then the long read is sent.
    let caught = false;
    await db.transaction(async (tx) => {
      await tx.run('INSERT INTO filler VALUES (?)', ['t']);
      const deadline = Date.now() + 15_000;
      while (Date.now() < deadline && !caught) {
        const index = walIndex(path);
        caught = index.frames >= PAGES && index.backfilled >= index.frames;
        if (!caught) await new Promise((resolve) => setTimeout(resolve, 10));
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
      send.resolve();
      await new Promise((resolve) => setTimeout(resolve, 100));
    });
    assert.ok(caught, 'a checkpoint came due while the writer was held');
    // Writes go on while the read runs: none waits behind it (it waited for the tail instead).
    // Were the tail queued behind the read, the writer would be held until the read ended.
    let committedDuringRead = 0;
    while (!readDone) {
      await insert('w'.repeat(300));
      if (!readDone) committedDuringRead++;
    }
    assert.ok(committedDuringRead >= 5, `${committedDuringRead} writes committed while the long read ran`);
    assert.equal((await read)?.n, 8_000_000);
  });

  it("answers a transaction's own read in the worker while a checkpoint waits for the writer", async () => {
    const path = join(dir, 'db.sqlite');
    // Every transaction reads through the worker while it holds the writer; checkpoints come due.
    const written = await readOffThread(() =>
      pastThreshold(path, () =>
        db.transaction(async (tx) => {
          await tx.run('INSERT INTO filler VALUES (?)', ['v'.repeat(3000)]);
          const [row] = await db.all<{ n: number }>('SELECT COUNT(*) AS n FROM filler');
          assert.ok(row!.n >= 0);
        }),
      ),
    );
    // And on until the WAL starts again (a tail ran), each transaction still reading.
    const deadline = Date.now() + 20_000;
    let index = walIndex(path);
    while (Date.now() < deadline && index.frames >= written) {
      await readOffThread(() =>
        db.transaction(async (tx) => {
          await tx.run('INSERT INTO filler VALUES (?)', ['u']);
          await db.all('SELECT COUNT(*) AS n FROM filler');
        }),
      );
      await new Promise((resolve) => setTimeout(resolve, 20));
      index = walIndex(path);
    }
    assert.ok(index.frames < written, `the WAL was not started again: ${JSON.stringify(index)}, ${written} before`);
  });

  it('ends the worker when the server rests, once the checkpoint under way has ended', async () => {
    const path = join(dir, 'db.sqlite');
    // A read occupies the worker, so that the checkpoint that comes due waits behind it.
    const read = readOffThread(() => db.get<{ n: number }>(LONG_READ));
    await pastThreshold(path, () =>
      db.transaction(async (tx) => void (await tx.run('INSERT INTO filler VALUES (?)', ['r'.repeat(3000)]))),
    );
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline && db.workerThreads.inFlight < 2)
      await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(db.workerThreads.inFlight, 2, 'the read and a checkpoint in the worker');
    await db.rest();
    assert.equal((await read)?.n, 8_000_000);
    assert.deepEqual(db.workerThreads, { threads: 0, inFlight: 0 }, 'no worker left running at rest');
  });

  it('copies back at rest what the WAL holds, so that a commit after the rest starts no worker', async () => {
    const path = join(dir, 'db.sqlite');
    // Past the threshold and rested at once, before the checkpointer's next look (every 250 ms):
    // as the rest's own sweep of log keys leaves the WAL.
    await pastThreshold(path, () =>
      db.transaction(async (tx) => void (await tx.run('INSERT INTO filler VALUES (?)', ['s'.repeat(3000)]))),
    );
    await db.rest();
    const index = walIndex(path);
    assert.equal(index.frames - index.backfilled, 0, `frames left in the WAL at rest: ${JSON.stringify(index)}`);
    assert.deepEqual(db.workerThreads, { threads: 0, inFlight: 0 }, 'no worker left running at rest');
    // A background job's commit after the rest: the checkpointer looks again and finds nothing due.
    await db.transaction(async (tx) => void (await tx.run('INSERT INTO filler VALUES (?)', ['after the rest'])));
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    assert.deepEqual(db.workerThreads, { threads: 0, inFlight: 0 }, 'a worker started after the rest');
  });
});

describe('SQLite read workers with nothing to do', { skip }, () => {
  it('end after the idle time, and the next read starts one again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'signpost-worker-idle-'));
    const db = new SqliteDatabase(join(dir, 'db.sqlite'), { workerIdleMs: 300 });
    try {
      await db.exec('CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1)');
      const read = () => readOffThread(() => db.get<{ x: number }>('SELECT x FROM t'));
      assert.equal((await read())?.x, 1);
      assert.equal(db.workerThreads.threads, 1, 'the read ran in a worker');
      // Read again before the idle time is up: the same worker, kept.
      await new Promise((resolve) => setTimeout(resolve, 150));
      assert.equal((await read())?.x, 1);
      assert.equal(db.workerThreads.threads, 1);
      const deadline = Date.now() + 10_000;
      while (Date.now() < deadline && db.workerThreads.threads > 0)
        await new Promise((resolve) => setTimeout(resolve, 50));
      assert.deepEqual(db.workerThreads, { threads: 0, inFlight: 0 }, 'the idle worker still runs');
      assert.equal((await read())?.x, 1);
      assert.equal(db.workerThreads.threads, 1);
    } finally {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
