/**
 * SQLite's worker threads (management and MCP reads, WAL checkpoints) run at the nice value
 * SQLITE_WORKER_NICE sets: by default 10 when the process has one CPU, where a long read can
 * only run by taking the event loop's time (the loop-delay bench: p99 19–22 ms at nice 0, 10–15
 * ms at 10), else 0. Read here from Linux's own account of each thread of this process.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { readOffThread } from '../../src/db/read-context.ts';
import { DEFAULT_WORKER_NICE, SqliteDatabase } from '../../src/db/sqlite.ts';
import { testDbKind } from '../support/database.ts';

const skip =
  testDbKind() !== 'sqlite'
    ? 'SQLite only: PostgreSQL reads need no thread'
    : !existsSync('/proc/thread-self')
      ? 'Linux only: nice values are per thread there'
      : false;

/** The nice value of every thread of this process (field 19 of /proc/self/task/<tid>/stat). */
function threadNiceValues(): number[] {
  return readdirSync('/proc/self/task').map((tid) => {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: count fields after it.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[16]);
  });
}

async function niceValuesWithAWorker(workerNice: number | undefined): Promise<number[]> {
  const dir = mkdtempSync(join(tmpdir(), 'signpost-worker-nice-'));
  const db = new SqliteDatabase(join(dir, 'db.sqlite'), workerNice === undefined ? {} : { workerNice });
  try {
    const row = await readOffThread(() => db.get<{ one: number }>('SELECT 1 AS one'));
    assert.equal(row?.one, 1);
    assert.equal(db.workerThreads.threads, 1, 'the read went to a worker thread');
    return threadNiceValues();
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("SQLite's worker threads yield to the event loop", { skip }, () => {
  it('at nice 10 the worker thread runs at 10, the event loop at its own', async () => {
    const before = threadNiceValues();
    assert.ok(!before.includes(10), `no thread at nice 10 before: ${before}`);
    const values = await niceValuesWithAWorker(10);
    assert.equal(values.filter((value) => value === 10).length, 1, `nice values: ${values}`);
    assert.equal(values[0], before[0], 'the main thread keeps its priority');
  });

  it('at 0 it keeps the process priority (the contrast)', async () => {
    const values = await niceValuesWithAWorker(0);
    assert.ok(!values.includes(10), `nice values: ${values}`);
  });

  it('by default 10 with one CPU to run on, else 0', async () => {
    const expected = availableParallelism() === 1 ? 10 : 0;
    assert.equal(DEFAULT_WORKER_NICE, expected);
    const values = await niceValuesWithAWorker(undefined);
    assert.equal(values.includes(10), expected === 10, `nice values: ${values}`);
  });
});
