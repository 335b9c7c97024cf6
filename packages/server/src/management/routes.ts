/**
 * Every route file of the management API. To add one: write `src/management/<resource>/routes.ts`
 * exporting `async function <resource>Routes(app: ManagementApp, deps: ManagementDeps)`, then add
 * one import and one entry here. See packages/server/README.md, "Management API".
 */
import { accountRoutes } from './accounts/routes.ts';
import { emailRoutes } from './accounts/email-routes.ts';
import type { ManagementRoutes } from './context.ts';
import { oidcRoutes } from './oidc/routes.ts';
import { keyRoutes, projectRoutes } from '../resources/projects/index.ts';
import { adminRoutes } from './teams/admin-routes.ts';
import { inviteRoutes } from './teams/invite-routes.ts';
import { teamRoutes } from './teams/routes.ts';
import { tokenRoutes } from './tokens/routes.ts';
import { changelogManagementRoutes } from '../resources/changelog/index.ts';
import { featureManagementRoutes } from './features/routes.ts';
import { releaseManagementRoutes } from '../resources/releases/index.ts';
import { logManagementRoutes } from '../resources/logs/index.ts';
import { reportManagementRoutes } from '../resources/reports/index.ts';
import { siteConfigManagementRoutes } from '../resources/site-config/index.ts';
import { translationManagementRoutes } from '../resources/translations/index.ts';

export const MANAGEMENT_ROUTES: ManagementRoutes[] = [
  accountRoutes,
  emailRoutes,
  oidcRoutes,
  tokenRoutes,
  teamRoutes,
  inviteRoutes,
  adminRoutes,
  projectRoutes,
  keyRoutes,
  featureManagementRoutes,
  changelogManagementRoutes,
  siteConfigManagementRoutes,
  translationManagementRoutes,
  releaseManagementRoutes,
  reportManagementRoutes,
  logManagementRoutes,
];
