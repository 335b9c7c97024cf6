/** What the surfaces mount: the site-config resource's routes and tools (imported by surfaces only). */
export { siteConfigRoutes } from './public-routes.ts';
export { siteConfigManagementRoutes } from './management-routes.ts';
export { ofrepRoutes, OfrepError, OfrepFlags, contextOf, bulkEtag } from './ofrep-routes.ts';
export type { ProjectConfigState } from './read-model.ts';
