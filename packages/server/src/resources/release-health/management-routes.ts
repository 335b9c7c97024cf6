/** Release health and adoption in the management API: every release of a project, and one over time. */
import { errorResponses } from '../../http/common-schemas.ts';
import { ProjectParams } from '../../http/management-schemas.ts';
import { NotFoundError } from '../../kernel/errors.ts';
import type { ManagementApp, ManagementDeps } from '../../routing/management/context.ts';
import { getDropSettings, updateDropSettings } from './drops.ts';
import { type HealthRange, projectHealth, releaseHealth } from './health.ts';
import { normaliseRelease } from './parse.ts';
import {
  DropSettings,
  DropSettingsBody,
  HealthQuery,
  ProjectHealth,
  ReleaseHealth,
  ReleaseHealthParams,
  ReleaseHealthQuery,
} from './schemas.ts';

const tags = ['releases'];
const DAY_MS = 24 * 3600_000;

function rangeOf(query: { sdkEnvironment?: string | undefined; days?: number | undefined }, now: Date): HealthRange {
  // Whole hours: the range ends after the current hour, so it holds all of it.
  const until = new Date(Math.floor(now.getTime() / 3600_000) * 3600_000 + 3600_000);
  return {
    sdkEnvironment: query.sdkEnvironment,
    since: new Date(until.getTime() - (query.days ?? 14) * DAY_MS),
    until,
  };
}

export async function releaseHealthManagementRoutes(app: ManagementApp, { db }: ManagementDeps): Promise<void> {
  app.get(
    '/projects/:projectId/release-health-settings',
    {
      config: { access: { project: 'member' } },
      schema: {
        operationId: 'manageGetReleaseHealthSettings',
        summary: 'When release.health_dropped is told: threshold, drop against the previous release',
        tags,
        params: ProjectParams,
        response: { 200: DropSettings, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      const { projectId } = request.params;
      return getDropSettings(db, projectId);
    },
  );

  app.patch(
    '/projects/:projectId/release-health-settings',
    {
      config: { access: { project: 'admin' } },
      schema: {
        operationId: 'manageUpdateReleaseHealthSettings',
        summary: 'Change any of crashFreeThreshold, maxDropPoints, minSessions',
        tags,
        params: ProjectParams,
        body: DropSettingsBody,
        response: { 200: DropSettings, ...errorResponses(400, 401, 403, 404, 413, 415) },
      },
    },
    async (request) => {
      const { projectId } = request.params;
      return updateDropSettings(db, projectId, request.body);
    },
  );

  app.get(
    '/projects/:projectId/release-health',
    {
      config: { access: { project: 'member' } },
      schema: {
        operationId: 'manageListReleaseHealth',
        summary:
          'Adoption and health of every release (registered or seen in sessions), newest first, each compared with the one before',
        tags,
        params: ProjectParams,
        querystring: HealthQuery,
        response: { 200: ProjectHealth, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { projectId } = request.params;
      const range = rangeOf(request.query, new Date());
      const scope = { projectId, environment: request.query.environment ?? 'live' };
      const releases = await projectHealth(db, scope, range);
      return {
        since: range.since.toISOString(),
        until: range.until.toISOString(),
        latest: releases[0] ?? null,
        releases,
      };
    },
  );

  app.get(
    '/projects/:projectId/release-health/:version',
    {
      config: { access: { project: 'member' } },
      schema: {
        operationId: 'manageGetReleaseHealth',
        summary: "One release's adoption and health over time, with the previous release's",
        tags,
        params: ReleaseHealthParams,
        querystring: ReleaseHealthQuery,
        response: { 200: ReleaseHealth, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { projectId } = request.params;
      const range = rangeOf(request.query, new Date());
      const bucket = request.query.bucket ?? ((request.query.days ?? 14) <= 2 ? 'hour' : 'day');
      const scope = { projectId, environment: request.query.environment ?? 'live' };
      const found = await releaseHealth(db, scope, normaliseRelease(request.params.version), range, bucket);
      if (!found) throw new NotFoundError();
      return { since: range.since.toISOString(), until: range.until.toISOString(), ...found };
    },
  );
}
