/** Webhooks: what other resources, seed and tests may import. */
export { WEBHOOK_EVENTS, type WebhookEvent, type WebhookBody } from './events.ts';
export { backoffMs } from './delivery-worker.ts';
export { isPublicAddress } from './target.ts';
export { WEBHOOK_FORMATS, type WebhookFormat } from './format-names.ts';
