/** Management of releases, which the public GET /version-check compares client versions with. */
import semver from 'semver';
import { Type } from 'typebox';
import { errorResponses } from '../../http/common-schemas.ts';
import { NotFoundError } from '../../kernel/errors.ts';
import type { ManagementApp, ManagementDeps } from '../../routing/management/context.ts';
import { ProjectParams, requireSomeField } from '../../http/management-schemas.ts';
import { checkVersion } from './check.ts';
import {
  CheckQuery,
  CreateReleaseBody,
  Release,
  RELEASE_FIELDS,
  ReleaseParams,
  SeenRelease,
  UpdateReleaseBody,
  VersionInfo,
} from './schemas.ts';
import { presentRelease } from './presenter.ts';
import { createRelease, editRelease, listReleasesAndSightings, removeRelease } from './service.ts';
import { getRelease } from './store.ts';

const tags = ['releases'];

export async function releaseManagementRoutes(app: ManagementApp, { db }: ManagementDeps): Promise<void> {
  const existing = async (projectId: string, version: string) => {
    const row = await getRelease(db, projectId, version);
    if (!row) throw new NotFoundError();
    return presentRelease(row);
  };
  /** A path's version, normalised; an invalid one cannot exist, so it is a 404. */
  const pathVersion = (raw: string) => {
    const version = semver.valid(raw);
    if (!version) throw new NotFoundError();
    return version;
  };

  app.get(
    '/projects/:projectId/releases',
    {
      config: { access: { project: 'member' } },
      schema: {
        operationId: 'manageListReleases',
        summary:
          'Releases, highest version first, and versions seen in live events or sessions but not created, first seen first',
        tags,
        params: ProjectParams,
        response: {
          200: Type.Object(
            {
              releases: Type.Array(Release),
              seen: Type.Array(SeenRelease, { description: 'Seen, not created: live since first seen' }),
            },
            { additionalProperties: false },
          ),
          ...errorResponses(401, 403, 404),
        },
      },
    },
    async (request) => {
      const { releases, seen } = await listReleasesAndSightings(db, request.params.projectId);
      return {
        releases: releases.map(presentRelease),
        seen: seen.map((row) => ({ version: row.version, source: row.source, firstSeenAt: row.first_seen_at })),
      };
    },
  );

  app.get(
    '/projects/:projectId/releases/check',
    {
      config: { access: { project: 'member' } },
      schema: {
        operationId: 'managePreviewVersionCheck',
        summary:
          'What the public GET /version-check answers now for a client version: the same decision, for a preview',
        tags,
        params: ProjectParams,
        querystring: CheckQuery,
        response: { 200: VersionInfo, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { projectId } = request.params;
      return checkVersion(db, projectId, request.query.currentVersion);
    },
  );

  app.post(
    '/projects/:projectId/releases',
    {
      config: { access: { project: 'admin' } },
      schema: {
        operationId: 'manageCreateRelease',
        summary: 'Add a release; the version must be valid SemVer and new to the project',
        tags,
        params: ProjectParams,
        body: CreateReleaseBody,
        response: { 201: Release, ...errorResponses(400, 401, 403, 404, 409, 413, 415) },
      },
    },
    async (request, reply) => {
      const { projectId } = request.params;
      const created = await createRelease(db, projectId, request.body);
      return reply.code(201).send(presentRelease(created));
    },
  );

  app.get(
    '/projects/:projectId/releases/:version',
    {
      config: { access: { project: 'member' } },
      schema: {
        operationId: 'manageGetRelease',
        summary: 'One release, by version',
        tags,
        params: ReleaseParams,
        response: { 200: Release, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      return existing(request.params.projectId, pathVersion(request.params.version));
    },
  );

  app.patch(
    '/projects/:projectId/releases/:version',
    {
      config: { access: { project: 'admin' } },
      schema: {
        operationId: 'manageUpdateRelease',
        summary: 'Change a release, its version included',
        tags,
        params: ReleaseParams,
        body: UpdateReleaseBody,
        response: { 200: Release, ...errorResponses(400, 401, 403, 404, 409, 413, 415) },
      },
    },
    async (request) => {
      const { projectId } = request.params;
      const version = pathVersion(request.params.version);
      const body = request.body;
      requireSomeField(body, RELEASE_FIELDS);
      const updated = await editRelease(db, projectId, version, body);
      if (!updated) throw new NotFoundError();
      return existing(projectId, updated);
    },
  );

  app.delete(
    '/projects/:projectId/releases/:version',
    {
      config: { access: { project: 'admin' } },
      schema: {
        operationId: 'manageDeleteRelease',
        summary: 'Delete a release',
        tags,
        params: ReleaseParams,
        response: { 204: { type: 'null', description: 'Deleted' }, ...errorResponses(401, 403, 404) },
      },
    },
    async (request, reply) => {
      const { projectId } = request.params;
      if (!(await removeRelease(db, projectId, pathVersion(request.params.version)))) throw new NotFoundError();
      return reply.code(204).send(null);
    },
  );
}
