/**
 * For tests that count answers from the memos on PostgreSQL: its change listener connects on the
 * first marker read, and until it listens every read goes to the database (pg-listener.ts).
 */
import type { Database } from '../../src/db/database.ts';
import { PostgresDatabase } from '../../src/db/postgres.ts';

/** Resolves once `db` receives change notifications (at once on SQLite, which needs none). */
export async function listeningForChanges(db: Database, timeoutMs = 10_000): Promise<void> {
  if (!(db instanceof PostgresDatabase)) return;
  db.changeMarker();
  const deadline = Date.now() + timeoutMs;
  while (!db.listeningForChanges) {
    // A bound for a listener that never connects, not a speed check.
    if (Date.now() > deadline) throw new Error('the change listener did not start listening');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
