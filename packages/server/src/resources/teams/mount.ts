/** What the surfaces mount: the teams resource's routes and tools (imported by surfaces only). */
export { inviteManagementRoutes } from './invite-management-routes.ts';
export { teamManagementRoutes } from './management-routes.ts';
