/**
 * A migrated PostgreSQL template for the test suite: most test files start a server on a database
 * of their own, and running every migration into an empty PostgreSQL database took about a
 * second quiet (and several on CI's loaded machine), then about as long again to drop it; a copy
 * of a migrated template (`CREATE DATABASE … TEMPLATE`) takes under a tenth of a second, its
 * `migrate` finds nothing to do, and it drops as fast.
 *
 * The template is named after the migrations' names and texts and the day: a changed migration or
 * another checkout's migrations get a template of their own, and partitions made ahead of "now"
 * by a migration are at most a day old (the partition keeper makes the rest at start). Processes
 * build it once between them, under an advisory lock; templates of earlier days are dropped then.
 * Tests of migrations themselves (upgrades, backfills) ask for an empty database instead.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { migrate } from '../../src/db/migrate.ts';
import { openDatabase } from '../../src/db/open.ts';

const MIGRATIONS_DIR = fileURLToPath(new URL('../../src/migrations/', import.meta.url));
const TEMPLATE_PREFIX = 'signpost_tpl_';
/** One lock for every process that may build a template (hashtext of a fixed name). */
const BUILD_LOCK = `SELECT pg_advisory_lock(hashtext('signpost test template'))`;
const BUILD_UNLOCK = `SELECT pg_advisory_unlock(hashtext('signpost test template'))`;

/** `signpost_tpl_<yyyymmdd>_<hash>` for this checkout's migrations today. */
function templateName(): string {
  const hash = createHash('sha256');
  for (const file of readdirSync(MIGRATIONS_DIR).sort()) {
    hash.update(file);
    hash.update(readFileSync(join(MIGRATIONS_DIR, file)));
  }
  const day = new Date().toISOString().slice(0, 10).replaceAll('-', '');
  return `${TEMPLATE_PREFIX}${day}_${hash.digest('hex').slice(0, 12)}`;
}

let known: Promise<string> | undefined;

/** The migrated template's name, built first if no process has built it today. */
export function migratedTemplate(adminUrl: string): Promise<string> {
  known ??= ensureTemplate(adminUrl).catch((error: unknown) => {
    known = undefined;
    throw error;
  });
  return known;
}

async function ensureTemplate(adminUrl: string): Promise<string> {
  const name = templateName();
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(BUILD_LOCK);
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (exists.rowCount === 0) {
      await dropEarlierDays(admin, name);
      // Built under another name and renamed when whole, so no process copies a half-migrated one.
      const building = `${TEMPLATE_PREFIX}building_${randomBytes(4).toString('hex')}`;
      await admin.query(`CREATE DATABASE ${building}`);
      const url = new URL(adminUrl);
      url.pathname = `/${building}`;
      const db = openDatabase({ databaseUrl: url.toString(), dataDir: '' });
      try {
        await migrate(db);
      } finally {
        await db.close();
      }
      await admin.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
    }
    return name;
  } finally {
    await admin.query(BUILD_UNLOCK).catch(() => {});
    await admin.end();
  }
}

/** Templates of earlier days (never today's: another checkout's suite may be copying one). */
async function dropEarlierDays(admin: pg.Client, today: string): Promise<void> {
  const day = today.slice(TEMPLATE_PREFIX.length, TEMPLATE_PREFIX.length + 8);
  const { rows } = await admin.query<{ datname: string }>(
    `SELECT datname FROM pg_database WHERE datname LIKE 'signpost\\_tpl\\_%'`,
  );
  for (const { datname } of rows) {
    const itsDay = datname.slice(TEMPLATE_PREFIX.length, TEMPLATE_PREFIX.length + 8);
    if (datname.startsWith(`${TEMPLATE_PREFIX}building_`) || (/^\d{8}$/.test(itsDay) && itsDay < day))
      await admin.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
  }
}
