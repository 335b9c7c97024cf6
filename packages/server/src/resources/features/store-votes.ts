import type { Database, Queryable } from '../../db/database.ts';
import { nowIso } from '../../kernel/ids.ts';
import type { Scope } from './store.ts';

/**
 * Locks the public feature's row for the rest of the transaction (a no-op UPDATE takes the row
 * lock in PostgreSQL; SQLite already holds its write lock) and says whether it exists.
 */
export async function lockPublicFeature(tx: Queryable, scope: Scope, featureId: string): Promise<boolean> {
  const { changes } = await tx.run(
    'UPDATE features SET vote_count = vote_count WHERE id = ? AND project_id = ? AND environment = ? AND internal = 0',
    [featureId, scope.projectId, scope.environment],
  );
  return changes === 1;
}

async function currentCount(tx: Queryable, featureId: string): Promise<number> {
  const row = await tx.get<{ vote_count: number }>('SELECT vote_count FROM features WHERE id = ?', [featureId]);
  return Number(row?.vote_count ?? 0);
}

/** Adds the vote once; returns the new count, or undefined when the feature is not public. */
export async function addVote(db: Database, scope: Scope, featureId: string, voterId: string): Promise<number | undefined> {
  return db.transaction(async (tx) => {
    if (!(await lockPublicFeature(tx, scope, featureId))) return undefined;
    const { changes } = await tx.run(
      'INSERT INTO votes (feature_id, voter_id, created_at) VALUES (?, ?, ?) ON CONFLICT (feature_id, voter_id) DO NOTHING',
      [featureId, voterId, nowIso()],
    );
    if (changes === 1) await tx.run('UPDATE features SET vote_count = vote_count + 1 WHERE id = ?', [featureId]);
    return currentCount(tx, featureId);
  });
}

export async function removeVote(db: Database, scope: Scope, featureId: string, voterId: string): Promise<number | undefined> {
  return db.transaction(async (tx) => {
    if (!(await lockPublicFeature(tx, scope, featureId))) return undefined;
    const { changes } = await tx.run('DELETE FROM votes WHERE feature_id = ? AND voter_id = ?', [featureId, voterId]);
    if (changes === 1) await tx.run('UPDATE features SET vote_count = vote_count - 1 WHERE id = ?', [featureId]);
    return currentCount(tx, featureId);
  });
}
