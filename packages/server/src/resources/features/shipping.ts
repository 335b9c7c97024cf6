/**
 * Shipping: publishing a changelog entry moves the ideas it links to `done` (the project's board
 * setting `shipOnPublish`, default on), through the one writer of a feature's status, in the
 * publish's transaction. The status change carries the entry (`shippedIn`), so followers hear of it
 * once, from the entry's "shipped" message, not once more as a status change.
 */
import { onDomainEvent } from '../../db/domain-events.ts';
import { readBoard } from '../board/index.ts';
import { changeFeature, lockFeatures } from './store.ts';

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
