/**
 * What app.ts mounts: the domain-event subscribers that queue follower e-mails, the outbox worker
 * that sends them, and the one-click unsubscribe routes of a board.
 */
export { registerNotificationHandlers, domainOfSender } from './events.ts';
export { OutboxWorker } from './outbox-worker.ts';
export { unsubscribeRoutes } from './unsubscribe-routes.ts';
export { notificationManagementRoutes } from './management-routes.ts';
