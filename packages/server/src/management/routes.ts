/**
 * Every route file of the management API. To add one: write `src/resources/<resource>/management-routes.ts`
 * exporting `async function <resource>Routes(app: ManagementApp, deps: ManagementDeps)`, then add
 * one import and one entry here. See packages/server/README.md, "Management API".
 */
import type { ManagementRoutes } from '../routing/management/context.ts';
import {
  accountManagementRoutes,
  adminManagementRoutes,
  attentionManagementRoutes,
  emailManagementRoutes,
  oidcManagementRoutes,
} from '../resources/accounts/mount.ts';
import { inviteManagementRoutes, teamManagementRoutes } from '../resources/teams/mount.ts';
import { tokenManagementRoutes } from '../resources/tokens/mount.ts';
import { keyRoutes, projectExportRoutes, projectRoutes } from '../resources/projects/mount.ts';
import { changelogManagementRoutes } from '../resources/changelog/mount.ts';
import { attachmentManagementRoutes, featureManagementRoutes } from '../resources/features/mount.ts';
import { releaseManagementRoutes } from '../resources/releases/mount.ts';
import { releaseHealthManagementRoutes } from '../resources/release-health/mount.ts';
import { releaseHubManagementRoutes } from '../resources/release-hub/mount.ts';
import { logLineRoutes, logManagementRoutes } from '../resources/logs/mount.ts';
import { tagManagementRoutes } from '../resources/tags/mount.ts';
import { reportManagementRoutes } from '../resources/reports/mount.ts';
import { siteConfigManagementRoutes } from '../resources/site-config/mount.ts';
import { translationManagementRoutes } from '../resources/translations/mount.ts';
import { boardManagementRoutes } from '../resources/board/mount.ts';
import { webhookManagementRoutes } from '../resources/webhooks/mount.ts';
import { peopleManagementRoutes, personDataRoutes } from '../resources/people/mount.ts';
import { notificationManagementRoutes } from '../resources/notifications/mount.ts';
import { sourceMapManagementRoutes } from '../resources/source-maps/mount.ts';
import { auditManagementRoutes } from '../resources/audit/mount.ts';
import { importManagementRoutes } from '../resources/imports/mount.ts';

export const MANAGEMENT_ROUTES: ManagementRoutes[] = [
  accountManagementRoutes,
  emailManagementRoutes,
  oidcManagementRoutes,
  attentionManagementRoutes,
  tokenManagementRoutes,
  teamManagementRoutes,
  inviteManagementRoutes,
  adminManagementRoutes,
  projectRoutes,
  keyRoutes,
  projectExportRoutes,
  featureManagementRoutes,
  attachmentManagementRoutes,
  changelogManagementRoutes,
  siteConfigManagementRoutes,
  translationManagementRoutes,
  releaseManagementRoutes,
  releaseHealthManagementRoutes,
  releaseHubManagementRoutes,
  reportManagementRoutes,
  logManagementRoutes,
  logLineRoutes,
  boardManagementRoutes,
  tagManagementRoutes,
  webhookManagementRoutes,
  peopleManagementRoutes,
  personDataRoutes,
  notificationManagementRoutes,
  sourceMapManagementRoutes,
  auditManagementRoutes,
  importManagementRoutes,
];
