/** What the surfaces mount: the logs resource's routes and tools (imported by surfaces only). */
export { logManagementRoutes } from './management-routes.ts';
export { logRoutes } from './public-routes.ts';
export { logLineRoutes } from './line-routes.ts';
export { LinesWorker } from './lines-worker.ts';
export { logLinePartitions } from './partitions.ts';
