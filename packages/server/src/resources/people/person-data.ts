/**
 * One person as the team reads them (their company, ideas, votes and comments): what the
 * management API and the MCP feedback tool answer, built once here. Reads its own tables only, so
 * other resources may import it (index.ts); the export is person-export.ts.
 */
import type { Database } from '../../db/database.ts';
import { presentPerson } from './presenter.ts';
import { activityOfPerson } from './read-model.ts';
import { getPerson } from './store.ts';

const idea = (row: { id: string; title: string; status: string; vote_count: number; created_at: string }) => ({
  id: row.id,
  title: row.title,
  status: row.status,
  voteCount: Number(row.vote_count),
  createdAt: row.created_at,
});

/** A person with their company and activity; undefined for no such person of the project. */
export async function personPage(db: Database, projectId: string, personId: string) {
  const person = await getPerson(db, projectId, personId);
  if (!person) return undefined;
  const activity = await activityOfPerson(db, projectId, personId);
  return {
    person: presentPerson(person),
    ideas: activity.ideas.map(idea),
    votes: activity.votes.map((row) => ({ ...idea(row), votedAt: row.voted_at })),
    comments: activity.comments.map((row) => ({
      id: row.id,
      featureId: row.feature_id,
      featureTitle: row.feature_title,
      body: row.body,
      createdAt: row.created_at,
    })),
  };
}
