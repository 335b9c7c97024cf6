/** Logs: what other resources, the surfaces, seed and cli may use. */
export { logManagementRoutes } from './management-routes.ts';
export { logRoutes } from './public-routes.ts';
export { LOG_LEVELS, type LogEntry } from './schemas.ts';
export { storeLogBatch } from './store.ts';
