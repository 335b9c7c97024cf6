/** Projects of the caller's teams: create and update (admin; plan and quota: owner), list and read (member). */
import { Type } from 'typebox';
import type { SqlValue } from '../../db/database.ts';
import { createProject, placeProjectInTeam, slugTaken } from './store.ts';
import { errorResponses } from '../../http/common-schemas.ts';
import { BadRequestError, ConflictError, ForbiddenError } from '../../kernel/errors.ts';
import { requireAccount, requireProjectAccess, requireTeamAccess } from '../../management/access.ts';
import type { ManagementApp, ManagementDeps, Role } from '../../management/context.ts';
import { CreateProjectBody, Project, ProjectIdParams, ProjectList, UpdateProjectBody } from './schemas.ts';
import { presentProject, slugify } from './presenter.ts';
import { listProjectsOf } from './read-model.ts';
import { updateProjectSettings } from './service.ts';
import { Assignments } from '../../db/assignments.ts';
import { firstOwnedTeamId } from '../teams/index.ts';

const slugConflict = () => new ConflictError('Another project already uses this slug');

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
      const team = await requireTeamAccess(request, teamId, 'admin');
      checkBilling(team.role, body);
      const defaultLocale = body.defaultLocale ?? body.supportedLocales?.[0] ?? 'en';
      const supportedLocales = body.supportedLocales ?? [defaultLocale];
      checkLocales(defaultLocale, supportedLocales);
      let slug = body.slug;
      if (slug === undefined) {
        const base = slugify(body.name);
        slug = base;
        for (let n = 2; await slugTaken(db, slug); n++) slug = `${base}-${n}`;
      } else if (await slugTaken(db, slug)) {
        throw slugConflict();
      }
      const created = await db
        .transaction(async (tx) => {
          const project = await createProject(tx, {
            name: body.name.trim(),
            slug: slug!,
            defaultLocale,
            supportedLocales,
            monthlyQuota: body.monthlyQuota ?? null,
          });
          await placeProjectInTeam(tx, project.id, team.id, body.plan ?? null);
          return project.id;
        })
        .catch(async (error: unknown) => {
          if (await slugTaken(db, slug!)) throw slugConflict();
          throw error;
        });
      return reply.code(201).send(presentProject(await requireProjectAccess(request, created, 'member')));
    },
  );

  app.get(
    '/projects/:projectId',
    {
      schema: {
        operationId: 'getProject',
        summary: 'A project of one of the caller’s teams; any other is 404',
        tags,
        params: ProjectIdParams,
        response: { 200: Project, ...errorResponses(401, 404) },
      },
    },
    async (request) => presentProject(await requireProjectAccess(request, request.params.projectId, 'member')),
  );

  app.patch(
    '/projects/:projectId',
    {
      schema: {
        operationId: 'updateProject',
        summary: 'Change name, slug, locales (admin), plan or monthly quota (owner)',
        tags,
        params: ProjectIdParams,
        body: UpdateProjectBody,
        response: { 200: Project, ...errorResponses(400, 401, 403, 404, 409, 413, 415) },
      },
    },
    async (request) => {
      const project = await requireProjectAccess(request, request.params.projectId, 'admin');
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
      return presentProject(await requireProjectAccess(request, project.id, 'member'));
    },
  );
}
