/**
 * Shipping: publishing a changelog entry moves the ideas it links to `done` (the project's board
 * setting `shipOnPublish`, default on), through the one writer of a feature's status, in the
 * publish's transaction. The status change carries the entry (`shippedIn`), so followers hear of it
 * once, from the entry's "shipped" message, not once more as a status change.
 */
import { onDomainEvent } from '../../db/domain-events.ts';
import { readBoard } from '../board/index.ts';
import type { Queryable } from '../../db/database.ts';
import { changeFeature, getFeature, lockFeatures } from './store.ts';

/** Subscribes shipping to `changelog.published`; app.ts calls it once per app it builds. */
export function registerShippingHandler(): void {
  onDomainEvent('changelog.published', 'shipping', async (tx, event) => {
    if (event.featureIds.length === 0) return;
    if (!(await readBoard(tx, event.projectId)).shipOnPublish) return;
    // In id order, as a bulk change locks them, so two publishes cannot deadlock.
    const found = await lockFeatures(tx, event.projectId, event.featureIds);
    for (const featureId of [...found].sort()) {
      await changeFeature(
        tx,
        { projectId: event.projectId },
        featureId,
        { status: 'done' },
        { shippedIn: event.entryId },
      );
    }
  });
}

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
