import { Type } from 'typebox';
import { isTrue } from '../../db/database.ts';
import { errorResponses } from '../../http/common-schemas.ts';
import { NotFoundError } from '../../kernel/errors.ts';
import type { ManagementApp, ManagementDeps } from '../../routing/management/context.ts';
import { ProjectParams, requireSomeField } from '../../http/management-schemas.ts';
import { readProjectConfigState } from './read-model.ts';
import { renderSiteConfig } from './public-snapshot.ts';
import { SiteConfig } from './public-schemas.ts';
import { etagOf } from '../../http/etag.ts';
import { changeDebugMode, changeMaintenance, removeFlag, setFlag } from './service.ts';
import { flagHistoryRoutes } from './flag-history-routes.ts';
import { environmentRoutes } from './environment-management-routes.ts';
import { messageRoutes } from './message-management-routes.ts';
import { presentEnvironment, presentFlag, presentMaintenance, presentMessage } from './presenter.ts';
import {
  Flag,
  FlagParams,
  Maintenance,
  MAINTENANCE_FIELDS,
  MaintenanceBody,
  ManagedSiteConfig,
  PutFlagBody,
  SettingsBody,
} from './schemas.ts';
import { listEnvironments, listFlags, listMessages, readMaintenance } from './store.ts';

const tags = ['site configuration'];

export async function siteConfigManagementRoutes(app: ManagementApp, deps: ManagementDeps): Promise<void> {
  const { db } = deps;

  const whole = async (projectId: string) => {
    const [maintenance, messages, flags, environments, project] = await Promise.all([
      readMaintenance(db, projectId),
      listMessages(db, projectId),
      listFlags(db, projectId),
      listEnvironments(db, projectId),
      readProjectConfigState(db, projectId),
    ]);
    if (!project) throw new NotFoundError();
    const now = new Date().toISOString();
    return {
      maintenance: presentMaintenance(maintenance),
      messages: messages.map((row) => presentMessage(row, now)),
      featureFlags: flags.map(presentFlag),
      debugMode: isTrue(project.debug_mode),
      environments: environments.map(presentEnvironment),
      lastUpdated: project.config_updated_at,
    };
  };

  app.get(
    '/projects/:projectId/site-config',
    {
      config: { access: { project: 'member' } },
      schema: {
        operationId: 'manageGetSiteConfig',
        summary: 'The whole site configuration, inactive and scheduled messages included',
        tags,
        params: ProjectParams,
        response: { 200: ManagedSiteConfig, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      return whole(request.params.projectId);
    },
  );

  app.patch(
    '/projects/:projectId/site-config',
    {
      config: { access: { project: 'admin' } },
      schema: {
        operationId: 'manageUpdateSiteSettings',
        summary: 'Turn debug mode on or off',
        tags,
        params: ProjectParams,
        body: SettingsBody,
        response: { 200: ManagedSiteConfig, ...errorResponses(400, 401, 403, 404, 413, 415) },
      },
    },
    async (request) => {
      const { projectId } = request.params;
      await changeDebugMode(db, projectId, request.body.debugMode);
      return whole(projectId);
    },
  );

  app.get(
    '/projects/:projectId/site-config/preview',
    {
      config: { access: { project: 'member' } },
      schema: {
        operationId: 'managePreviewSiteConfig',
        summary: 'What the public GET /site-config answers right now, byte for byte, with its ETag header',
        description:
          'The same body, rendered by the same code, as the public endpoint (live and test keys and keyless calls all get it: the configuration is shared). The ETag header is the one the public endpoint sends.',
        tags,
        params: ProjectParams,
        response: { 200: SiteConfig, ...errorResponses(401, 403, 404) },
      },
    },
    async (request, reply) => {
      const { projectId } = request.params;
      const project = await readProjectConfigState(db, projectId);
      if (!project) throw new NotFoundError();
      const rendered = await renderSiteConfig(db, project, new Date());
      return reply
        .header('etag', etagOf(rendered.hash))
        .header('cache-control', 'no-store')
        .type('application/json; charset=utf-8')
        .serializer((payload: unknown) => payload as string)
        .send(rendered.json as never);
    },
  );

  app.get(
    '/projects/:projectId/site-config/maintenance',
    {
      config: { access: { project: 'member' } },
      schema: {
        operationId: 'manageGetMaintenance',
        summary: 'Maintenance settings',
        tags,
        params: ProjectParams,
        response: { 200: Maintenance, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      return presentMaintenance(await readMaintenance(db, request.params.projectId));
    },
  );

  app.patch(
    '/projects/:projectId/site-config/maintenance',
    {
      config: { access: { project: 'admin' } },
      schema: {
        operationId: 'manageUpdateMaintenance',
        summary:
          'Change maintenance settings: any of enabled, type, customHtml, expectedRestoration, showStatusLink, statusPageUrl, whitelist',
        tags,
        params: ProjectParams,
        body: MaintenanceBody,
        response: { 200: Maintenance, ...errorResponses(400, 401, 403, 404, 413, 415) },
      },
    },
    async (request) => {
      const { projectId } = request.params;
      requireSomeField(request.body, MAINTENANCE_FIELDS);
      await changeMaintenance(db, projectId, request.body);
      return presentMaintenance(await readMaintenance(db, projectId));
    },
  );

  app.get(
    '/projects/:projectId/site-config/flags',
    {
      config: { access: { project: 'member' } },
      schema: {
        operationId: 'manageListFlags',
        summary: 'Feature flags, by key',
        tags,
        params: ProjectParams,
        response: {
          200: Type.Object({ featureFlags: Type.Array(Flag) }, { additionalProperties: false }),
          ...errorResponses(401, 403, 404),
        },
      },
    },
    async (request) => {
      return { featureFlags: (await listFlags(db, request.params.projectId)).map(presentFlag) };
    },
  );

  app.put(
    '/projects/:projectId/site-config/flags/:flagKey',
    {
      config: { access: { project: 'admin' } },
      schema: {
        operationId: 'manageSetFlag',
        summary:
          'Create a feature flag or change it (on/off, typed value per environment, rollout, rules): 201 created, 200 changed',
        tags,
        params: FlagParams,
        body: PutFlagBody,
        response: { 200: Flag, 201: Flag, ...errorResponses(400, 401, 403, 404, 413, 415) },
      },
    },
    async (request, reply) => {
      const { projectId, flagKey } = request.params;
      const result = await setFlag(db, projectId, flagKey, request.body);
      return reply.code(result.created ? 201 : 200).send(presentFlag(result.row));
    },
  );

  app.delete(
    '/projects/:projectId/site-config/flags/:flagKey',
    {
      config: { access: { project: 'admin' } },
      schema: {
        operationId: 'manageDeleteFlag',
        summary: 'Delete a feature flag',
        tags,
        params: FlagParams,
        response: { 204: { type: 'null', description: 'Deleted' }, ...errorResponses(401, 403, 404) },
      },
    },
    async (request, reply) => {
      const { projectId, flagKey } = request.params;
      if (!(await removeFlag(db, projectId, flagKey))) throw new NotFoundError();
      return reply.code(204).send(null);
    },
  );

  await messageRoutes(app, deps);
  await environmentRoutes(app, deps);
  await flagHistoryRoutes(app, deps);
}
