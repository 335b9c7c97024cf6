import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { migratedTemplate } from './pg-template.ts';

export type TestDbKind = 'sqlite' | 'postgres';

/** Which database the suite runs on: SIGNPOST_TEST_DB=postgres, else SQLite. */
export function testDbKind(): TestDbKind {
  return process.env['SIGNPOST_TEST_DB'] === 'postgres' ? 'postgres' : 'sqlite';
}

const PG_ADMIN_URL = process.env['SIGNPOST_TEST_PG_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestDatabase {
  kind: TestDbKind;
  /** A DATABASE_URL for the server. */
  url: string;
  /** Data directory for SQLite (also given to PostgreSQL runs, unused there). */
  dataDir: string;
  drop(): Promise<void>;
}

/**
 * A fresh database of the suite's kind; `drop` removes it. Empty, unless `migrated` asks for one
 * with every migration run: on PostgreSQL a copy of a migrated template (pg-template.ts says why);
 * on SQLite that is no faster than migrating, so it stays empty and the caller migrates.
 */
export async function createTestDatabase(
  kind: TestDbKind = testDbKind(),
  options: { migrated?: boolean } = {},
): Promise<TestDatabase> {
  const dataDir = mkdtempSync(join(tmpdir(), 'signpost-test-'));
  if (kind === 'sqlite') {
    return {
      kind,
      url: `sqlite:${join(dataDir, 'signpost.db')}`,
      dataDir,
      drop: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const name = `signpost_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  const template = options.migrated ? await migratedTemplate(PG_ADMIN_URL) : undefined;
  await admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  await admin.end();
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    kind,
    url: url.toString(),
    dataDir,
    drop: async () => {
      const client = new pg.Client({ connectionString: PG_ADMIN_URL });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
