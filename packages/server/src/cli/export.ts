// `npm run export -- <file.zip>`: the whole instance as one zip of JSON lines per table, with a
// manifest (src/db/archive.ts says what is left out and why). Runs beside a running server: each
// table is read in pages, so the archive is consistent per page, not as one snapshot; for a
// point-in-time copy of a busy instance, export from a backup (`npm run backup`).
import { resolve } from 'node:path';
import { loadConfig } from '../config.ts';
import { exportInstance } from '../db/archive.ts';
import { migrate, schemaVersion } from '../db/migrate.ts';
import { openDatabase } from '../db/open.ts';

const target = process.argv[2];
if (!target || target.startsWith('-')) {
  process.stderr.write('Usage: npm run export -- <file.zip>\n');
  process.exit(64); // EX_USAGE
}
const file = resolve(process.env['INIT_CWD'] ?? process.cwd(), target);
const db = openDatabase(loadConfig());
try {
  await migrate(db);
  const manifest = await exportInstance(db, file, await schemaVersion(db));
  const rows = manifest.tables.reduce((sum, table) => sum + table.rows, 0);
  process.stdout.write(`Exported ${manifest.tables.length} tables (${rows} rows) to ${file}\n`);
} finally {
  await db.close();
}
