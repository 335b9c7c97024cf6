/** What the surfaces mount: the features resource's routes and tools (imported by surfaces only). */
export { featurePublicRoutes } from './public-routes.ts';
export { featureManagementRoutes } from './management-routes.ts';
export { registerFeatureTools } from './mcp-tools.ts';
