/** What the surfaces mount: the accounts resource's routes and tools (imported by surfaces only). */
export { adminManagementRoutes } from './admin-management-routes.ts';
export { emailManagementRoutes } from './email-management-routes.ts';
export { accountManagementRoutes } from './management-routes.ts';
export { oidcManagementRoutes } from './oidc-management-routes.ts';
export { attentionManagementRoutes } from './attention-management-routes.ts';
