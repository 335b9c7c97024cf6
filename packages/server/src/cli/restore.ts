// `npm run restore -- <file.zip>`: an export (npm run export) into the configured database, which
// must be new (migrated here, no project yet: before the server first starts on it). SQLite and
// PostgreSQL both ways. API keys are re-issued (only their hashes were ever stored) and printed
// once; account passwords, sessions and tokens were not exported: people sign in again (password
// reset), webhook and SSO secrets are new (rotate and hand them out again).
import { resolve } from 'node:path';
import { loadConfig } from '../config.ts';
import { RestoreError, restoreInstance } from '../db/archive.ts';
import { migrate } from '../db/migrate.ts';
import { openDatabase } from '../db/open.ts';

const source = process.argv[2];
if (!source || source.startsWith('-')) {
  process.stderr.write('Usage: npm run restore -- <file.zip>\n');
  process.exit(64); // EX_USAGE
}
const file = resolve(process.env['INIT_CWD'] ?? process.cwd(), source);
const db = openDatabase(loadConfig());
try {
  await migrate(db);
  const { manifest, keys } = await restoreInstance(db, file);
  const rows = manifest.tables.reduce((sum, table) => sum + table.rows, 0);
  process.stdout.write(`Restored ${manifest.tables.length} tables (${rows} rows) from ${file}\n`);
  process.stdout.write('API keys, re-issued (shown only now; the old keys no longer work):\n');
  for (const key of keys) {
    process.stdout.write(`  ${key.projectId}  ${key.environment}  ${key.name || key.id}  ${key.key}\n`);
  }
} catch (error) {
  if (!(error instanceof RestoreError)) throw error;
  process.stderr.write(`Restore refused: ${error.message}\n`);
  process.exitCode = 65; // EX_DATAERR
} finally {
  await db.close();
}
