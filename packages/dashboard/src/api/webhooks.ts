/** Types of the webhooks screen, from the generated management API types. */
import type { paths } from './schema.gen.ts';

type Json<T> = T extends { content: { 'application/json': infer B } } ? B : never;

export type Webhook = Json<paths['/projects/{projectId}/webhooks']['get']['responses'][200]>['webhooks'][number];
export type WebhookDelivery = Json<
  paths['/projects/{projectId}/webhooks/{webhookId}/deliveries']['get']['responses'][200]
>['deliveries'][number];
export type WebhookEvent = NonNullable<
  paths['/projects/{projectId}/webhooks']['post']['requestBody']
>['content']['application/json']['events'][number];

/**
 * Every event with what it tells. The type checks that this list is exactly the server's enum: an
 * event added to or removed from the API breaks the dashboard's typecheck until it is listed here.
 */
const EVENT_TEXT = {
  'feature.created': 'A feature request or bug is created',
  'feature.status_changed': 'An idea’s status changes',
  'feature.published': 'An internal idea is made public',
  'feature.hidden': 'A public idea is made internal',
  'comment.created': 'A public comment is added',
  'changelog.published': 'A changelog entry is published',
  'error.new_group': 'A new error group is made (its first event)',
  'error.regressed': 'A resolved error group has a new event',
  'translation.missing_key': 'A translation key is reported missing in a locale',
  'error.alert': 'An error alert rule fires (new group, regression or spike)',
  'release.created': 'A release is created (it goes live)',
  'feature.shipped': 'An idea or bug resolved in a release ships with it',
  'release.health_dropped': 'A release’s crash-free sessions drop below the threshold or the previous release’s',
} as const satisfies Record<WebhookEvent, string>;

type Exactly<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const eventsMatch: Exactly<keyof typeof EVENT_TEXT, WebhookEvent> = true;
void eventsMatch;

export const WEBHOOK_EVENTS = (Object.keys(EVENT_TEXT) as WebhookEvent[]).map((event) => ({
  event,
  description: EVENT_TEXT[event],
}));
