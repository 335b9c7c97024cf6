/** What the surfaces mount: the tags resource's routes (imported by surfaces only). */
export { tagManagementRoutes } from './management-routes.ts';
