/**
 * Merging a duplicate feature into another. One transaction: votes move over without counting a
 * voter twice, comments move, changelog entries and bug reports that pointed at the duplicate
 * point at the kept feature, the duplicate is deleted (its id kept in feature_redirects, so its
 * board links lead to the kept one), and the kept feature's counters are
 * recounted from its rows (held comments are not counted), so they stay exact whatever happened before.
 */
import { refreshFeatureValues } from './store-value.ts';
import type { Database, Queryable } from '../../db/database.ts';
import { BadRequestError, NotFoundError } from '../../kernel/errors.ts';
import { nowIso } from '../../kernel/ids.ts';
import type { FeatureRow } from './store.ts';
import { moveBugsToFeature } from '../reports/index.ts';
import { moveEntriesToFeature } from '../changelog/index.ts';
import { moveFollowers } from '../notifications/index.ts';
import { recordAudit } from '../audit/index.ts';

export interface MergeOutcome {
  feature: FeatureRow;
  /** Votes of the duplicate that now count for the kept feature. */
  votesMoved: number;
  /** Voters who had voted for both: their vote on the duplicate is dropped. */
  votesAlreadyPresent: number;
  commentsMoved: number;
  changelogEntriesMoved: number;
}

/**
 * Locks both rows (a no-op UPDATE takes the row lock in PostgreSQL; SQLite holds its write lock)
 * in id order, so two merges of the same pair in opposite directions cannot deadlock. A vote or
 * comment arriving on the duplicate after this waits, then finds it gone (404).
 */
async function lock(tx: Queryable, projectId: string, ids: readonly string[]): Promise<Map<string, FeatureRow>> {
  const rows = new Map<string, FeatureRow>();
  for (const id of [...ids].sort()) {
    const { changes } = await tx.run('UPDATE features SET vote_count = vote_count WHERE id = ? AND project_id = ?', [
      id,
      projectId,
    ]);
    if (changes !== 1) continue;
    rows.set(id, (await tx.get<FeatureRow>('SELECT * FROM features WHERE id = ?', [id]))!);
  }
  return rows;
}

export async function mergeFeature(
  db: Database,
  projectId: string,
  duplicateId: string,
  targetId: string,
): Promise<MergeOutcome> {
  if (duplicateId === targetId) {
    throw new BadRequestError('A feature cannot be merged into itself', [
      { field: 'targetId', message: 'must differ from the duplicate' },
    ]);
  }
  return db.transaction(async (tx) => {
    const rows = await lock(tx, projectId, [duplicateId, targetId]);
    const duplicate = rows.get(duplicateId);
    const target = rows.get(targetId);
    if (!duplicate) throw new NotFoundError();
    if (!target) {
      throw new BadRequestError('Invalid field targetId: no such feature in this project', [
        { field: 'targetId', message: 'no such feature in this project' },
      ]);
    }
    if (duplicate.environment !== target.environment) {
      throw new BadRequestError('Features of live and test keys cannot be merged', [
        { field: 'targetId', message: `must be a ${duplicate.environment} feature like the duplicate` },
      ]);
    }
    const before = await tx.get<{ n: number }>('SELECT COUNT(*) AS n FROM votes WHERE feature_id = ?', [duplicateId]);
    const { changes: votesMoved } = await tx.run(
      `INSERT INTO votes (feature_id, voter_id, created_at)
       SELECT ?, voter_id, created_at FROM votes WHERE feature_id = ?
       ON CONFLICT (feature_id, voter_id) DO NOTHING`,
      [targetId, duplicateId],
    );
    const { changes: commentsMoved } = await tx.run('UPDATE comments SET feature_id = ? WHERE feature_id = ?', [
      targetId,
      duplicateId,
    ]);
    const changelogEntriesMoved = await moveEntriesToFeature(tx, duplicateId, targetId);
    await moveBugsToFeature(tx, duplicateId, targetId);
    await moveFollowers(tx, duplicateId, targetId);
    // The duplicate's links lead to the target from now on (and those that led to the duplicate).
    await tx.run('UPDATE feature_redirects SET to_id = ? WHERE to_id = ?', [targetId, duplicateId]);
    await tx.run(
      `INSERT INTO feature_redirects (from_id, to_id, project_id, created_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (from_id) DO UPDATE SET to_id = excluded.to_id`,
      [duplicateId, targetId, projectId, nowIso()],
    );
    await tx.run('DELETE FROM features WHERE id = ?', [duplicateId]);
    await tx.run(
      `UPDATE features SET
         vote_count = (SELECT COUNT(*) FROM votes WHERE feature_id = ?),
         comment_count = (SELECT COUNT(*) FROM comments WHERE feature_id = ? AND held = 0 AND internal = 0),
         updated_at = ?
       WHERE id = ?`,
      [targetId, targetId, nowIso(), targetId],
    );
    // The target's voters now include the duplicate's: its value too.
    await refreshFeatureValues(tx, projectId, [targetId]);
    await recordAudit(tx, {
      projectId,
      action: 'feature.merged',
      target: { type: 'feature', id: duplicateId },
      before: { id: duplicateId, title: duplicate.title, status: duplicate.status },
      after: { mergedInto: targetId, targetTitle: target.title, votesMoved, commentsMoved, changelogEntriesMoved },
    });
    return {
      feature: (await tx.get<FeatureRow>('SELECT * FROM features WHERE id = ?', [targetId]))!,
      votesMoved,
      votesAlreadyPresent: Number(before?.n ?? 0) - votesMoved,
      commentsMoved,
      changelogEntriesMoved,
    };
  });
}

/** The idea a merged idea's id now leads to (feature_redirects), if the project has one. */
export async function findFeatureRedirect(
  db: Queryable,
  projectId: string,
  fromId: string,
): Promise<string | undefined> {
  const row = await db.get<{ to_id: string }>(
    'SELECT to_id FROM feature_redirects WHERE from_id = ? AND project_id = ?',
    [fromId, projectId],
  );
  return row?.to_id;
}
