/** What the surfaces mount: the projects resource's routes and tools (imported by surfaces only). */
export { keyRoutes } from './keys-management-routes.ts';
export { projectRoutes } from './management-routes.ts';
export { projectExportRoutes } from './export-routes.ts';
