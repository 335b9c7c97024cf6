/** What the surfaces mount: the people resource's routes (imported by surfaces only). */
export { peopleManagementRoutes } from './management-routes.ts';
export { personDataRoutes } from './data-routes.ts';
