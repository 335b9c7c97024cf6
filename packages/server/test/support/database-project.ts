/**
 * A test database prepared before a server process starts on it (kill -9, backups, the WAL, more
 * than one process): opened here, migrated, given a project and a live key, and closed again.
 */
import type { Database } from '../../src/db/database.ts';
import { migrate } from '../../src/db/migrate.ts';
import { openDatabase } from '../../src/db/open.ts';
import { newId } from '../../src/kernel/ids.ts';
import { ALL_PUBLIC_SCOPES, createApiKey, createProject } from '../../src/resources/projects/index.ts';
import type { TestDatabase } from './database.ts';

/** Opens the test database, runs `fn` on it and closes it again, whatever `fn` does. */
export async function withDb<T>(database: TestDatabase, fn: (db: Database) => Promise<T>): Promise<T> {
  const db = openDatabase({ databaseUrl: database.url, dataDir: database.dataDir });
  try {
    return await fn(db);
  } finally {
    await db.close();
  }
}

/**
 * The test database migrated, with a project named `name` and a live key of every public scope;
 * `monthlyQuota` gives the project a plan quota (none by default).
 */
export function migratedProject(
  database: TestDatabase,
  name: string,
  { monthlyQuota = null }: { monthlyQuota?: number | null } = {},
): Promise<{ projectId: string; key: string }> {
  return withDb(database, async (db) => {
    await migrate(db);
    const projectId = newId('proj');
    await createProject(db, { id: projectId, name, slug: projectId, monthlyQuota });
    return { projectId, key: (await createApiKey(db, projectId, 'live', ALL_PUBLIC_SCOPES)).key };
  });
}
