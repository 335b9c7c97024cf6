/** What the surfaces mount: the imports resource's routes (imported by surfaces only). */
export { importManagementRoutes } from './management-routes.ts';
