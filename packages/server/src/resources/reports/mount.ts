/** What the surfaces mount: the reports resource's routes and tools (imported by surfaces only). */
export type { KindRoutes } from './management-routes.ts';
export { reportManagementRoutes } from './lifecycle-routes.ts';
export { reportRoutes } from './public-routes.ts';
export { AlertWorker } from './alert-worker.ts';
export { registerAlertHandlers } from './alerts.ts';
export { errorEventPartitions } from './partitions.ts';
