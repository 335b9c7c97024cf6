/**
 * Upgrading log_groups to integer keys (migration 202611281000): a database holding groups
 * written with the schema before it is migrated by a starting server, and entries of those groups
 * sent afterwards still count on the same rows.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ALL_PUBLIC_SCOPES, createApiKey, createProject } from '../../../src/resources/projects/index.ts';
import { groupKey } from '../../../src/resources/logs/group-key.ts';
import { logFingerprint } from '../../../src/resources/logs/store-group-writes.ts';
import { createTestDatabase, type TestDatabase } from '../../support/database.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { Api } from '../../support/api.ts';
import { migratedUpTo } from '../../support/upgrade-suite.ts';

const MIGRATION = '202611281000_log_group_keys';
/** More than one chunk of the SQLite migration's copy (1,000 rows). */
const BULK = 2500;

describe(`upgrade: log groups keyed by an integer (${MIGRATION})`, () => {
  let database: TestDatabase;
  let server: TestServer;
  let live: Api;
  let test: Api;
  const at = new Date(Date.now() - 60 * 60 * 1000).toISOString();
  const computed = { level: 'error' as const, category: 'checkout', message: 'Payment provider timed out' };

  before(async () => {
    database = await createTestDatabase();
    const db = await migratedUpTo(database, MIGRATION);
    await createProject(db, { id: 'keyed', name: 'Keyed', slug: 'keyed', monthlyQuota: null });
    const liveKey = (await createApiKey(db, 'keyed', 'live', ALL_PUBLIC_SCOPES)).key;
    const testKey = (await createApiKey(db, 'keyed', 'test', ALL_PUBLIC_SCOPES)).key;
    // What the server before the migration stored: groups unique per project, environment and
    // text fingerprint, the computed fingerprint as today, in both environments.
    const insert = `INSERT INTO log_groups (id, project_id, environment, fingerprint, level, category, message, status,
      occurrences, first_seen_at, last_seen_at) VALUES (?, 'keyed', ?, ?, ?, ?, ?, ?, ?, ?, ?)`;
    for (const environment of ['live', 'test']) {
      await db.run(insert, [
        `log_computed_${environment}`,
        environment,
        logFingerprint(computed),
        'error',
        'checkout',
        computed.message,
        'resolved',
        7,
        at,
        at,
      ]);
    }
    for (let from = 0; from < BULK; from += 100) {
      const rows = Array.from({ length: 100 }, (_, i) => from + i);
      await db.run(
        `INSERT INTO log_groups (id, project_id, environment, fingerprint, level, message, occurrences, first_seen_at, last_seen_at)
         VALUES ${rows.map(() => "(?, 'keyed', 'live', ?, 'info', ?, 2, ?, ?)").join(', ')}`,
        rows.flatMap((i) => [`log_bulk_${String(i).padStart(5, '0')}`, `bulk-${i}`, `Bulk line ${i}`, at, at]),
      );
    }
    await db.close();
    server = await startTestServer({ database });
    live = new Api(server.baseUrl, liveKey);
    test = new Api(server.baseUrl, testKey);
  });
  after(async () => {
    await server?.close();
    await database?.drop();
  });

  it('keys every row as the store does, losing none', async () => {
    const rows = await server.db.all<{
      id: string;
      project_id: string;
      environment: string;
      fingerprint: string;
      fingerprint_key: number;
    }>("SELECT id, project_id, environment, fingerprint, fingerprint_key FROM log_groups WHERE project_id = 'keyed'");
    assert.equal(rows.length, BULK + 2);
    for (const row of rows)
      assert.equal(Number(row.fingerprint_key), groupKey(row.project_id, row.environment, row.fingerprint), row.id);
  });

  it('counts new entries of the groups from before the upgrade on their rows', async () => {
    assert.equal((await live.post('/logs', { logs: [computed, computed] })).status, 200);
    assert.equal((await test.post('/logs', { logs: [computed] })).status, 200);
    const bulk = [0, 999, 1000, 2499].map((i) => ({
      level: 'info',
      message: `Bulk line ${i}`,
      fingerprint: `bulk-${i}`,
    }));
    assert.equal((await live.post('/logs', { logs: bulk })).status, 200);
    const counted = await server.db.all<{ id: string; occurrences: number; status: string }>(
      `SELECT id, occurrences, status FROM log_groups
       WHERE id IN ('log_computed_live', 'log_computed_test', 'log_bulk_00000', 'log_bulk_00999', 'log_bulk_01000',
         'log_bulk_02499') ORDER BY id`,
    );
    assert.deepEqual(
      counted.map((row) => [row.id, Number(row.occurrences), row.status]),
      [
        ['log_bulk_00000', 3, 'open'],
        ['log_bulk_00999', 3, 'open'],
        ['log_bulk_01000', 3, 'open'],
        ['log_bulk_02499', 3, 'open'],
        // Resolved groups reopen when they recur, as before.
        ['log_computed_live', 9, 'open'],
        ['log_computed_test', 8, 'open'],
      ],
    );
    const total = await server.db.get<{ n: number }>("SELECT COUNT(*) AS n FROM log_groups WHERE project_id = 'keyed'");
    assert.equal(Number(total!.n), BULK + 2);
  });

  it('still refuses a second row of one key', async () => {
    const key = groupKey('keyed', 'live', 'bulk-7');
    if (server.db.dialect === 'sqlite') {
      // SQLite keeps the keys in log_group_keys since 202612030100 (resources/logs/store-sqlite-keys.ts).
      assert.ok(await server.db.get('SELECT 1 AS held FROM log_group_keys WHERE key = ?', [key]));
      await assert.rejects(server.db.run('INSERT INTO log_group_keys (key, group_rowid) VALUES (?, 1)', [key]));
      return;
    }
    const copy = `INSERT INTO log_groups (id, project_id, environment, fingerprint, fingerprint_key, level, message,
      first_seen_at, last_seen_at) VALUES ('log_copy', 'keyed', 'live', 'bulk-7', ?, 'info', 'copy', ?, ?)`;
    await assert.rejects(server.db.run(copy, [key, at, at]));
  });
});
