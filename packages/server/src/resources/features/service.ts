/**
 * Creating a feature, the one use case three surfaces share: POST /features, the MCP tool
 * create_feature and POST /bugs with createFeature. Kind, initial visibility, length bounds and
 * the submission limit are decided here, once.
 */
import type { Database, Queryable } from '../../db/database.ts';
import { hitSlidingWindow, rateLimitHeaders } from '../../http/rate-limit.ts';
import { TooManyRequestsError } from '../../kernel/errors.ts';
import type { Scope } from '../../kernel/scope.ts';
import { DESCRIPTION_LENGTH, TITLE_LENGTH, type CreateFeatureBody } from './schemas.ts';
import { insertFeature, type FeatureRow } from './store.ts';
import { initialInternal, storedKind } from './visibility.ts';
import { touchPerson } from '../people/index.ts';

/** 50 submissions per 5 minutes per API key (or OAuth grant), whichever surface they come through. */
export const FEATURE_SUBMISSION_LIMIT = { name: 'features:create', max: 50, windowMs: 5 * 60 * 1000 };

export type FeatureSubmission = Pick<
  CreateFeatureBody,
  'title' | 'description' | 'type' | 'internal' | 'channel' | 'contactEmail' | 'metadata'
> & {
  /** From the board: who submitted it, and whether moderation holds it. */
  boardUserId?: string | undefined;
  held?: boolean | undefined;
};

export interface Submitter {
  /** The project and key environment the item belongs to. */
  scope: Scope;
  /** The platform's own project, whose new items start internal (visibility.ts). */
  platformProjectId: string;
  /**
   * Counts FEATURE_SUBMISSION_LIMIT against this caller before writing. REST leaves it out: its
   * route config has the public API's hook count the same limit before the body is parsed, so
   * RateLimit headers go out on every answer. Bug reports leave it out: a bug's linked feature
   * is not a submission of its own.
   */
  limitedCaller?: { db: Database; callerId: string };
}

/**
 * Writes a new feature request or bug through `db` (a connection, or the transaction of the bug
 * report it belongs to). Text longer than the bounds is cut to them (a bug's title and message
 * may be longer than a feature's); the surfaces' schemas refuse what is too short.
 * Throws TooManyRequestsError when the caller's limit is used up.
 */
export async function createFeature(
  db: Queryable,
  submitter: Submitter,
  input: FeatureSubmission,
): Promise<FeatureRow> {
  const { scope, platformProjectId, limitedCaller } = submitter;
  if (limitedCaller) {
    const { max, windowMs } = FEATURE_SUBMISSION_LIMIT;
    const state = await hitSlidingWindow(
      limitedCaller.db,
      `${FEATURE_SUBMISSION_LIMIT.name}:${limitedCaller.callerId}`,
      max,
      windowMs,
    );
    if (!state.allowed) {
      throw new TooManyRequestsError(
        `Rate limit exceeded: at most ${max} features per 5 minutes. Try again in ${Math.max(1, state.resetSeconds)} seconds.`,
        rateLimitHeaders(state),
      );
    }
  }
  const row = await insertFeature(db, scope, {
    ...storedKind(input.type),
    title: input.title.slice(0, TITLE_LENGTH.max),
    description: input.description.slice(0, DESCRIPTION_LENGTH.max),
    internal: initialInternal(input.internal, input.channel, scope.projectId, platformProjectId),
    channel: input.channel,
    contactEmail: input.contactEmail,
    metadata: input.metadata,
    held: input.held,
    boardUserId: input.boardUserId,
  });
  // The submitter's address makes them a person of the project (resources/people).
  if (input.contactEmail) await touchPerson(db, scope.projectId, 'email', input.contactEmail.trim().toLowerCase());
  return row;
}
