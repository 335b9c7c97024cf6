/**
 * Every route file of the management API. To add one: write `src/management/<resource>/routes.ts`
 * exporting `async function <resource>Routes(app: ManagementApp, deps: ManagementDeps)`, then add
 * one import and one entry here. See packages/server/README.md, "Management API".
 */
import { accountRoutes } from './accounts/routes.ts';
import { emailRoutes } from './accounts/email-routes.ts';
import type { ManagementRoutes } from './context.ts';
import { keyRoutes } from './keys/routes.ts';
import { oidcRoutes } from './oidc/routes.ts';
import { projectRoutes } from './projects/routes.ts';
import { adminRoutes } from './teams/admin-routes.ts';
import { inviteRoutes } from './teams/invite-routes.ts';
import { teamRoutes } from './teams/routes.ts';
import { tokenRoutes } from './tokens/routes.ts';
import { changelogManagementRoutes } from './changelog/routes.ts';
import { featureManagementRoutes } from '../resources/features/index.ts';
import { releaseManagementRoutes } from './releases/routes.ts';
import { reportManagementRoutes } from './reports/routes.ts';
import { siteConfigManagementRoutes } from './site-config/routes.ts';
import { translationManagementRoutes } from './translations/routes.ts';

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
];
