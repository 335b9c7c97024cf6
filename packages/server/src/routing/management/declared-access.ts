/**
 * Declared access of the management API (issue 29). A route names the role it needs in its config
 * instead of calling a check in its handler:
 *
 *   app.get('/projects/:projectId/tags', { config: { access: { project: 'member' } }, schema }, async (request) => {
 *     const project = projectAccess(request);
 *     …
 *   });
 *
 * The onRoute hook of `declareAccess` gives such a route one preHandler that resolves the project
 * (`:projectId`) or team (`:teamId`) with the rules of `access.ts` (another team's project is the
 * same 404 as a missing one; a lower role is a 403 naming both roles), keeps it for the handler
 * (`projectAccess(request)`, `teamAccess(request)`), and appends the role to the route's OpenAPI
 * summary, so the document says what the check does. A route with a `:projectId` or `:teamId`
 * param that declares nothing is refused when it is registered, so the check cannot be forgotten.
 */
import type { FastifyRequest, FastifySchema } from 'fastify';
import { requireProjectAccess, requireTeamAccess } from './access.ts';
import type { ManagementApp, ProjectAccess, Role, TeamAccess } from './context.ts';

/** The role a route needs on the project of its `:projectId`, or on the team of its `:teamId`. */
export type DeclaredAccess = { project: Role } | { team: Role };

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Management API: the role the route needs; checked before the handler runs. */
    access?: DeclaredAccess;
  }
}

// What the preHandler resolved, per request: read through the typed getters below.
const projects = new WeakMap<FastifyRequest, ProjectAccess>();
const teams = new WeakMap<FastifyRequest, TeamAccess>();

/** The project of the route's `:projectId`, as its declared access resolved it. */
export function projectAccess(request: FastifyRequest): ProjectAccess {
  const project = projects.get(request);
  if (!project) throw new Error(`${request.routeOptions.url} declares no project access`);
  return project;
}

/** The team of the route's `:teamId`, as its declared access resolved it. */
export function teamAccess(request: FastifyRequest): TeamAccess {
  const team = teams.get(request);
  if (!team) throw new Error(`${request.routeOptions.url} declares no team access`);
  return team;
}

/** The param a declaration resolves, and which params need one. */
const PARAM_OF = { project: 'projectId', team: 'teamId' } as const;

function paramNames(url: string): string[] {
  return [...url.matchAll(/:([A-Za-z0-9_]+)/g)].map((match) => match[1]!);
}

function checkFor(access: DeclaredAccess): (request: FastifyRequest) => Promise<void> {
  if ('project' in access) {
    return async (request) => {
      const { projectId } = request.params as { projectId: string };
      projects.set(request, await requireProjectAccess(request, projectId, access.project));
    };
  }
  return async (request) => {
    const { teamId } = request.params as { teamId: string };
    teams.set(request, await requireTeamAccess(request, teamId, access.team));
  };
}

/** Reads every management route's declaration as it is registered; call before any route. */
export function declareAccess(app: ManagementApp): void {
  app.addHook('onRoute', (route) => {
    const params = paramNames(route.url);
    const access = route.config?.access;
    if (!access) {
      const undeclared = Object.values(PARAM_OF).find((param) => params.includes(param));
      if (undeclared) {
        throw new Error(
          `${String(route.method)} ${route.url} takes :${undeclared} but declares no access: ` +
            `add config: { access: { ${undeclared === 'projectId' ? 'project' : 'team'}: '<role>' } }`,
        );
      }
      return;
    }
    const [scope, role] = Object.entries(access)[0] as [keyof typeof PARAM_OF, Role];
    if (!params.includes(PARAM_OF[scope])) {
      throw new Error(`${String(route.method)} ${route.url} declares ${scope} access but takes no :${PARAM_OF[scope]}`);
    }
    const own = route.preHandler === undefined ? [] : [route.preHandler].flat();
    route.preHandler = [checkFor(access) as (typeof own)[number], ...own];
    // A new schema object: the HEAD route Fastify adds for a GET shares the original, and gets its own suffix.
    const schema: FastifySchema & { summary?: string } = route.schema ?? {};
    route.schema = { ...schema, summary: schema.summary ? `${schema.summary} (role: ${role})` : `Role: ${role}` };
  });
}
