/**
 * POST /bugs's use case: a bug report, counted on its record when repeated within the hour. A new
 * one with `createFeature` gets its linked feature request in the same transaction; one naming the
 * error its user just hit (`metadata.errorEventId`, as the feedback widget sends it: an error
 * report's id or a Sentry event id) is linked to that error's group, as Sentry feedback is. A
 * report filed without an idea can get one later from the team (`openFeatureForBug`).
 */
import type { Static } from 'typebox';
import type { Database, Queryable } from '../../db/database.ts';
import type { Scope } from '../../kernel/scope.ts';
import { createFeature } from '../features/index.ts';
import type { BugBody } from './schemas.ts';
import { getReport, type Occurrence, linkBugToFeature, recordBug } from './store.ts';
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
    await openLinkedFeature(tx, { scope, platformProjectId }, id, body);
  });
}

/**
 * The idea of a bug report: the one already linked, else a new one (a feature of type bug, in the
 * inbox) linked both ways. undefined: no such report in the project.
 */
export async function openFeatureForBug(
  db: Database,
  projectId: string,
  platformProjectId: string,
  reportId: string,
): Promise<{ featureId: string; created: boolean } | undefined> {
  return db.transaction(async (tx) => {
    const bug = await getReport<{
      environment: 'live' | 'test';
      title: string;
      message: string;
      feature_id: string | null;
    }>(tx, 'bugs', projectId, reportId);
    if (!bug) return undefined;
    if (bug.feature_id) return { featureId: bug.feature_id, created: false };
    const scope = { projectId, environment: bug.environment };
    const { title, message } = bug;
    return {
      featureId: await openLinkedFeature(tx, { scope, platformProjectId }, reportId, { title, message }),
      created: true,
    };
  });
}

/** Creates the bug's idea and links them: the same use case as POST /features (kind, visibility, bounds), without its rate limit. */
async function openLinkedFeature(
  tx: Queryable,
  context: { scope: Scope; platformProjectId: string },
  reportId: string,
  bug: Pick<Static<typeof BugBody>, 'title' | 'message' | 'internal' | 'channel'>,
): Promise<string> {
  const feature = await createFeature(tx, context, {
    title: bug.title,
    description: bug.message,
    type: 'bug',
    internal: bug.internal,
    channel: bug.channel,
  });
  await linkBugToFeature(tx, reportId, feature.id);
  return feature.id;
}
