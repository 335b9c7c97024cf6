import type { App, Deps } from '../../routing/public-api/context.ts';
import { commentRoutes } from './comments-public-routes.ts';
import { featureRoutes } from './features-public-routes.ts';
import { roadmapRoutes } from './roadmap-public-routes.ts';
import { voteRoutes } from './votes-public-routes.ts';
import { widgetRoutes } from './widget-public-routes.ts';

/** The resource's routes of /api/public/v1, each in its own scope, in the order the OpenAPI document lists them. */
export async function featurePublicRoutes(app: App, deps: Deps): Promise<void> {
  for (const routes of [featureRoutes, voteRoutes, commentRoutes, roadmapRoutes, widgetRoutes]) {
    await app.register(async (scoped) => routes(scoped as App, deps));
  }
}
