import type { Queryable } from './database.ts';

/**
 * Takes a lock named `name` until the surrounding transaction ends: PostgreSQL holds the
 * upserted row's lock; SQLite's BEGIN IMMEDIATE already serialises writers. Call it first in
 * the transaction, before reading what the decision depends on.
 */
export async function lockNamed(tx: Queryable, name: string): Promise<void> {
  await tx.run(
    `INSERT INTO named_locks (name, touched_at) VALUES (?, ?)
     ON CONFLICT (name) DO UPDATE SET touched_at = excluded.touched_at`,
    [name, new Date().toISOString()],
  );
}
