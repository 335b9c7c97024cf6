/** What the surfaces mount: the translations resource's routes and tools (imported by surfaces only). */
export { translationRoutes } from './public-routes.ts';
export { i18nTelemetryRoutes } from './telemetry-public-routes.ts';
export { translationManagementRoutes } from './management-routes.ts';
