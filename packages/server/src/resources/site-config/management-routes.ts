/**
 * Management of a project's site configuration: the whole of it at once, maintenance, debug
 * mode and feature flags here; status messages and environments in their own files. Every write
 * moves `lastUpdated` (see store.ts).
 */
import { isIP } from 'node:net';
import { Type } from 'typebox';
import { isTrue } from '../../db/database.ts';
import { errorResponses } from '../../http/common-schemas.ts';
import { BadRequestError, NotFoundError } from '../../kernel/errors.ts';
import { requireProjectAccess } from '../../management/access.ts';
import type { ManagementApp, ManagementDeps } from '../../management/context.ts';
import { isoOrNull } from '../../db/query.ts';
import { ProjectParams, requireSomeField } from '../../http/management-schemas.ts';
import { readProjectConfigState } from './read-model.ts';
import { renderSiteConfig } from './public-snapshot.ts';
import { SiteConfig } from './public-schemas.ts';
import { etagOf } from '../../http/etag.ts';
import {
  type FlagTargeting,
  type FlagValue,
  type FlagValueType,
  parseTargeting,
  targetingProblem,
} from './flag-targeting.ts';
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
import {
  configWrite,
  deleteFlag,
  getFlag,
  listEnvironments,
  listFlags,
  listMessages,
  putFlag,
  readMaintenance,
  setDebugMode,
  updateMaintenance,
} from './store.ts';

const tags = ['site configuration'];

