/** Environments of the site configuration (name, slug, URL, colour, debug). */
import { Type } from 'typebox';
import { errorResponses } from '../../http/common-schemas.ts';
import { NotFoundError } from '../../kernel/errors.ts';
import type { ManagementApp, ManagementDeps } from '../../routing/management/context.ts';
import { ProjectParams, requireSomeField } from '../../http/management-schemas.ts';
import { presentEnvironment } from './presenter.ts';
import {
  CreateEnvironmentBody,
  Environment,
  ENVIRONMENT_FIELDS,
  EnvironmentParams,
  UpdateEnvironmentBody,
} from './schemas.ts';
import { createEnvironment, editEnvironment, removeEnvironment } from './service-content.ts';
import { listEnvironments } from './store.ts';

const tags = ['site configuration'];

export async function environmentRoutes(app: ManagementApp, { db }: ManagementDeps): Promise<void> {
  app.get(
    '/projects/:projectId/site-config/environments',
    {
      config: { access: { project: 'member' } },
      schema: {
        operationId: 'manageListEnvironments',
        summary: 'Environments, in their order',
        tags,
        params: ProjectParams,
        response: {
          200: Type.Object({ environments: Type.Array(Environment) }, { additionalProperties: false }),
          ...errorResponses(401, 403, 404),
        },
      },
    },
    async (request) => {
      return { environments: (await listEnvironments(db, request.params.projectId)).map(presentEnvironment) };
    },
  );

  app.post(
    '/projects/:projectId/site-config/environments',
    {
      config: { access: { project: 'admin' } },
      schema: {
        operationId: 'manageCreateEnvironment',
        summary: 'Add an environment; slugs are unique per project',
        tags,
        params: ProjectParams,
        body: CreateEnvironmentBody,
        response: { 201: Environment, ...errorResponses(400, 401, 403, 404, 409, 413, 415) },
      },
    },
    async (request, reply) => {
      const { projectId } = request.params;
      const created = await createEnvironment(db, projectId, request.body);
      return reply.code(201).send(presentEnvironment(created));
    },
  );

  app.patch(
    '/projects/:projectId/site-config/environments/:environmentId',
    {
      config: { access: { project: 'admin' } },
      schema: {
        operationId: 'manageUpdateEnvironment',
        summary: 'Change an environment, addressed by id or slug',
        tags,
        params: EnvironmentParams,
        body: UpdateEnvironmentBody,
        response: { 200: Environment, ...errorResponses(400, 401, 403, 404, 409, 413, 415) },
      },
    },
    async (request) => {
      const { projectId, environmentId } = request.params;
      requireSomeField(request.body, ENVIRONMENT_FIELDS);
      const updated = await editEnvironment(db, projectId, environmentId, request.body);
      if (!updated) throw new NotFoundError();
      return presentEnvironment(updated);
    },
  );

  app.delete(
    '/projects/:projectId/site-config/environments/:environmentId',
    {
      config: { access: { project: 'admin' } },
      schema: {
        operationId: 'manageDeleteEnvironment',
        summary: 'Delete an environment, addressed by id or slug',
        tags,
        params: EnvironmentParams,
        response: { 204: { type: 'null', description: 'Deleted' }, ...errorResponses(401, 403, 404) },
      },
    },
    async (request, reply) => {
      const { projectId, environmentId } = request.params;
      const done = await removeEnvironment(db, projectId, environmentId);
      if (!done) throw new NotFoundError();
      return reply.code(204).send(null);
    },
  );
}
