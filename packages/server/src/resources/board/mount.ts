/** What the surfaces mount: the board resource's pages and routes (imported by surfaces only). */
export { boardSignInPages } from './sign-in-pages.ts';
export { boardManagementRoutes } from './management-routes.ts';
export { boardFeedRoutes } from './feed-routes.ts';
