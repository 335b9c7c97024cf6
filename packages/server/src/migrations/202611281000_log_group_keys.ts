/**
 * log_groups deduplicated on an 8-byte integer key instead of the text fingerprint
 * (resources/logs/group-key.ts): every existing row gets its key, the unique index on the key
 * replaces the one on (project_id, environment, fingerprint), nothing else changes. The fingerprint stays on every row: the API shows it, search reads it, and the
 * upsert compares it to tell a key collision from a repeat.
 *
 * A module rather than SQL because SQLite has no SHA-256 in SQL: its keys are computed here.
 * SQLite also cannot drop a table's UNIQUE constraint, so its table is rebuilt (the documented
 * create-copy-drop-rename); PostgreSQL alters in place and computes the keys in SQL.
 */
import type { Database, Queryable } from '../db/database.ts';
import { groupKey, POSTGRES_GROUP_KEY_SQL } from '../resources/logs/group-key.ts';

/** Rows keyed per read on SQLite: bounded memory whatever the table's size. */
const CHUNK = 1000;

const COLUMNS = `id, project_id, environment, fingerprint, level, category, source, message, data, user_id,
  app_version, status, occurrences, first_seen_at, last_seen_at`;

/** The explorer's indexes (202611270100), made again on SQLite's rebuilt table. */
const EXPLORER_INDEXES = `
CREATE INDEX log_groups_project_seen ON log_groups (project_id, last_seen_at, id, level);
CREATE INDEX log_groups_project_level_seen ON log_groups (project_id, level, last_seen_at, id);
CREATE INDEX log_groups_project_category_seen ON log_groups (project_id, category, last_seen_at, id);
CREATE INDEX log_groups_project_source_seen ON log_groups (project_id, source, last_seen_at, id);
CREATE INDEX log_groups_project_status ON log_groups (project_id, status)`;

export async function up(q: Queryable, dialect: Database['dialect']): Promise<void> {
  if (dialect === 'postgres') {
    await q.run('ALTER TABLE log_groups ADD COLUMN fingerprint_key BIGINT');
    await q.run(`UPDATE log_groups SET fingerprint_key = ${POSTGRES_GROUP_KEY_SQL}`);
  } else {
    await rebuildSqliteTable(q);
  }
  await separateCollisions(q);
  if (dialect === 'postgres') {
    await q.run('ALTER TABLE log_groups ALTER COLUMN fingerprint_key SET NOT NULL');
    const unique = await q.all<{ conname: string }>(
      `SELECT conname FROM pg_constraint WHERE conrelid = 'log_groups'::regclass AND contype = 'u'`,
    );
    for (const { conname } of unique) await q.run(`ALTER TABLE log_groups DROP CONSTRAINT "${conname}"`);
  }
  await q.run('CREATE UNIQUE INDEX log_groups_key ON log_groups (fingerprint_key)');
}

/** The same table without UNIQUE (project_id, environment, fingerprint), every row keyed. */
async function rebuildSqliteTable(q: Queryable): Promise<void> {
  await q.run(`CREATE TABLE log_groups_keyed (
  id TEXT PRIMARY KEY,
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  environment TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  level TEXT NOT NULL,
  category TEXT,
  source TEXT,
  message TEXT NOT NULL,
  data TEXT,
  user_id TEXT,
  app_version TEXT,
  status TEXT NOT NULL DEFAULT 'open',
  occurrences INTEGER NOT NULL DEFAULT 1,
  first_seen_at TEXT NOT NULL,
  last_seen_at TEXT NOT NULL,
  fingerprint_key INTEGER NOT NULL
)`);
  // Copied in rowid order, a chunk at a time, each row with its key.
  let after = 0;
  for (;;) {
    const rows = await q.all<{ rid: number; project_id: string; environment: string; fingerprint: string }>(
      'SELECT rowid AS rid, project_id, environment, fingerprint FROM log_groups WHERE rowid > ? ORDER BY rowid LIMIT ?',
      [after, CHUNK],
    );
    for (const row of rows) {
      await q.run(
        `INSERT INTO log_groups_keyed (${COLUMNS}, fingerprint_key) SELECT ${COLUMNS}, ? FROM log_groups WHERE rowid = ?`,
        [groupKey(row.project_id, row.environment, row.fingerprint), row.rid],
      );
    }
    if (rows.length < CHUNK) break;
    after = rows[rows.length - 1]!.rid;
  }
  await q.run('DROP TABLE log_groups');
  await q.run('ALTER TABLE log_groups_keyed RENAME TO log_groups');
  for (const statement of EXPLORER_INDEXES.split(';')) await q.run(statement.trim());
}

/**
 * Groups that share a key (rare, see group-key.ts): the first seen keeps it, each other moves to
 * its next free probe key, where the store's upsert will look for it.
 */
async function separateCollisions(q: Queryable): Promise<void> {
  const shared = await q.all<{ k: string }>(
    'SELECT CAST(fingerprint_key AS TEXT) AS k FROM log_groups GROUP BY fingerprint_key HAVING COUNT(*) > 1',
  );
  for (const { k } of shared) {
    const rows = await q.all<{ id: string; project_id: string; environment: string; fingerprint: string }>(
      `SELECT id, project_id, environment, fingerprint FROM log_groups WHERE fingerprint_key = ?
       ORDER BY first_seen_at, id`,
      [Number(k)],
    );
    for (const row of rows.slice(1)) {
      for (let probe = 1; ; probe++) {
        const key = groupKey(row.project_id, row.environment, row.fingerprint, probe);
        if (await q.get('SELECT 1 AS taken FROM log_groups WHERE fingerprint_key = ?', [key])) continue;
        await q.run('UPDATE log_groups SET fingerprint_key = ? WHERE id = ?', [key, row.id]);
        break;
      }
    }
  }
}
