/**
 * Every route file of the management API. To add one: write `src/management/<resource>/routes.ts`
 * exporting `async function <resource>Routes(app: ManagementApp, deps: ManagementDeps)`, then add
 * one import and one entry here. See packages/server/README.md, "Management API".
 */
import type { ManagementRoutes } from './context.ts';
import { accountManagementRoutes, adminManagementRoutes, emailManagementRoutes, oidcManagementRoutes } from '../resources/accounts/index.ts';
import { inviteManagementRoutes, teamManagementRoutes } from '../resources/teams/index.ts';
import { tokenManagementRoutes } from '../resources/tokens/index.ts';
import { keyRoutes } from './keys/routes.ts';
import { projectRoutes } from './projects/routes.ts';
import { changelogManagementRoutes } from './changelog/routes.ts';
import { featureManagementRoutes } from './features/routes.ts';
import { releaseManagementRoutes } from './releases/routes.ts';
import { reportManagementRoutes } from './reports/routes.ts';
import { siteConfigManagementRoutes } from './site-config/routes.ts';
import { translationManagementRoutes } from './translations/routes.ts';

export const MANAGEMENT_ROUTES: ManagementRoutes[] = [
  accountManagementRoutes,
  emailManagementRoutes,
  oidcManagementRoutes,
  tokenManagementRoutes,
  teamManagementRoutes,
  inviteManagementRoutes,
  adminManagementRoutes,
  projectRoutes,
  keyRoutes,
  featureManagementRoutes,
  changelogManagementRoutes,
  siteConfigManagementRoutes,
  translationManagementRoutes,
  releaseManagementRoutes,
  reportManagementRoutes,
];
