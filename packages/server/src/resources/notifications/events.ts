/**
 * Follower e-mails queued by domain events (db/domain-events.ts), in the transaction of the
 * change: a status change of an idea (not one made by publishing an entry), and a changelog entry
 * linked to ideas being published (one message per follower of each linked idea).
 * Ideas that are internal or held for moderation notify no one.
 */
import { onDomainEvent } from '../../db/domain-events.ts';
import { newId } from '../../kernel/ids.ts';
import { featureForNotice } from './read-model.ts';
import { enqueueForFollowers, enqueueStatusChange, projectUndoWindow } from './store.ts';

export interface NotificationHandlerOptions {
  /** The right-hand side of the Message-IDs given at queueing (the sender's domain). */
  messageIdDomain: string;
  /** The instance's undo window (NOTIFY_UNDO_SECONDS); a project's setting wins. */
  undoWindowSeconds?: number;
}

/**
 * Subscribes the outbox to the domain events; app.ts calls it once per app it builds (a second
 * call replaces the first: the handlers are per process).
 */
export function registerNotificationHandlers(options: NotificationHandlerOptions): void {
  const { messageIdDomain } = options;
  const instanceWindow = options.undoWindowSeconds ?? 60;
  onDomainEvent('feature.status-changed', 'notifications', async (tx, event) => {
    // The team chose not to tell: nothing new is queued (a message already waiting in the undo
    // window still goes out, rendered from the idea's state then). A status set by publishing a
    // changelog entry: the entry's "shipped" message tells followers.
    if (event.from === event.to || event.notify === false || event.shippedIn) return;
    const feature = await featureForNotice(tx, event.featureId);
    if (!feature?.public) return;
    await enqueueStatusChange(tx, {
      projectId: event.projectId,
      featureId: event.featureId,
      eventKey: event.releasedIn?.entryId
        ? `changelog.published:${event.releasedIn.entryId}:${event.featureId}`
        : `feature.status-changed:${event.featureId}:${newId('evt')}`,
      payload: {
        kind: 'status-changed',
        title: feature.title,
        from: event.from,
        to: event.to,
        response: event.response ?? null,
      },
      messageIdDomain,
      windowSeconds: (await projectUndoWindow(tx, event.projectId)) ?? instanceWindow,
    });
  });
  onDomainEvent('changelog.published', 'notifications', async (tx, event) => {
    for (const featureId of event.featureIds) {
      const feature = await featureForNotice(tx, featureId);
      if (!feature?.public) continue;
      await enqueueForFollowers(tx, {
        projectId: event.projectId,
        featureId,
        // One entry ships an idea once: unpublishing and publishing it again notifies no one again.
        eventKey: `changelog.published:${event.entryId}:${featureId}`,
        payload: { kind: 'shipped', title: feature.title, summary: event.summary, entryId: event.entryId },
        messageIdDomain,
      });
    }
  });
}

/** The domain of a `Name <address@domain>` sender, for Message-IDs. */
export function domainOfSender(mailFrom: string): string {
  const match = /@([A-Za-z0-9.-]+)>?\s*$/.exec(mailFrom);
  return match?.[1] ?? 'signpost.localhost';
}
