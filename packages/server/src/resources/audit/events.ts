/**
 * Actions other resources already tell as domain events, recorded without their use cases calling
 * the audit log: an idea's or bug's status change (every surface and the changelog's shipping).
 */
import { onDomainEvent } from '../../db/domain-events.ts';
import { recordAudit } from './service.ts';

/** Subscribes the audit log to the domain events; app.ts calls it once per app it builds. */
export function registerAuditHandlers(): void {
  onDomainEvent('feature.status-changed', 'audit', async (tx, event) => {
    if (event.from === event.to) return;
    await recordAudit(tx, {
      projectId: event.projectId,
      action: 'feature.status_changed',
      target: { type: 'feature', id: event.featureId },
      before: { status: event.from },
      after: {
        status: event.to,
        ...(event.response ? { response: event.response } : {}),
        ...(event.shippedIn ? { shippedIn: event.shippedIn } : {}),
      },
    });
  });
}
