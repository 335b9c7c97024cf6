/** Management of a project's changelog: drafts, published entries, publishing and unpublishing. */
import { clampLimit, errorResponses } from '../../http/common-schemas.ts';
import { NotFoundError } from '../../kernel/errors.ts';
import type { ManagementApp, ManagementDeps } from '../../routing/management/context.ts';
import { ProjectParams, requireSomeField } from '../../http/management-schemas.ts';
import { presentManagedEntry } from './presenter.ts';
import { sanitizeDescription } from './sanitize.ts';
import {
  CreateEntryBody,
  EntryPage,
  EntryParams,
  ListEntriesQuery,
  ManagedEntry,
  PreviewAnswer,
  PreviewBody,
  UPDATE_FIELDS,
  UpdateEntryBody,
} from './schemas.ts';
import { getEntry, linkedFeaturesOf, listEntries } from './read-model.ts';
import { createEntry, editEntry, publishEntry, removeEntry } from './service.ts';

const tags = ['changelog'];

export async function changelogManagementRoutes(app: ManagementApp, { db }: ManagementDeps): Promise<void> {
  const present = async (projectId: string, entryId: string) => {
    const row = await getEntry(db, projectId, entryId);
    if (!row) throw new NotFoundError();
    const links = await linkedFeaturesOf(db, [row.id]);
    return presentManagedEntry(row, links.get(row.id));
  };

  app.get(
    '/projects/:projectId/changelog',
    {
      config: { access: { project: 'member' } },
      schema: {
        operationId: 'manageListChangelog',
        summary: 'Changelog entries, drafts included, newest first',
        tags,
        params: ProjectParams,
        querystring: ListEntriesQuery,
        response: { 200: EntryPage, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { projectId } = request.params;
      const limit = clampLimit(request.query.limit, 50, 200);
      const offset = request.query.offset ?? 0;
      const { rows, total } = await listEntries(db, projectId, { ...request.query, limit, offset });
      const links = await linkedFeaturesOf(
        db,
        rows.map((row) => row.id),
      );
      return { entries: rows.map((row) => presentManagedEntry(row, links.get(row.id))), total, limit, offset };
    },
  );

  app.post(
    '/projects/:projectId/changelog',
    {
      config: { access: { project: 'admin' } },
      schema: {
        operationId: 'manageCreateChangelogEntry',
        summary: 'Create an entry, standalone (statusKey new, improved or fixed) or linked to features it ships',
        tags,
        params: ProjectParams,
        body: CreateEntryBody,
        response: { 201: ManagedEntry, ...errorResponses(400, 401, 403, 404, 413, 415) },
      },
    },
    async (request, reply) => {
      const { projectId } = request.params;
      const id = await createEntry(db, projectId, request.body);
      return reply.code(201).send(await present(projectId, id));
    },
  );

  app.post(
    '/projects/:projectId/changelog/preview',
    {
      config: { access: { project: 'admin' } },
      schema: {
        operationId: 'managePreviewChangelogDescription',
        summary: 'Sanitise a description as a create or edit would, storing nothing: what the board will show',
        tags,
        params: ProjectParams,
        body: PreviewBody,
        response: { 200: PreviewAnswer, ...errorResponses(400, 401, 403, 404, 413, 415) },
      },
    },
    async (request) => {
      return { description: sanitizeDescription(request.body.description) };
    },
  );

  app.get(
    '/projects/:projectId/changelog/:entryId',
    {
      config: { access: { project: 'member' } },
      schema: {
        operationId: 'manageGetChangelogEntry',
        summary: 'Read one entry',
        tags,
        params: EntryParams,
        response: { 200: ManagedEntry, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      const { projectId, entryId } = request.params;
      return present(projectId, entryId);
    },
  );

  app.patch(
    '/projects/:projectId/changelog/:entryId',
    {
      config: { access: { project: 'admin' } },
      schema: {
        operationId: 'manageUpdateChangelogEntry',
        summary: 'Edit summary, description, linked feature or status of an entry, or schedule a draft (publishAt)',
        tags,
        params: EntryParams,
        body: UpdateEntryBody,
        response: { 200: ManagedEntry, ...errorResponses(400, 401, 403, 404, 409, 413, 415) },
      },
    },
    async (request) => {
      const { projectId, entryId } = request.params;
      requireSomeField(request.body, UPDATE_FIELDS);
      if (!(await editEntry(db, projectId, entryId, request.body))) throw new NotFoundError();
      return present(projectId, entryId);
    },
  );

  for (const [action, published] of [
    ['publish', true],
    ['unpublish', false],
  ] as const) {
    app.post(
      `/projects/:projectId/changelog/:entryId/${action}`,
      {
        config: { access: { project: 'admin' } },
        schema: {
          operationId: published ? 'managePublishChangelogEntry' : 'manageUnpublishChangelogEntry',
          summary: published
            ? 'Publish an entry now: it shows in the public changelog, publishedAt set to now, any schedule cleared'
            : 'Turn an entry back into a draft: publishedAt and any schedule (publishAt) become null',
          tags,
          params: EntryParams,
          response: { 200: ManagedEntry, ...errorResponses(401, 403, 404) },
        },
      },
      async (request) => {
        const { projectId, entryId } = request.params;
        if (!(await publishEntry(db, projectId, entryId, published))) throw new NotFoundError();
        return present(projectId, entryId);
      },
    );
  }

  app.delete(
    '/projects/:projectId/changelog/:entryId',
    {
      config: { access: { project: 'admin' } },
      schema: {
        operationId: 'manageDeleteChangelogEntry',
        summary: 'Delete an entry',
        tags,
        params: EntryParams,
        response: { 204: { type: 'null', description: 'Deleted' }, ...errorResponses(401, 403, 404) },
      },
    },
    async (request, reply) => {
      const { projectId, entryId } = request.params;
      if (!(await removeEntry(db, projectId, entryId))) throw new NotFoundError();
      return reply.code(204).send(null);
    },
  );
}
