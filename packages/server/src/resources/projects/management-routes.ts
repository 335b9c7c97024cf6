/** Projects of the caller's teams: create and update (admin; plan and quota: owner), list and read (member). */
import { Type } from 'typebox';
import type { SqlValue } from '../../db/database.ts';
import { errorResponses } from '../../http/common-schemas.ts';
import { BadRequestError, ForbiddenError } from '../../kernel/errors.ts';
import { projectAccess } from '../../routing/management/declared-access.ts';
import { requireAccount, requireProjectAccess, requireTeamAccess } from '../../routing/management/access.ts';
import type { ManagementApp, ManagementDeps, Role } from '../../routing/management/context.ts';
import { CreateProjectBody, Project, ProjectIdParams, ProjectList, UpdateProjectBody } from './schemas.ts';
import { presentProject } from './presenter.ts';
import { listProjectsOf } from './read-model.ts';
import { createProjectInTeam, slugConflict, updateProjectSettings } from './service.ts';
import { slugTaken } from './store.ts';
import { Assignments } from '../../db/assignments.ts';
import { firstOwnedTeamId } from '../teams/index.ts';

function checkBilling(role: Role, body: { plan?: string | undefined; monthlyQuota?: number | null | undefined }): void {
  if ((body.plan !== undefined || body.monthlyQuota !== undefined) && role !== 'owner') {
    throw new ForbiddenError('Plan and monthly quota are set by the team owner');
  }
}

function checkLocales(defaultLocale: string, supported: readonly string[]): void {
  if (!supported.includes(defaultLocale)) {
    throw new BadRequestError('Invalid field defaultLocale: must be one of supportedLocales', [
      { field: 'defaultLocale', message: 'must be one of supportedLocales' },
    ]);
  }
}

export async function projectRoutes(app: ManagementApp, { db }: ManagementDeps): Promise<void> {
  const tags = ['projects'];

  app.get(
    '/projects',
    {
      schema: {
        operationId: 'listProjects',
        summary: 'Projects of every team the caller belongs to (or of one team)',
        tags,
        querystring: Type.Object({ teamId: Type.Optional(Type.String()) }),
        response: { 200: ProjectList, ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      const rows = await listProjectsOf(db, requireAccount(request).id, request.query.teamId);
      return { projects: rows.map(presentProject) };
    },
  );

  app.post(
    '/projects',
    {
      schema: {
        operationId: 'createProject',
        summary: 'Create a project in one of the caller’s teams (admin; plan and quota: owner)',
        tags,
        body: CreateProjectBody,
        response: { 201: Project, ...errorResponses(400, 401, 403, 404, 409, 413, 415) },
      },
    },
    async (request, reply) => {
      const account = requireAccount(request);
      const body = request.body;
      const teamId = body.teamId ?? (await firstOwnedTeamId(db, account.id));
      if (!teamId)
        throw new BadRequestError('Invalid field teamId: is required', [{ field: 'teamId', message: 'is required' }]);
      // By hand: the team comes from the body (or is the caller's own), not from the path.
      const team = await requireTeamAccess(request, teamId, 'admin');
      checkBilling(team.role, body);
      const defaultLocale = body.defaultLocale ?? body.supportedLocales?.[0] ?? 'en';
      const supportedLocales = body.supportedLocales ?? [defaultLocale];
      checkLocales(defaultLocale, supportedLocales);
      const created = await createProjectInTeam(db, team.id, {
        name: body.name,
        slug: body.slug,
        defaultLocale,
        supportedLocales,
        monthlyQuota: body.monthlyQuota ?? null,
        plan: body.plan ?? null,
      });
      // By hand: the project was created just now; this reads it back with the caller's role.
      return reply.code(201).send(presentProject(await requireProjectAccess(request, created, 'member')));
    },
  );

  app.get(
    '/projects/:projectId',
    {
      config: { access: { project: 'member' } },
      schema: {
        operationId: 'getProject',
        summary: 'A project of one of the caller’s teams; any other is 404',
        tags,
        params: ProjectIdParams,
        response: { 200: Project, ...errorResponses(401, 404) },
      },
    },
    async (request) => presentProject(projectAccess(request)),
  );

  app.patch(
    '/projects/:projectId',
    {
      config: { access: { project: 'admin' } },
      schema: {
        operationId: 'updateProject',
        summary: 'Change name, slug or locales; plan or monthly quota need the owner role',
        tags,
        params: ProjectIdParams,
        body: UpdateProjectBody,
        response: { 200: Project, ...errorResponses(400, 401, 403, 404, 409, 413, 415) },
      },
    },
    async (request) => {
      const project = projectAccess(request);
      const body = request.body;
      checkBilling(project.role, body);
      const columns = new Assignments();
      const set = (column: string, value: SqlValue) => columns.set(column, value);
      if (body.name !== undefined) set('name', body.name.trim());
      if (body.slug !== undefined && body.slug !== project.slug) {
        if (await slugTaken(db, body.slug, project.id)) throw slugConflict();
        set('slug', body.slug);
      }
      const localesChange = body.defaultLocale !== undefined || body.supportedLocales !== undefined;
      if (localesChange) {
        const defaultLocale = body.defaultLocale ?? project.default_locale;
        const supported = body.supportedLocales ?? (JSON.parse(project.supported_locales) as string[]);
        checkLocales(defaultLocale, supported);
        set('default_locale', defaultLocale);
        set('supported_locales', JSON.stringify(supported));
      }
      if (body.plan !== undefined) set('plan', body.plan);
      if (body.monthlyQuota !== undefined) set('monthly_quota', body.monthlyQuota);
      if (columns.empty) throw new BadRequestError('Send at least one field to change');
      await updateProjectSettings(db, project.id, columns, { localesChange }).catch(async (error: unknown) => {
        if (body.slug !== undefined && (await slugTaken(db, body.slug, project.id))) throw slugConflict();
        throw error;
      });
      // By hand: reads the changed project back (with the caller's role), after the update.
      return presentProject(await requireProjectAccess(request, project.id, 'member'));
    },
  );
}
