import { Type } from 'typebox';
import { errorResponses } from '../../http/common-schemas.ts';
import { NotFoundError } from '../../kernel/errors.ts';
import { etagOf, ifNoneMatchHits } from '../../http/etag.ts';
import type { App, Deps } from '../../routing/public-api/context.ts';
import { ChangeCache } from '../../http/change-cache.ts';
import { VersionedCache } from '../../http/versioned-cache.ts';
import { type RenderedSiteConfig, renderSiteConfig } from './public-snapshot.ts';
import { readProjectConfigState, type ProjectConfigState } from './read-model.ts';
import { SiteConfig } from './public-schemas.ts';

export async function siteConfigRoutes(app: App, { db }: Deps): Promise<void> {
  // One entry per project, valid while the project's config_version is unchanged (every write
  // bumps it, in any process) and until the next scheduled message starts or ends.
  const cache = new VersionedCache<RenderedSiteConfig>(1000);
  // The project's version row itself, memoised until the next commit where the database can tell.
  const projects = new ChangeCache<ProjectConfigState | undefined>(db);

  app.get(
    '/site-config',
    {
      config: { memo: true },
      schema: {
        operationId: 'getSiteConfig',
        summary: 'Site configuration of a project (no API key): maintenance, messages, flags, environments',
        description:
          'Answers with an ETag; send it back as If-None-Match (bare, quoted, weak, a list or *) for a 304 with no body.',
        tags: ['site'],
        querystring: Type.Object({ projectId: Type.String({ minLength: 1, maxLength: 100 }) }),
        response: { 200: SiteConfig, 304: Type.Null({ description: 'Not modified' }), ...errorResponses(400, 404) },
      },
    },
    async (request, reply) => {
      const { projectId } = request.query;
      const project = await projects.get(projectId, () => readProjectConfigState(db, projectId));
      if (!project) throw new NotFoundError();
      const now = Date.now();
      let entry = cache.get(projectId, Number(project.config_version), now);
      if (!entry) {
        entry = await renderSiteConfig(db, project, new Date(now));
        cache.set(projectId, Number(project.config_version), entry, entry.snapshot.staleAt);
      }
      if (entry.snapshot.staleAt !== undefined) request.memoStaleAt = entry.snapshot.staleAt;
      reply.header('etag', etagOf(entry.hash)).header('cache-control', 'no-cache');
      if (ifNoneMatchHits(request.headers['if-none-match'], entry.hash)) return reply.code(304).send(null);
      return reply
        .type('application/json; charset=utf-8')
        .serializer((payload: unknown) => payload as string)
        .send(entry.json as never);
    },
  );
}
