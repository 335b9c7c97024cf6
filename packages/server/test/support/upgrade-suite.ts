/**
 * Upgrading a database that already holds data: a suite stops the migrations before one of them,
 * writes what a server of that time wrote, and starts a server on it, which applies the rest.
 */
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import type { Database } from '../../src/db/database.ts';
import { loadMigrations, migrate } from '../../src/db/migrate.ts';
import { openDatabase } from '../../src/db/open.ts';
import { createTestDatabase, type TestDatabase } from './database.ts';
import { startTestServer, type TestServer } from './server.ts';

/** The test database with every migration before `migrationId` applied, open. */
export async function migratedUpTo(database: TestDatabase, migrationId: string): Promise<Database> {
  const db = openDatabase({ databaseUrl: database.url, dataDir: database.dataDir });
  const all = loadMigrations();
  const cut = all.findIndex((migration) => migration.id === migrationId);
  assert.ok(cut > 0, `migration ${migrationId} exists`);
  await migrate(db, all.slice(0, cut));
  return db;
}

/**
 * An upgrade suite's server: a new test database migrated up to before `migrationId`, `seed`
 * writing what a server of that time wrote, then a server started on it, which applies the rest.
 */
export function upgradeSuite(
  migrationId: string,
  seed: (db: Database) => Promise<void>,
): { readonly server: TestServer } {
  const suite = {} as { server: TestServer; database: TestDatabase };
  before(async () => {
    suite.database = await createTestDatabase();
    const db = await migratedUpTo(suite.database, migrationId);
    await seed(db);
    await db.close();
    suite.server = await startTestServer({ database: suite.database });
  });
  after(async () => {
    await suite.server?.close();
    await suite.database?.drop();
  });
  return suite;
}
