/** What the surfaces mount: the source-maps resource's routes (imported by surfaces only). */
export { sourceMapManagementRoutes } from './management-routes.ts';
export { sentryCliRoutes } from './sentry-cli-routes.ts';
