import { errorResponses } from '../../http/common-schemas.ts';
import { NotFoundError } from '../../kernel/errors.ts';
import type { ManagementApp, ManagementDeps } from '../../routing/management/context.ts';
import { featureLinks, groupLinks, presentResolution } from './links.ts';
import { releaseOverview } from './overview.ts';
import {
  FeatureLinks,
  FeatureParams,
  GroupLinkParams,
  GroupLinks,
  GroupParams,
  LinkBody,
  OverviewParams,
  OverviewQuery,
  ReleaseOverview,
  Resolution,
  ResolveBody,
} from './schemas.ts';
import { cancelResolution, linkFeatureToGroup, resolveInRelease, unlinkFeatureFromGroup } from './service.ts';

const deleted = { type: 'null', description: 'Deleted' } as const;

export async function releaseHubManagementRoutes(app: ManagementApp, { db }: ManagementDeps): Promise<void> {
  app.get(
    '/projects/:projectId/releases/:version/overview',
    {
      config: { access: { project: 'member' } },
      schema: {
        operationId: 'manageGetReleaseOverview',
        summary:
          "A release's page: health and adoption, what broke (groups new and regressed in it), what shipped (items resolved in it, its changelog entry) and the change from the previous release",
        tags: ['releases'],
        params: OverviewParams,
        querystring: OverviewQuery,
        response: { 200: ReleaseOverview, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { projectId, version } = request.params;
      const found = await releaseOverview(db, {
        projectId,
        version,
        environment: request.query.environment ?? 'live',
        days: request.query.days ?? 14,
      });
      if (!found) throw new NotFoundError();
      return found;
    },
  );

  app.get(
    '/projects/:projectId/error-groups/:groupId/links',
    {
      config: { access: { project: 'member' } },
      schema: {
        operationId: 'manageListErrorGroupLinks',
        summary: 'The ideas and bugs linked to an error group, the people who reported its events, and its resolution',
        tags: ['error-groups'],
        params: GroupParams,
        response: { 200: GroupLinks, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      const { projectId, groupId } = request.params;
      return groupLinks(db, projectId, groupId);
    },
  );

  app.post(
    '/projects/:projectId/error-groups/:groupId/links',
    {
      config: { access: { project: 'admin' } },
      schema: {
        operationId: 'manageLinkErrorGroup',
        summary: 'Link an idea or bug to an error group; linking twice changes nothing',
        tags: ['error-groups'],
        params: GroupParams,
        body: LinkBody,
        response: { 200: GroupLinks, ...errorResponses(400, 401, 403, 404, 413, 415) },
      },
    },
    async (request) => {
      const { projectId, groupId } = request.params;
      await linkFeatureToGroup(db, projectId, groupId, request.body.featureId);
      return groupLinks(db, projectId, groupId);
    },
  );

  app.delete(
    '/projects/:projectId/error-groups/:groupId/links/:featureId',
    {
      config: { access: { project: 'admin' } },
      schema: {
        operationId: 'manageUnlinkErrorGroup',
        summary: 'Unlink an idea or bug from an error group',
        tags: ['error-groups'],
        params: GroupLinkParams,
        response: { 204: deleted, ...errorResponses(401, 403, 404) },
      },
    },
    async (request, reply) => {
      const { projectId, groupId, featureId } = request.params;
      if (!(await unlinkFeatureFromGroup(db, projectId, groupId, featureId))) throw new NotFoundError();
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/projects/:projectId/features/:featureId/error-links',
    {
      config: { access: { project: 'member' } },
      schema: {
        operationId: 'manageListFeatureErrorLinks',
        summary: "An idea's or bug's linked error groups with their events and distinct users, and its resolution",
        tags: ['features'],
        params: FeatureParams,
        response: { 200: FeatureLinks, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      const { projectId, featureId } = request.params;
      return featureLinks(db, projectId, featureId);
    },
  );

  for (const [kind, path, params, tag] of [
    ['errorGroup', '/projects/:projectId/error-groups/:groupId/resolution', GroupParams, 'error-groups'],
    ['feature', '/projects/:projectId/features/:featureId/resolution', FeatureParams, 'features'],
  ] as const) {
    const itemType = kind === 'feature' ? 'feature' : 'error_group';
    const name = kind === 'feature' ? 'Feature' : 'ErrorGroup';
    const idOf = (p: Record<string, string>) => (kind === 'feature' ? p['featureId']! : p['groupId']!);
    app.put(
      path,
      {
        config: { access: { project: 'admin' } },
        schema: {
          operationId: `manageResolve${name}InRelease`,
          summary:
            kind === 'feature'
              ? 'Resolve an idea or bug in a release (or the next one): it moves to done and its followers are told when that release goes live'
              : 'Resolve an error group in the next release (or in a given one): its linked ideas and bugs move to done when that release goes live',
          tags: [tag],
          params,
          body: ResolveBody,
          response: { 200: Resolution, ...errorResponses(400, 401, 403, 404, 413, 415) },
        },
      },
      async (request) => {
        const p = request.params as Record<string, string>;
        const row = await resolveInRelease(db, p['projectId']!, itemType, idOf(p), request.body);
        return presentResolution(row)!;
      },
    );
    app.delete(
      path,
      {
        config: { access: { project: 'admin' } },
        schema: {
          operationId: `manageCancel${name}Resolution`,
          summary: 'Cancel a resolution in a release that has not gone live',
          tags: [tag],
          params,
          response: { 204: deleted, ...errorResponses(401, 403, 404) },
        },
      },
      async (request, reply) => {
        const p = request.params as Record<string, string>;
        if (!(await cancelResolution(db, p['projectId']!, itemType, idOf(p)))) throw new NotFoundError();
        return reply.code(204).send(null);
      },
    );
  }
}
