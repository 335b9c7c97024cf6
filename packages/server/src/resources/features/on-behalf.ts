/**
 * Filing an idea on someone's behalf (issue 30): the team heard it in a call or an e-mail and files
 * it for that person. The one use case the management route and the dashboard share. The person is
 * one of the project's people, or made from a new address; the idea is theirs (their address, their
 * board user), their vote is counted, and it is triaged (the team has looked at it). One
 * transaction: a refusal leaves nothing behind.
 */
import type { Database } from '../../db/database.ts';
import { BadRequestError } from '../../kernel/errors.ts';
import { onBehalfAuthor } from '../people/index.ts';
import { createFeature } from './service.ts';
import { getFeature, markTriaged, type FeatureRow } from './store.ts';
import { addVoteInTransaction } from './store-votes.ts';

export interface OnBehalfInput {
  title: string;
  description: string;
  type?: 'feature' | 'bug' | undefined;
  internal?: boolean | undefined;
  /** One of the project's people, or an address (a person made the first time) with an optional name. */
  author: { personId: string } | { email: string; name?: string | undefined };
}

export async function createFeatureOnBehalf(
  db: Database,
  projectId: string,
  platformProjectId: string,
  input: OnBehalfInput,
): Promise<FeatureRow> {
  return db.transaction(async (tx) => {
    const author = await onBehalfAuthor(tx, projectId, input.author);
    if (!author) {
      const message = 'is not a person of this project';
      throw new BadRequestError(`Invalid field personId: ${message}`, [{ field: 'personId', message }]);
    }
    if (author.email === null && author.boardUserId === null) {
      const message = 'this person has no e-mail address or board account to file the idea under; give email instead';
      throw new BadRequestError(`Invalid field personId: ${message}`, [{ field: 'personId', message }]);
    }
    const row = await createFeature(
      tx,
      { scope: { projectId, environment: 'live' }, platformProjectId },
      {
        title: input.title,
        description: input.description,
        type: input.type,
        internal: input.internal,
        contactEmail: author.email ?? undefined,
        boardUserId: author.boardUserId ?? undefined,
      },
    );
    await addVoteInTransaction(tx, projectId, row.id, author.voterId);
    await markTriaged(tx, projectId, [row.id]);
    return (await getFeature(tx, projectId, row.id))!;
  });
}
