/** What the surfaces and app.ts mount: the release hub's management routes and its handler. */
export { releaseHubManagementRoutes } from './management-routes.ts';
export { registerReleaseHubHandlers } from './service.ts';
