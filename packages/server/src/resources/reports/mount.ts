/** What the surfaces mount: the reports resource's routes and tools (imported by surfaces only). */
export { reportManagementRoutes, type KindRoutes } from './management-routes.ts';
export { reportRoutes } from './public-routes.ts';
