/** What the surfaces mount: the changelog resource's routes and tools (imported by surfaces only). */
export { changelogRoutes } from './public-routes.ts';
export { changelogManagementRoutes } from './management-routes.ts';
export { boardChangelogPage } from './board-page.ts';
export { ScheduleWorker } from './schedule-worker.ts';
export { updatesRoutes } from './updates-routes.ts';
