/**
 * Webhook messages queued by domain events (db/domain-events.ts) in the transaction of the change:
 * one outbox row per enabled endpoint of the project that chose the event, so a change and its
 * webhooks commit or roll back together (a process killed before delivery loses nothing). Each
 * message is the Standard Webhooks body `{type, timestamp, data}`, captured at the change.
 */
import type { Queryable } from '../../db/database.ts';
import { onDomainEvent, readOnce, type SharedReads } from '../../db/domain-events.ts';
import { featureTitle } from './read-model.ts';
import { enabledEndpoints, enqueueDelivery } from './store.ts';

export const WEBHOOK_EVENTS = [
  'feature.created',
  'feature.status_changed',
  'feature.published',
  'feature.hidden',
  'comment.created',
  'changelog.published',
  'error.new_group',
  'error.regressed',
  'translation.missing_key',
  'error.alert',
  'release.created',
  'feature.shipped',
  'release.health_dropped',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
/** The event of a send-test message (not subscribable: it goes to the one endpoint tested). */
export const TEST_EVENT = 'webhook.test';

export interface WebhookBody {
  type: string;
  timestamp: string;
  data: Record<string, unknown> & { projectId: string; url: string };
}

/** Links into the dashboard, from PUBLIC_URL. */
export function dashboardLinks(publicUrl: string, projectId: string) {
  const base = `${publicUrl}/app/projects/${encodeURIComponent(projectId)}`;
  return {
    feature: (id: string) => `${base}/inbox/${encodeURIComponent(id)}`,
    changelog: (id: string) => `${base}/changelog/${encodeURIComponent(id)}`,
    error: (id: string) => `${base}/errors/${encodeURIComponent(id)}`,
    group: (id: string) => `${base}/errors/groups/${encodeURIComponent(id)}`,
    translations: () => `${base}/translations`,
    webhooks: () => `${base}/webhooks`,
    release: (version: string) => `${base}/releases/${encodeURIComponent(version)}`,
  };
}

/**
 * Queues `body` for every enabled endpoint of the project that chose `event`, in `tx`. One indexed
 * read when the project has no endpoints (the usual case), so the hot writes stay cheap.
 */
export async function queueEvent(
  tx: Queryable,
  itemKey: string,
  body: WebhookBody,
  shared?: SharedReads,
): Promise<number> {
  const { projectId } = body.data;
  const endpoints = await readOnce(shared, `webhooks:endpoints:${projectId}`, () => enabledEndpoints(tx, projectId));
  let queued = 0;
  for (const endpoint of endpoints) {
    const events = JSON.parse(endpoint.events) as string[];
    if (!events.includes(body.type)) continue;
    await enqueueDelivery(tx, {
      endpointId: endpoint.id,
      projectId: body.data.projectId,
      event: body.type,
      itemKey,
      payload: JSON.stringify(body),
    });
    queued++;
  }
  return queued;
}

/**
 * Subscribes the webhook outbox to the domain events; app.ts calls it once per app it builds (a
 * second call replaces the first: the handlers are per process).
 */
export function registerWebhookHandlers(options: { publicUrl: string }): void {
  const links = (projectId: string) => dashboardLinks(options.publicUrl, projectId);
  const body = (type: WebhookEvent, data: WebhookBody['data']): WebhookBody => ({
    type,
    timestamp: new Date().toISOString(),
    data,
  });

  onDomainEvent('feature.created', 'webhooks', async (tx, event) => {
    await queueEvent(
      tx,
      `feature:${event.featureId}`,
      body('feature.created', {
        projectId: event.projectId,
        environment: event.environment,
        feature: {
          id: event.featureId,
          title: event.title,
          type: event.type,
          status: event.status,
          internal: event.internal,
        },
        url: links(event.projectId).feature(event.featureId),
      }),
    );
  });
  onDomainEvent('feature.status-changed', 'webhooks', async (tx, event) => {
    if (event.from === event.to) return;
    await queueEvent(
      tx,
      `feature:${event.featureId}`,
      body('feature.status_changed', {
        projectId: event.projectId,
        environment: event.environment,
        feature: { id: event.featureId, title: event.title, status: event.to },
        from: event.from,
        to: event.to,
        url: links(event.projectId).feature(event.featureId),
      }),
    );
  });
  // A release went live (issue 33); the ideas and bugs it shipped follow as feature.shipped.
  onDomainEvent('release.created', 'webhooks', async (tx, event) => {
    await queueEvent(
      tx,
      `release:${event.version}`,
      body('release.created', {
        projectId: event.projectId,
        release: { version: event.version, title: event.title },
        url: links(event.projectId).release(event.version),
      }),
    );
  });
  // A release's crash-free sessions dropped (issue 33), once per drop.
  onDomainEvent('release.health-dropped', 'webhooks', async (tx, event) => {
    await queueEvent(
      tx,
      `release:${event.version}`,
      body('release.health_dropped', {
        projectId: event.projectId,
        environment: event.environment,
        release: { version: event.version },
        reason: event.reason,
        crashFreeSessions: event.crashFreeSessions,
        crashFreeUsers: event.crashFreeUsers,
        sessions: event.sessions,
        threshold: event.threshold,
        maxDropPoints: event.maxDropPoints,
        previous: event.previous,
        url: links(event.projectId).release(event.version),
      }),
    );
  });
  onDomainEvent('feature.status-changed', 'webhooks-shipped', async (tx, event) => {
    if (!event.releasedIn || event.from === event.to) return;
    await queueEvent(
      tx,
      `feature:${event.featureId}`,
      body('feature.shipped', {
        projectId: event.projectId,
        environment: event.environment,
        feature: { id: event.featureId, title: event.title, status: event.to },
        release: { version: event.releasedIn.version },
        changelogEntryId: event.releasedIn.entryId,
        url: links(event.projectId).feature(event.featureId),
      }),
    );
  });
  onDomainEvent('feature.visibility-changed', 'webhooks', async (tx, event) => {
    await queueEvent(
      tx,
      `feature:${event.featureId}`,
      body(event.internal ? 'feature.hidden' : 'feature.published', {
        projectId: event.projectId,
        environment: event.environment,
        feature: { id: event.featureId, title: event.title, internal: event.internal },
        url: links(event.projectId).feature(event.featureId),
      }),
    );
  });
  onDomainEvent('comment.created', 'webhooks', async (tx, event) => {
    const endpoints = await enabledEndpoints(tx, event.projectId);
    if (endpoints.length === 0) return;
    await queueEvent(
      tx,
      `feature:${event.featureId}`,
      body('comment.created', {
        projectId: event.projectId,
        environment: event.environment,
        feature: { id: event.featureId, title: (await featureTitle(tx, event.featureId)) ?? null },
        comment: { id: event.commentId, body: event.body, authorName: event.authorName },
        url: links(event.projectId).feature(event.featureId),
      }),
    );
  });
  onDomainEvent('changelog.published', 'webhooks', async (tx, event) => {
    await queueEvent(
      tx,
      `changelog:${event.entryId}`,
      body('changelog.published', {
        projectId: event.projectId,
        entry: { id: event.entryId, summary: event.summary, featureId: event.featureId },
        url: links(event.projectId).changelog(event.entryId),
      }),
    );
  });
  for (const [domain, type] of [
    ['error.new-group', 'error.new_group'],
    ['error.regressed', 'error.regressed'],
  ] as const) {
    onDomainEvent(domain, 'webhooks', async (tx, event, shared) => {
      await queueEvent(
        tx,
        `error-group:${event.groupId}`,
        body(type, {
          projectId: event.projectId,
          environment: event.environment,
          groupId: event.groupId,
          sdkEnvironment: event.sdkEnvironment,
          error: { id: event.errorId, groupId: event.groupId, title: event.title, fingerprint: event.fingerprint },
          url: links(event.projectId).error(event.errorId),
        }),
        shared,
      );
    });
  }
  onDomainEvent('error.alert', 'webhooks', async (tx, event) => {
    const { projectId, ruleId, ruleName, reason, groupId, title, sdkEnvironment, level, events, minutes } = event;
    await queueEvent(
      tx,
      `error-group:${groupId}`,
      body('error.alert', {
        projectId,
        environment: 'live',
        rule: { id: ruleId, name: ruleName, reason },
        groupId,
        sdkEnvironment,
        error: { groupId, title, level },
        ...(events === undefined ? {} : { events, minutes }),
        url: links(projectId).group(groupId),
      }),
    );
  });
  onDomainEvent('translation.missing-key', 'webhooks', async (tx, event) => {
    await queueEvent(
      tx,
      `translation:${event.environment}:${event.locale}:${event.key}`,
      body('translation.missing_key', {
        projectId: event.projectId,
        environment: event.environment,
        key: event.key,
        locale: event.locale,
        url: links(event.projectId).translations(),
      }),
    );
  });
}
