/** What the surfaces mount: the board resource's routes (imported by surfaces only). */
export { boardManagementRoutes } from './management-routes.ts';
