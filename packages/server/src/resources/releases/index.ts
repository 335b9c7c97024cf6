/** Releases of a project and the public version check that compares client versions with them. */
export { versionCheckRoutes } from './public-routes.ts';
export { releaseManagementRoutes } from './management-routes.ts';
// The seed adds a project's sample releases.
export { insertRelease } from './store.ts';
