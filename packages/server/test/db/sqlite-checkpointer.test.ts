/**
 * WAL checkpoints run in a worker thread, not in the writer's COMMIT on the event loop (issue 37:
 * a 40 MB checkpoint stalled every request for 50–60 ms once a second under new error groups).
 * Written between the worker's threshold and the writer's backstop, the WAL is copied back and
 * started again from its beginning without the writer ever checkpointing by itself.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHECKPOINT_BACKSTOP, SqliteDatabase } from '../../src/db/sqlite.ts';
import { readWalIndex } from '../../src/db/sqlite-checkpointer.ts';
import { testDbKind } from '../support/database.ts';

const skip = testDbKind() === 'sqlite' ? false : 'SQLite only: PostgreSQL checkpoints by itself';
const PAGES = 200;

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
});
