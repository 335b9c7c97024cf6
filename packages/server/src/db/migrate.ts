import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Database, Queryable } from './database.ts';

const MIGRATIONS_DIR = fileURLToPath(new URL('../migrations/', import.meta.url));
// Any constant works; it only has to be the same in every process that migrates.
const PG_MIGRATION_LOCK = 5_318_008;

export interface Migration {
  id: string;
  sql: string;
  /** Set for `<id>.sqlite.sql` / `<id>.postgres.sql`: DDL only one engine speaks (full-text search). */
  dialect?: 'sqlite' | 'postgres';
  /**
   * Set for `<id>.ts`: a step plain SQL cannot express on both engines (values computed in
   * TypeScript). The module exports `up(q, dialect)`, run in the migration's transaction.
   */
  module?: string;
}

/** What a `<id>.ts` migration module exports. */
export interface MigrationModule {
  up(q: Queryable, dialect: Database['dialect']): Promise<void>;
}

/**
 * Serialises start-up work (migrations, first-start seeding) across processes that share a
 * PostgreSQL database: the lock is held until `fn`'s transaction ends. SQLite's
 * BEGIN IMMEDIATE already serialises writers.
 */
export async function withStartupLock<T>(db: Database, fn: (tx: Queryable) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    if (db.dialect === 'postgres') await tx.all('SELECT pg_advisory_xact_lock(?)', [PG_MIGRATION_LOCK]);
    return fn(tx);
  });
}

/**
 * Migrations are `YYYYMMDDHHMM_name.sql` files (or `.ts` modules, see Migration.module), applied
 * in name order, never edited once merged.
 * A migration that differs by engine is a pair, `<id>.sqlite.sql` and `<id>.postgres.sql`: each
 * database applies its own under the one id.
 */
/** A migration module: TypeScript in the source tree, JavaScript in the built server (dist/). */
const MODULE = /(?<!\.d)\.(ts|js)$/;

export function loadMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.sql') || MODULE.test(name))
    .sort()
    .map((name) => {
      if (MODULE.test(name)) return { id: name.replace(MODULE, ''), sql: '', module: dir + name };
      const engine = /\.(sqlite|postgres)\.sql$/.exec(name)?.[1] as Migration['dialect'];
      const id = name.replace(/(\.(sqlite|postgres))?\.sql$/, '');
      const sql = readFileSync(dir + name, 'utf8');
      return engine ? { id, sql, dialect: engine } : { id, sql };
    });
}

/** Applies every pending migration; safe to call from several processes at once. */
export async function migrate(db: Database, migrations = loadMigrations()): Promise<string[]> {
  if (db.dialect === 'postgres') {
    // Session-level advisory lock on a dedicated transaction so concurrent starts queue up.
    return db.transaction(async (tx) => {
      await tx.all('SELECT pg_advisory_xact_lock(?)', [PG_MIGRATION_LOCK]);
      return applyPending(tx, migrations, db);
    });
  }
  return applyPending(db, migrations, db);
}

/** One migration's statements, or its module's step, on `q`. */
async function applyOne(q: Queryable, migration: Migration, dialect: Database['dialect']): Promise<void> {
  if (migration.module) {
    const step = (await import(pathToFileURL(migration.module).href)) as MigrationModule;
    await step.up(q, dialect);
    return;
  }
  for (const statement of splitStatements(migration.sql)) await q.run(statement);
}

async function applyPending(q: Queryable, migrations: Migration[], db: Database): Promise<string[]> {
  await q.run('CREATE TABLE IF NOT EXISTS schema_migrations (id TEXT PRIMARY KEY, applied_at TEXT NOT NULL)');
  const done = new Set((await q.all<{ id: string }>('SELECT id FROM schema_migrations')).map((row) => row.id));
  const applied: string[] = [];
  for (const migration of migrations) {
    if (done.has(migration.id)) continue;
    if (migration.dialect !== undefined && migration.dialect !== db.dialect) continue;
    if (db.dialect === 'postgres') {
      // Already inside the lock transaction: statements run in it, so a failure rolls back all.
      await applyOne(q, migration, db.dialect);
      await q.run('INSERT INTO schema_migrations (id, applied_at) VALUES (?, ?)', [
        migration.id,
        new Date().toISOString(),
      ]);
    } else {
      await db.transaction(async (tx) => {
        await applyOne(tx, migration, db.dialect);
        await tx.run('INSERT INTO schema_migrations (id, applied_at) VALUES (?, ?)', [
          migration.id,
          new Date().toISOString(),
        ]);
      });
    }
    applied.push(migration.id);
  }
  return applied;
}

/** Migrations hold plain DDL: split on semicolons at line ends, drop `--` comments. */
export function splitStatements(sql: string): string[] {
  return sql
    .split('\n')
    .filter((line) => !line.trim().startsWith('--'))
    .join('\n')
    .split(/;\s*$/m)
    .map((statement) => statement.trim())
    .filter(Boolean);
}

/** The schema's version: the last migration applied (what an export records and a restore checks). */
export async function schemaVersion(db: Queryable): Promise<string> {
  const row = await db.get<{ id: string | null }>('SELECT MAX(id) AS id FROM schema_migrations');
  return row?.id ?? '';
}
