/** The changelog: entries standalone or linked to a feature, drafts and published ones. */
export { changelogRoutes } from './public-routes.ts';
export { changelogManagementRoutes } from './management-routes.ts';
// The seed writes a project's sample entries.
export { insertEntry } from './store.ts';
