/** What the surfaces mount: the audit log's routes and its retention worker. */
export { auditManagementRoutes } from './management-routes.ts';
export { AuditRetentionWorker } from './retention-worker.ts';
export { registerAuditHandlers } from './events.ts';
