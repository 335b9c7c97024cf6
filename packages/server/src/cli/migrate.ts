// `npm run migrate`: applies pending migrations to the configured database and exits.
import { loadConfig } from '../config.ts';
import { migrate } from '../db/migrate.ts';
import { openDatabase } from '../db/open.ts';

const config = loadConfig();
const db = openDatabase(config);
try {
  const applied = await migrate(db);
  process.stdout.write(
    applied.length
      ? `Applied ${applied.length} migration(s):\n  ${applied.join('\n  ')}\n`
      : 'Database is up to date.\n',
  );
} finally {
  await db.close();
}
