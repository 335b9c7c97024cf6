/**
 * Upgrading a database that already holds data. Each test stops the migrations before one of
 * them, writes what a server of that time wrote, applies the rest and checks through HTTP that
 * the data still behaves.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { loadMigrations, migrate } from '../src/db/migrate.ts';
import { openDatabase } from '../src/db/open.ts';
import { ALL_PUBLIC_SCOPES, createApiKey, createProject } from '../src/features/projects/store.ts';
import { createTestDatabase, type TestDatabase } from './support/database.ts';
import { startTestServer, type TestServer } from './support/server.ts';
import { Api } from './support/api.ts';

describe('upgrade: report fingerprints cut to 128 bits (202611230000)', () => {
  let database: TestDatabase;
  let server: TestServer;
  let key: string;
  const title = 'TypeError in checkout';
  const errorType = 'TypeError';

  before(async () => {
    database = await createTestDatabase();
    const db = openDatabase({ databaseUrl: database.url, dataDir: database.dataDir });
    const all = loadMigrations();
    const cut = all.findIndex((migration) => migration.id === '202611230000_short_dedup_fingerprints');
    assert.ok(cut > 0, 'the migration exists');
    await migrate(db, all.slice(0, cut));

    await createProject(db, { id: 'upgraded', name: 'Upgraded', slug: 'upgraded', monthlyQuota: null });
    key = (await createApiKey(db, 'upgraded', 'live', ALL_PUBLIC_SCOPES)).key;
    // What the earlier server stored for one error report: the record and its dedup head, whose
    // fingerprint was the whole SHA-256 of the same fields.
    const at = new Date(Date.now() - 10 * 60 * 1000).toISOString();
    const fullFingerprint = createHash('sha256').update(`\u0001${title}\u0002\u0001${errorType}\u0002`).digest('hex');
    await db.run(
      `INSERT INTO error_reports (id, project_id, environment, title, message, error_type, severity, occurrences, first_seen_at, last_seen_at)
       VALUES ('error_before_upgrade', 'upgraded', 'live', ?, 'before', ?, 'high', 3, ?, ?)`,
      [title, errorType, at, at],
    );
    await db.run(
      `INSERT INTO dedup_heads (project_id, environment, kind, fingerprint, record_id, first_seen_at)
       VALUES ('upgraded', 'live', 'error', ?, 'error_before_upgrade', ?)`,
      [fullFingerprint, at],
    );
    await db.close();
    server = await startTestServer({ database });
  });
  after(async () => {
    await server?.close();
    await database?.drop();
  });

  it('a repeat after the upgrade is counted on the record from before it', async () => {
    const api = new Api(server.baseUrl, key);
    const repeat = await api.post('/errors', { title, message: 'Seen again after the upgrade', errorType });
    assert.equal(repeat.status, 200);
    assert.deepEqual(repeat.body, { id: 'error_before_upgrade', message: 'Error already reported; occurrence counted', duplicate: true });
    const row = await server.db.get<{ occurrences: number }>('SELECT occurrences FROM error_reports WHERE id = ?', ['error_before_upgrade']);
    assert.equal(Number(row!.occurrences), 4);
    const other = await api.post('/errors', { title: 'Another error', message: 'A different error altogether', errorType });
    assert.equal(other.status, 201);
  });
});
