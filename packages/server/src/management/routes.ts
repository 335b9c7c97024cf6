/**
 * Every route file of the management API. To add one: write `src/management/<resource>/routes.ts`
 * exporting `async function <resource>Routes(app: ManagementApp, deps: ManagementDeps)`, then add
 * one import and one entry here. See packages/server/README.md, "Management API".
 */
import type { ManagementRoutes } from './context.ts';
import { accountManagementRoutes, adminManagementRoutes, emailManagementRoutes, oidcManagementRoutes } from '../resources/accounts/index.ts';
import { inviteManagementRoutes, teamManagementRoutes } from '../resources/teams/index.ts';
import { tokenManagementRoutes } from '../resources/tokens/index.ts';
import { keyRoutes, projectRoutes } from '../resources/projects/index.ts';
import { changelogManagementRoutes } from '../resources/changelog/index.ts';
import { featureManagementRoutes } from '../resources/features/index.ts';
import { releaseManagementRoutes } from '../resources/releases/index.ts';
import { logManagementRoutes } from '../resources/logs/index.ts';
import { reportManagementRoutes } from '../resources/reports/index.ts';
import { siteConfigManagementRoutes } from '../resources/site-config/index.ts';
import { translationManagementRoutes } from '../resources/translations/index.ts';

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
  logManagementRoutes,
];
