/** What the surfaces and app.ts mount: release health's management routes and its worker. */
export { releaseHealthManagementRoutes } from './management-routes.ts';
export { ReleaseHealthWorker } from './worker.ts';
export { sessionRoutes } from './public-routes.ts';
export { sessionPartitions, sessionUserPartitions } from './partitions.ts';
