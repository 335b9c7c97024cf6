/**
 * What app.ts and the management API mount: the domain-event subscribers that queue webhook
 * messages, the worker that delivers them, and the management routes.
 */
export { registerWebhookHandlers } from './events.ts';
export { DeliveryWorker } from './delivery-worker.ts';
export { webhookManagementRoutes } from './management-routes.ts';
