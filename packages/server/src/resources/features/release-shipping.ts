/** Shipping in a release (issue 33), apart from shipping.ts, which reads the board's settings. */
import type { Queryable } from '../../db/database.ts';
import { changeFeature, getFeature, lockFeatures } from './store.ts';

/**
 * A release went live (issue 33): the ideas and bugs resolved in it move to `done` through the one
 * writer of a feature's status, in the release's transaction, in id order (as a bulk change locks
 * them). Followers hear of it once (the status change, keyed to the drafted entry); `notify` false
 * tells no one. Returns the ids that moved.
 */
export async function shipFeaturesInRelease(
  tx: Queryable,
  projectId: string,
  items: readonly { featureId: string; notify: boolean }[],
  release: { version: string; entryId: string | null },
): Promise<string[]> {
  const notifyOf = new Map(items.map((item) => [item.featureId, item.notify]));
  const found = await lockFeatures(
    tx,
    projectId,
    items.map((item) => item.featureId),
  );
  const moved: string[] = [];
  for (const featureId of [...found].sort()) {
    const before = await getFeature(tx, projectId, featureId);
    if (!before || before.status === 'done' || before.status === 'declined') continue;
    await changeFeature(
      tx,
      { projectId },
      featureId,
      { status: 'done', notify: notifyOf.get(featureId) ?? true },
      { releasedIn: release },
    );
    moved.push(featureId);
  }
  return moved;
}
