/**
 * A SQLite connection's prepared statements are bounded by the memory they hold (issue 37): the
 * batch writes prepare one statement per row count, and an unbounded cache kept every one of them.
 * Runs on a real node:sqlite database (the cache is SQLite's alone, so it runs on either test
 * database setting).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DatabaseSync } from 'node:sqlite';
import { StatementCache, statementBytes } from '../../src/db/statement-cache.ts';

const batchInsert = (rows: number) =>
  `INSERT INTO t (a, b) VALUES ${Array.from({ length: rows }, () => '(?, ?)').join(', ')} ON CONFLICT (a) DO UPDATE SET n = n + 1`;

function database(): DatabaseSync {
  const db = new DatabaseSync(':memory:');
  db.exec('CREATE TABLE t (a TEXT PRIMARY KEY, b TEXT, n INTEGER NOT NULL DEFAULT 0)');
  return db;
}

describe('StatementCache', () => {
  it('keeps no more than its bound, however many batch sizes are written', () => {
    const db = database();
    const bound = 64 * 1024;
    const cache = new StatementCache(db, bound);
    for (let rows = 1; rows <= 200; rows++) {
      const params = Array.from({ length: rows }, (_, i) => [`k${i}`, `v${rows}`]).flat();
      cache.prepare(batchInsert(rows)).run(...params);
      assert.ok(cache.size.bytes <= bound, `${cache.size.bytes} bytes kept after ${rows} sizes`);
    }
    assert.ok(cache.size.statements > 0 && cache.size.statements < 200, `${cache.size.statements} kept`);
    // Every statement ran, the dropped ones included: 200 upserts of k0, 199 of k1, …
    const row = db.prepare('SELECT n FROM t WHERE a = ?').get('k0') as { n: number };
    assert.equal(row.n, 199);
  });

  it('gives the same statement back while it is kept, and a working one after it was dropped', () => {
    const db = database();
    const cache = new StatementCache(db, statementBytes(batchInsert(1)) * 3);
    const first = cache.prepare(batchInsert(1));
    assert.equal(cache.prepare(batchInsert(1)), first);
    for (let rows = 2; rows <= 20; rows++) cache.prepare(batchInsert(rows));
    const again = cache.prepare('SELECT count(*) AS c FROM t');
    assert.deepEqual({ ...again.get() }, { c: 0 });
    cache.prepare(batchInsert(1)).run('x', 'y');
    assert.deepEqual(
      cache
        .prepare('SELECT a, b FROM t')
        .all()
        .map((row) => ({ ...row })),
      [{ a: 'x', b: 'y' }],
    );
  });

  it('keeps a statement in use while statements used once pass through', () => {
    const db = database();
    const hot = 'SELECT n FROM t WHERE a = ?';
    const cache = new StatementCache(db, statementBytes(batchInsert(10)) * 4);
    const kept = cache.prepare(hot);
    for (let rows = 1; rows <= 50; rows++) {
      cache.prepare(batchInsert(rows));
      assert.equal(cache.prepare(hot), kept, `the hot statement was dropped after ${rows} sizes`);
    }
  });

  it('runs a statement larger than the whole bound without keeping it', () => {
    const db = database();
    const cache = new StatementCache(db, 1024);
    cache.prepare(batchInsert(3)).run('a', '1', 'b', '2', 'c', '3');
    assert.deepEqual(cache.size, { statements: 0, bytes: 0 });
    assert.deepEqual({ ...cache.prepare('SELECT count(*) AS c FROM t').get() }, { c: 3 });
  });
});
