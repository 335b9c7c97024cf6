// `npm run backup -- <file>`: a consistent copy of the configured database, taken while the server
// runs and writes (docs/self-hosting.md, "Backups and restore").
// - SQLite: SQLite's online backup API (node:sqlite `backup()`) in one step, so the copy is one
//   read transaction's snapshot: every write committed before it began, none half-done. In WAL
//   mode a reader never blocks the writer, so the server keeps answering meanwhile. The copy is
//   written beside the target, made a single file (rollback journal), checked
//   (`PRAGMA quick_check`) and renamed into place.
// - PostgreSQL: `pg_dump --format=custom` (one repeatable-read snapshot); restore with
//   `pg_restore`. pg_dump must be installed, of the server's major version or newer.
import { spawnSync } from 'node:child_process';
import { existsSync, renameSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { backup, DatabaseSync } from 'node:sqlite';
import { ConfigError, loadConfig } from '../config.ts';

/** SQLite's page count is far below this: the whole file is copied in one step. */
const ALL_PAGES = 2_147_483_647;

async function main(): Promise<void> {
  const target = process.argv[2];
  if (!target || target.startsWith('-')) {
    process.stderr.write('Usage: npm run backup -- <file>   (a SQLite file, or a pg_dump custom-format archive)\n');
    process.exit(64); // EX_USAGE
  }
  // npm runs the script in packages/server; a relative path means where the user ran npm.
  const file = resolve(process.env['INIT_CWD'] ?? process.cwd(), target);
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }
  const url = config.databaseUrl;
  if (url && /^postgres(ql)?:\/\//.test(url)) {
    const dump = spawnSync('pg_dump', ['--format=custom', '--no-owner', `--file=${file}`, `--dbname=${url}`], {
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    if (dump.error) {
      process.stderr.write(`pg_dump could not run (${dump.error.message}); install the PostgreSQL client tools.\n`);
      process.exit(69); // EX_UNAVAILABLE
    }
    if (dump.status !== 0) process.exit(dump.status ?? 1);
    process.stdout.write(`Backed up the PostgreSQL database to ${file} (restore with pg_restore)\n`);
    return;
  }
  const source = url?.startsWith('sqlite:') ? url.slice('sqlite:'.length) : join(config.dataDir, 'signpost.db');
  if (!existsSync(source)) {
    process.stderr.write(`No database at ${source}: set DATA_DIR or DATABASE_URL as for the server.\n`);
    process.exit(66); // EX_NOINPUT
  }
  const partial = `${file}.partial`;
  rmSync(partial, { force: true });
  const db = new DatabaseSync(source, { readOnly: true, timeout: 5000 });
  let pages: number;
  try {
    pages = await backup(db, partial, { rate: ALL_PAGES });
  } finally {
    db.close();
  }
  // The copy as one self-contained file (the server turns WAL back on when it opens it), checked.
  const copy = new DatabaseSync(partial);
  copy.exec('PRAGMA journal_mode = DELETE');
  const check = copy.prepare('PRAGMA quick_check').get() as { quick_check: string } | undefined;
  copy.close();
  if (check?.quick_check !== 'ok') {
    rmSync(partial, { force: true });
    process.stderr.write(`The copy failed its integrity check: ${check?.quick_check ?? 'no answer'}\n`);
    process.exit(1);
  }
  renameSync(partial, file);
  process.stdout.write(`Backed up ${source} to ${file} (${pages} pages)\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`Backup failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
