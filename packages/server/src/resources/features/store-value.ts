/**
 * The store of ideas' stored value (issue 30, `features.value`; what it is: value-read-model.ts).
 * Refreshed in the transaction of what changes it: a vote or unvote by a valued voter, merging or
 * erasing a person; after a company change (people store's company_value_versions), the first
 * inbox read recomputes the project's values once and records the version they reflect.
 */
import { type Database, placeholders, type Queryable } from '../../db/database.ts';
import { allValuesOfProject, featuresVotedBy, valuesOfFeatures, valueVersions } from './value-read-model.ts';

/** Ideas whose value one UPDATE stores (parameters stay far below either database's limit). */
const VALUES_PER_STATEMENT = 500;

/**
 * Stores the value of these ideas of the project, computed afresh: one UPDATE per 500 ideas that
 * writes only the rows whose value moved (an import's vote batch refreshes hundreds of ideas, and
 * one statement each was 10,000 round trips for a 10,000-idea import on PostgreSQL).
 */
export async function refreshFeatureValues(tx: Queryable, projectId: string, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  const values = await valuesOfFeatures(tx, projectId, ids);
  for (let start = 0; start < ids.length; start += VALUES_PER_STATEMENT) {
    const chunk = ids.slice(start, start + VALUES_PER_STATEMENT);
    const valued = chunk.filter((id) => values.has(id));
    // An idea without a valued voter is worth 0.
    const value = valued.length
      ? `CASE id ${valued.map(() => 'WHEN ? THEN CAST(? AS DOUBLE PRECISION)').join(' ')} ELSE 0 END`
      : '0';
    const cases = valued.flatMap((id) => [id, values.get(id)!]);
    await tx.run(
      `UPDATE features SET value = ${value}
       WHERE project_id = ? AND id IN (${placeholders(chunk.length)}) AND value <> ${value}`,
      [...cases, projectId, ...chunk, ...cases],
    );
  }
}

/** Refreshes the value of every idea these voter ids voted for (a person merged or erased). */
export async function refreshValuesOfVoters(tx: Queryable, projectId: string, voterIds: readonly string[]) {
  await refreshFeatureValues(tx, projectId, await featuresVotedBy(tx, projectId, voterIds));
}

/**
 * Brings the project's stored values up to date when a company changed since they were computed
 * (one read of two versions otherwise). Safe to run concurrently: each run writes the values it
 * read and the version it saw.
 */
export async function ensureValuesCurrent(db: Database, projectId: string): Promise<void> {
  const { wanted, have } = await valueVersions(db, projectId);
  if (wanted === have) return;
  await db.transaction(async (tx) => {
    const values = await allValuesOfProject(tx, projectId);
    const stale = await tx.all<{ id: string; value: number }>(
      'SELECT id, value FROM features WHERE project_id = ? AND value <> 0',
      [projectId],
    );
    for (const row of stale) {
      if (!values.has(row.id)) await tx.run('UPDATE features SET value = 0 WHERE id = ?', [row.id]);
    }
    for (const [id, value] of values) {
      await tx.run('UPDATE features SET value = ? WHERE id = ? AND value <> ?', [value, id, value]);
    }
    await tx.run(
      `INSERT INTO feature_value_versions (project_id, version) VALUES (?, ?)
       ON CONFLICT (project_id) DO UPDATE SET version = excluded.version`,
      [projectId, wanted],
    );
  });
}
