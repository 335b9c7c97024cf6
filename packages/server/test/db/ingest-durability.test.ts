/**
 * Telemetry transactions (`durability: 'relaxed'`, the error writer's) commit on PostgreSQL with
 * `synchronous_commit = off`, so a burst of reports does not queue on the disk's flush; every
 * other transaction keeps the server's setting, and `INGEST_DURABILITY=full` turns the relaxing
 * off. Real PostgreSQL: the setting is read back inside each transaction. (SQLite's WAL with
 * synchronous=NORMAL already commits every transaction this way.)
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { PostgresDatabase } from '../../src/db/postgres.ts';
import { loadConfig } from '../../src/config.ts';

const setting = async (db: PostgresDatabase, options?: { durability: 'relaxed' | 'full' }) =>
  db.transaction(async (tx) => {
    await tx.run('UPDATE marks SET n = n + 1');
    return (await tx.get<{ synchronous_commit: string }>('SHOW synchronous_commit'))!.synchronous_commit;
  }, options);

describe('relaxed durability of telemetry transactions', {
  skip: process.env['SIGNPOST_TEST_DB'] !== 'postgres' && 'PostgreSQL only',
}, () => {
  let database: TestDatabase;
  let relaxing: PostgresDatabase;
  let strict: PostgresDatabase;

  before(async () => {
    database = await createTestDatabase('postgres');
    relaxing = new PostgresDatabase(database.url);
    strict = new PostgresDatabase(database.url, { ingestDurability: 'full' });
    await relaxing.exec('CREATE TABLE marks (n INTEGER NOT NULL); INSERT INTO marks VALUES (0);');
  });
  after(async () => {
    await relaxing?.close();
    await strict?.close();
    await database?.drop();
  });

  it('a relaxed transaction commits without waiting for the disk; the next one on the connection waits again', async () => {
    assert.equal(await setting(relaxing, { durability: 'relaxed' }), 'off');
    // SET LOCAL ends with its transaction: pooled connections carry nothing over.
    for (let i = 0; i < 12; i++) assert.equal(await setting(relaxing), 'on');
    assert.equal(await setting(relaxing, { durability: 'full' }), 'on');
    assert.equal((await relaxing.get<{ n: number }>('SELECT n FROM marks'))!.n, 14);
  });

  it('INGEST_DURABILITY=full keeps every commit waiting for the disk', async () => {
    assert.equal(await setting(strict, { durability: 'relaxed' }), 'on');
  });
});

describe('INGEST_DURABILITY', () => {
  it('is relaxed unless set, takes full or relaxed, and refuses anything else', () => {
    assert.equal(loadConfig({}).ingestDurability, 'relaxed');
    assert.equal(loadConfig({ INGEST_DURABILITY: 'full' }).ingestDurability, 'full');
    assert.throws(
      () => loadConfig({ INGEST_DURABILITY: 'fsync' }),
      /INGEST_DURABILITY="fsync" is invalid: full or relaxed/,
    );
  });
});
