/**
 * Every route file of the management API. To add one: write `src/management/<resource>/routes.ts`
 * exporting `async function <resource>Routes(app: ManagementApp, deps: ManagementDeps)`, then add
 * one import and one entry here. See packages/server/README.md, "Management API".
 */
import { accountRoutes } from './accounts/routes.ts';
import { emailRoutes } from './accounts/email-routes.ts';
import type { ManagementRoutes } from './context.ts';

export const MANAGEMENT_ROUTES: ManagementRoutes[] = [
  accountRoutes,
  emailRoutes,
];
