/** What the surfaces mount: the tokens resource's routes and tools (imported by surfaces only). */
export { tokenManagementRoutes } from './management-routes.ts';
