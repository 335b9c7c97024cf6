/** What the surfaces mount: the releases resource's routes and tools (imported by surfaces only). */
export { versionCheckRoutes } from './public-routes.ts';
export { releaseManagementRoutes } from './management-routes.ts';
export { SightingsWorker } from './sightings-worker.ts';
