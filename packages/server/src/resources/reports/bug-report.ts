/**
 * POST /bugs's use case: a bug report, counted on its record when repeated within the hour. A new
 * one with `createFeature` gets its linked feature request in the same transaction; one naming the
 * error its user just hit (`metadata.errorEventId`, as the feedback widget sends it: an error
 * report's id or a Sentry event id) is linked to that error's group, as Sentry feedback is.
 */
import type { Static } from 'typebox';
import type { Database } from '../../db/database.ts';
import type { Scope } from '../../kernel/scope.ts';
import { createFeature } from '../features/index.ts';
import type { BugBody } from './schemas.ts';
import { type Occurrence, linkBugToFeature, recordBug } from './store.ts';
import { groupOfErrorRef, linkBugToErrorGroup } from './store-feedback.ts';

export async function reportBug(
  db: Database,
  scope: Scope,
  platformProjectId: string,
  body: Static<typeof BugBody>,
  now: Date,
): Promise<Occurrence> {
  const ref = body.metadata?.['errorEventId'];
  const groupId =
    typeof ref === 'string' && ref.length > 0 && ref.length <= 100
      ? ((await groupOfErrorRef(db, scope.projectId, ref)) ?? null)
      : null;
  return recordBug(db, scope, body, now, async (tx, id) => {
    if (groupId) await linkBugToErrorGroup(tx, id, groupId);
    if (!body.createFeature) return;
    // The same use case as POST /features (kind, visibility, bounds), without its rate limit.
    const feature = await createFeature(
      tx,
      { scope, platformProjectId },
      { title: body.title, description: body.message, type: 'bug', internal: body.internal, channel: body.channel },
    );
    await linkBugToFeature(tx, id, feature.id);
  });
}
