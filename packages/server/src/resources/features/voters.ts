/**
 * Who asked for an idea: its voters, oldest first, each with the person (and company) they are
 * known as. The management API's vote list and the MCP feedback tool's person action answer it.
 */
import type { Database } from '../../db/database.ts';
import { peopleByAlias, presentPersonSummary } from '../people/index.ts';
import { listVotePage } from './store-votes.ts';

export async function votersOf(db: Database, projectId: string, featureId: string, limit: number, offset: number) {
  const { rows, total } = await listVotePage(db, featureId, limit, offset);
  const people = await peopleByAlias(
    db,
    projectId,
    'voter_id',
    rows.map((row) => row.voter_id),
  );
  const votes = rows.map((row) => {
    const person = people.get(row.voter_id);
    return {
      voterId: row.voter_id,
      createdAt: row.created_at,
      person: person ? presentPersonSummary(person) : null,
    };
  });
  return { votes, total };
}
