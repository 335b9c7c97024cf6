/**
 * The votes table. Each write and its counter update share one transaction that holds the
 * feature's row lock (store.ts), the lock moderation and merging take too, so `vote_count`
 * stays exact under any interleaving.
 */
import type { Database, Queryable } from '../../db/database.ts';
import { nowIso } from '../../kernel/ids.ts';
import { page } from '../../db/page.ts';
import { Where } from '../../db/query.ts';
import { bumpCounter, featureCounts, lockFeature, lockPublicFeature } from './store.ts';
import type { Scope } from '../../kernel/scope.ts';
import { touchPerson } from '../people/index.ts';
import { refreshFeatureValues } from './store-value.ts';
import { voterIsValued } from './value-read-model.ts';
import { compareText } from '../../kernel/compare-text.ts';

export interface VoteRow {
  voter_id: string;
  created_at: string;
}

/** Adds the vote once; returns the new count, or undefined when the feature is not public. */
export async function addVote(
  db: Database,
  scope: Scope,
  featureId: string,
  voterId: string,
): Promise<number | undefined> {
  return db.transaction(async (tx) => {
    if (!(await lockPublicFeature(tx, scope, featureId))) return undefined;
    await addVoteInTransaction(tx, scope.projectId, featureId, voterId);
    return (await featureCounts(tx, featureId)).voteCount;
  });
}

/**
 * A vote written in the caller's transaction (addVote's, after the idea's lock, or on an idea it
 * has just made, as filing on a person's behalf does): once, counted, the voter a person of the
 * project from their first vote on (resources/people), the idea's stored value moved.
 */
export async function addVoteInTransaction(tx: Queryable, projectId: string, featureId: string, voterId: string) {
  const { changes } = await tx.run(
    'INSERT INTO votes (feature_id, voter_id, created_at) VALUES (?, ?, ?) ON CONFLICT (feature_id, voter_id) DO NOTHING',
    [featureId, voterId, nowIso()],
  );
  if (changes === 1) {
    await bumpCounter(tx, featureId, 'vote_count', 1);
    await touchPerson(tx, projectId, 'voter_id', voterId);
    await refreshValueAfterVote(tx, projectId, featureId, voterId);
  }
}

/** Takes the voter's vote back; returns the new count, or undefined when the feature is not public. */
export async function removeVote(
  db: Database,
  scope: Scope,
  featureId: string,
  voterId: string,
): Promise<number | undefined> {
  return db.transaction(async (tx) => {
    if (!(await lockPublicFeature(tx, scope, featureId))) return undefined;
    if (await deleteVote(tx, featureId, voterId)) {
      await bumpCounter(tx, featureId, 'vote_count', -1);
      await refreshValueAfterVote(tx, scope.projectId, featureId, voterId);
    }
    return (await featureCounts(tx, featureId)).voteCount;
  });
}

/** A vote by a person of a valued company moves the idea's stored value (one indexed read otherwise). */
async function refreshValueAfterVote(tx: Queryable, projectId: string, featureId: string, voterId: string) {
  if (await voterIsValued(tx, projectId, voterId)) await refreshFeatureValues(tx, projectId, [featureId]);
}

/** Whether this voter's vote is on the feature (the board shows its button pressed). */
export async function hasVoted(db: Queryable, featureId: string, voterId: string): Promise<boolean> {
  return (
    (await db.get('SELECT 1 AS found FROM votes WHERE feature_id = ? AND voter_id = ?', [featureId, voterId])) !==
    undefined
  );
}

/** Which of the given features this voter has voted for (one read for a page of the list). */
export async function votedAmong(db: Queryable, featureIds: readonly string[], voterId: string): Promise<Set<string>> {
  if (featureIds.length === 0) return new Set();
  const rows = await db.all<{ feature_id: string }>(
    `SELECT feature_id FROM votes WHERE voter_id = ? AND feature_id IN (${featureIds.map(() => '?').join(', ')})`,
    [voterId, ...featureIds],
  );
  return new Set(rows.map((row) => row.feature_id));
}

// Moderation: any feature of the project, internal ones included.

export async function listVotePage(db: Queryable, featureId: string, limit: number, offset: number) {
  return page<VoteRow>(
    db,
    'votes',
    new Where('feature_id = ?', featureId),
    'voter_id, created_at',
    'created_at ASC, voter_id ASC',
    limit,
    offset,
  );
}

/** undefined: no such feature; `removed` false: that voter had not voted. */
export async function moderateRemoveVote(db: Database, projectId: string, featureId: string, voterId: string) {
  return db.transaction(async (tx) => {
    if (!(await lockFeature(tx, projectId, featureId))) return undefined;
    const removed = await deleteVote(tx, featureId, voterId);
    if (removed) {
      await bumpCounter(tx, featureId, 'vote_count', -1);
      await refreshValueAfterVote(tx, projectId, featureId, voterId);
    }
    return { removed, ...(await featureCounts(tx, featureId)) };
  });
}

async function deleteVote(tx: Queryable, featureId: string, voterId: string): Promise<boolean> {
  const { changes } = await tx.run('DELETE FROM votes WHERE feature_id = ? AND voter_id = ?', [featureId, voterId]);
  return changes === 1;
}

/**
 * Merging two people (resources/people): once their aliases are one person's, that person keeps
 * one vote per idea, the earliest; the others go and each idea's count drops with them (under the
 * idea's row lock, as every vote write). Answers how many went and the ideas they were on.
 */
export async function keepOneVotePerIdea(
  tx: Queryable,
  projectId: string,
  voterIds: readonly string[],
): Promise<{ dropped: number; featureIds: string[] }> {
  const voted: string[] = [];
  if (voterIds.length === 0) return { dropped: 0, featureIds: voted };
  const rows = await tx.all<{ feature_id: string; voter_id: string }>(
    `SELECT v.feature_id, v.voter_id FROM votes v JOIN features f ON f.id = v.feature_id
     WHERE f.project_id = ? AND v.voter_id IN (${voterIds.map(() => '?').join(', ')})
     ORDER BY v.feature_id, v.created_at, v.voter_id`,
    [projectId, ...voterIds],
  );
  const byFeature = new Map<string, string[]>();
  for (const row of rows) byFeature.set(row.feature_id, [...(byFeature.get(row.feature_id) ?? []), row.voter_id]);
  let dropped = 0;
  for (const [featureId, voters] of [...byFeature].sort(([a], [b]) => compareText(a, b))) {
    voted.push(featureId);
    if (voters.length < 2 || !(await lockFeature(tx, projectId, featureId))) continue;
    let gone = 0;
    for (const voterId of voters.slice(1)) if (await deleteVote(tx, featureId, voterId)) gone++;
    if (gone > 0) await tx.run('UPDATE features SET vote_count = vote_count - ? WHERE id = ?', [gone, featureId]);
    dropped += gone;
  }
  return { dropped, featureIds: voted };
}
