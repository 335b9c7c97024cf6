/** Management of source maps: upload, list and delete a project's artifacts, and resolve a stack with them. */
import { Type } from 'typebox';
import { errorResponses } from '../../http/common-schemas.ts';
import { ProjectParams } from '../../http/management-schemas.ts';
import { NotFoundError } from '../../kernel/errors.ts';
import type { ManagementApp, ManagementDeps } from '../../routing/management/context.ts';
import { UPLOAD_BODY_LIMIT } from './content.ts';
import { presentArtifact } from './presenter.ts';
import { debugIdsFromDebugMeta, resolveFrames } from './resolve.ts';
import {
  Artifact,
  ArtifactParams,
  DeleteReleaseQuery,
  ListQuery,
  OutFrame,
  ResolveBody,
  UploadBody,
} from './schemas.ts';
import { deleteReleaseSourceMaps, deleteSourceMap, uploadArtifacts } from './service.ts';
import { listArtifacts } from './store.ts';
import { normaliseDebugId } from './content.ts';

const tags = ['source-maps'];
const Artifacts = Type.Object({ artifacts: Type.Array(Artifact) }, { additionalProperties: false });

export async function sourceMapManagementRoutes(app: ManagementApp, { db }: ManagementDeps): Promise<void> {
  app.post(
    '/projects/:projectId/source-maps',
    {
      bodyLimit: UPLOAD_BODY_LIMIT,
      config: { access: { project: 'admin' } },
      schema: {
        operationId: 'manageUploadSourceMaps',
        summary:
          'Upload source maps and minified files for a release (and dist), or found by their debug ID; a file of the same release, dist and name is replaced',
        tags,
        params: ProjectParams,
        body: UploadBody,
        response: { 201: Artifacts, ...errorResponses(400, 401, 403, 404, 413, 415) },
      },
    },
    async (request, reply) => {
      const { projectId } = request.params;
      const rows = await uploadArtifacts(db, projectId, request.body);
      return reply.code(201).send({ artifacts: rows.map(presentArtifact) });
    },
  );

  app.get(
    '/projects/:projectId/source-maps',
    {
      config: { access: { project: 'member' } },
      schema: {
        operationId: 'manageListSourceMaps',
        summary: "A project's uploaded artifacts, newest first, by release, dist or debug ID",
        tags,
        params: ProjectParams,
        querystring: ListQuery,
        response: { 200: Artifacts, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { projectId } = request.params;
      const { release, dist, debugId, limit } = request.query;
      const normalised = debugId === undefined ? undefined : (normaliseDebugId(debugId) ?? debugId);
      const rows = await listArtifacts(db, projectId, { release, dist, debugId: normalised }, limit ?? 200);
      return { artifacts: rows.map(presentArtifact) };
    },
  );

  app.delete(
    '/projects/:projectId/source-maps/:artifactId',
    {
      config: { access: { project: 'admin' } },
      schema: {
        operationId: 'manageDeleteSourceMap',
        summary: 'Delete one artifact',
        tags,
        params: ArtifactParams,
        response: { 204: { type: 'null', description: 'Deleted' }, ...errorResponses(401, 403, 404) },
      },
    },
    async (request, reply) => {
      const { projectId, artifactId } = request.params;
      if (!(await deleteSourceMap(db, projectId, artifactId))) throw new NotFoundError();
      return reply.code(204).send(null);
    },
  );

  app.delete(
    '/projects/:projectId/source-maps',
    {
      config: { access: { project: 'admin' } },
      schema: {
        operationId: 'manageDeleteReleaseSourceMaps',
        summary: 'Delete every artifact of a release (and dist)',
        tags,
        params: ProjectParams,
        querystring: DeleteReleaseQuery,
        response: {
          200: Type.Object({ deleted: Type.Integer() }, { additionalProperties: false }),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request) => {
      const { projectId } = request.params;
      const { release, dist } = request.query;
      return { deleted: await deleteReleaseSourceMaps(db, projectId, release, dist) };
    },
  );

  app.post(
    '/projects/:projectId/source-maps/resolve',
    {
      config: { access: { project: 'member' } },
      schema: {
        operationId: 'manageResolveStack',
        summary:
          "Symbolicate a Sentry stack: each frame mapped through the project's source maps (debug IDs from debug_meta, else release and dist) to its original file, function, position and context lines",
        tags,
        params: ProjectParams,
        body: ResolveBody,
        response: {
          200: Type.Object({ frames: Type.Array(OutFrame) }, { additionalProperties: false }),
          ...errorResponses(400, 401, 403, 404, 413, 415),
        },
      },
    },
    async (request) => {
      const { projectId } = request.params;
      const { release, dist, debug_meta: debugMeta, frames } = request.body;
      return {
        frames: await resolveFrames(
          db,
          projectId,
          { release, dist, debugIdsByFile: debugIdsFromDebugMeta(debugMeta) },
          frames,
        ),
      };
    },
  );
}