function validIpRule(value: string): boolean {
  const [address, prefix, ...rest] = value.split('/');
  const version = isIP(address ?? '');
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  const bits = Number(prefix);
  return /^\d{1,3}$/.test(prefix) && bits <= (version === 4 ? 32 : 128);
}

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
      schema: {
        operationId: 'manageGetSiteConfig',
        summary: 'The whole site configuration, inactive and scheduled messages included (role: member)',
        tags,
        params: ProjectParams,
        response: { 200: ManagedSiteConfig, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      await requireProjectAccess(request, request.params.projectId, 'member');
      return whole(request.params.projectId);
    },
  );

  app.patch(
    '/projects/:projectId/site-config',
    {
      schema: {
        operationId: 'manageUpdateSiteSettings',
        summary: 'Turn debug mode on or off (role: admin)',
        tags,
        params: ProjectParams,
        body: SettingsBody,
        response: { 200: ManagedSiteConfig, ...errorResponses(400, 401, 403, 404, 413, 415) },
      },
    },
    async (request) => {
      const { projectId } = request.params;
      await requireProjectAccess(request, projectId, 'admin');
      await configWrite(db, projectId, (tx) => setDebugMode(tx, projectId, request.body.debugMode));
      return whole(projectId);
    },
  );

  app.get(
    '/projects/:projectId/site-config/preview',
    {
      schema: {
        operationId: 'managePreviewSiteConfig',
        summary:
          'What the public GET /site-config answers right now, byte for byte, with its ETag header (role: member)',
        description:
          'The same body, rendered by the same code, as the public endpoint (live and test keys and keyless calls all get it: the configuration is shared). The ETag header is the one the public endpoint sends.',
        tags,
        params: ProjectParams,
        response: { 200: SiteConfig, ...errorResponses(401, 403, 404) },
      },
    },
    async (request, reply) => {
      const { projectId } = request.params;
      await requireProjectAccess(request, projectId, 'member');
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
      schema: {
        operationId: 'manageGetMaintenance',
        summary: 'Maintenance settings (role: member)',
        tags,
        params: ProjectParams,
        response: { 200: Maintenance, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      await requireProjectAccess(request, request.params.projectId, 'member');
      return presentMaintenance(await readMaintenance(db, request.params.projectId));
    },
  );

  app.patch(
    '/projects/:projectId/site-config/maintenance',
    {
      schema: {
        operationId: 'manageUpdateMaintenance',
        summary:
          'Change maintenance settings: any of enabled, type, customHtml, expectedRestoration, showStatusLink, statusPageUrl, whitelist (role: admin)',
        tags,
        params: ProjectParams,
        body: MaintenanceBody,
        response: { 200: Maintenance, ...errorResponses(400, 401, 403, 404, 413, 415) },
      },
    },
    async (request) => {
      const { projectId } = request.params;
      await requireProjectAccess(request, projectId, 'admin');
      const body = request.body;
      requireSomeField(body, MAINTENANCE_FIELDS);
      const badIps = (body.whitelist?.ips ?? []).flatMap((ip, index) => (validIpRule(ip) ? [] : [index]));
      if (badIps.length > 0) {
        const details = badIps.map((index) => ({
          field: `whitelist.ips.${index}`,
          message: 'must be an IPv4 or IPv6 address, optionally with a /prefix',
        }));
        throw new BadRequestError(`Invalid field ${details[0]!.field}: ${details[0]!.message}`, details);
      }
      await configWrite(db, projectId, async (tx) => {
        const current = presentMaintenance(await readMaintenance(tx, projectId));
        return updateMaintenance(tx, projectId, {
          ...body,
          expectedRestoration: body.expectedRestoration === undefined ? undefined : isoOrNull(body.expectedRestoration),
          whitelist: body.whitelist ? { ...current.whitelist, ...body.whitelist } : undefined,
        });
      });
      return presentMaintenance(await readMaintenance(db, projectId));
    },
  );

  app.get(
    '/projects/:projectId/site-config/flags',
    {
      schema: {
        operationId: 'manageListFlags',
        summary: 'Feature flags, by key (role: member)',
        tags,
        params: ProjectParams,
        response: {
          200: Type.Object({ featureFlags: Type.Array(Flag) }, { additionalProperties: false }),
          ...errorResponses(401, 403, 404),
        },
      },
    },
    async (request) => {
      await requireProjectAccess(request, request.params.projectId, 'member');
      return { featureFlags: (await listFlags(db, request.params.projectId)).map(presentFlag) };
    },
  );

  app.put(
    '/projects/:projectId/site-config/flags/:flagKey',
    {
      schema: {
        operationId: 'manageSetFlag',
        summary:
          'Create a feature flag or change it (on/off, typed value per environment, rollout, rules): 201 created, 200 changed (role: admin)',
        tags,
        params: FlagParams,
        body: PutFlagBody,
        response: { 200: Flag, 201: Flag, ...errorResponses(400, 401, 403, 404, 413, 415) },
      },
    },
    async (request, reply) => {
      const { projectId, flagKey } = request.params;
      await requireProjectAccess(request, projectId, 'admin');
      const { enabled, type, offValue, ...changes } = request.body;
      const result = await configWrite(db, projectId, async (tx) => {
        // Fields left out keep what the flag has; the whole is checked against its type.
        const existing = await getFlag(tx, projectId, flagKey);
        const valueType = type ?? ((existing?.value_type ?? 'boolean') as FlagValueType);
        const targeting: FlagTargeting = { ...parseTargeting(existing?.targeting) };
        for (const [name, value] of Object.entries(changes)) {
          if (value === undefined) continue;
          (targeting as Record<string, unknown>)[name] =
            name === 'rolloutPercentage' && value === null ? undefined : value;
        }
        if (offValue === null) delete targeting.offValue;
        else if (offValue !== undefined) targeting.offValue = offValue as FlagValue;
        const problem = targetingProblem(valueType, targeting);
        if (problem) throw new BadRequestError(problem);
        return putFlag(tx, projectId, flagKey, enabled, { valueType, targeting: JSON.stringify(targeting) });
      });
      return reply.code(result!.created ? 201 : 200).send(presentFlag(result!.row));
    },
  );

  app.delete(
    '/projects/:projectId/site-config/flags/:flagKey',
    {
      schema: {
        operationId: 'manageDeleteFlag',
        summary: 'Delete a feature flag (role: admin)',
        tags,
        params: FlagParams,
        response: { 204: { type: 'null', description: 'Deleted' }, ...errorResponses(401, 403, 404) },
      },
    },
    async (request, reply) => {
      const { projectId, flagKey } = request.params;
      await requireProjectAccess(request, projectId, 'admin');
      if (!(await configWrite(db, projectId, (tx) => deleteFlag(tx, projectId, flagKey)))) throw new NotFoundError();
      return reply.code(204).send(null);
    },
  );

  await messageRoutes(app, deps);
  await environmentRoutes(app, deps);
}
