/** Site configuration (maintenance, status messages, feature flags, environments, debug mode). */
export { siteConfigRoutes } from './public-routes.ts';
export { siteConfigManagementRoutes } from './management-routes.ts';
// Project creation and settings, seed and tests: the default maintenance row, the version bump,
// and the writes that fill a configuration.
export { createMaintenanceDefaults, insertEnvironment, insertMessage, putFlag } from './store.ts';
