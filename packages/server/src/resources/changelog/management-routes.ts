/** Management of a project's changelog: drafts, published entries, publishing and unpublishing. */
import type { Queryable } from '../../db/database.ts';
import { clampLimit, errorResponses } from '../../http/common-schemas.ts';
import { isForeignKeyViolation } from '../../db/failures.ts';
import { BadRequestError, ConflictError, NotFoundError } from '../../kernel/errors.ts';
import { requireProjectAccess } from '../../management/access.ts';
import type { ManagementApp, ManagementDeps } from '../../management/context.ts';
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
import { getEntry, linkedFeaturesOf, listEntries, projectHasFeature } from './read-model.ts';
import { deleteEntry, insertEntry, setPublished, updateEntry } from './store.ts';

const tags = ['changelog'];

const noSuchFeature = () =>
  new BadRequestError('Invalid field featureId: no such feature in this project', [
    { field: 'featureId', message: 'no such feature in this project' },
  ]);

/** The links a body asks for (undefined: unchanged), each checked to be a feature of the project. */
async function checkFeatures(
  db: Queryable,
  projectId: string,
  body: { featureId?: string | null | undefined; featureIds?: string[] | undefined },
): Promise<string[] | undefined> {
  if (body.featureIds !== undefined && body.featureId !== undefined) {
    const message = 'send featureId or featureIds, not both';
    throw new BadRequestError(`Invalid field featureIds: ${message}`, [{ field: 'featureIds', message }]);
  }
  const ids = body.featureIds ?? (body.featureId === undefined ? undefined : body.featureId ? [body.featureId] : []);
  for (const id of ids ?? []) {
    if (!(await projectHasFeature(db, projectId, id))) throw noSuchFeature();
  }
  return ids;
}

/**
 * A schedule as stored: normalised to ISO UTC (the worker compares text), and in the future. A
 * past time is refused rather than published at once, so a slow form never publishes by surprise.
 */
function scheduleTime(publishAt: string | null | undefined): string | null | undefined {
  if (publishAt === undefined || publishAt === null) return publishAt;
  const time = Date.parse(publishAt);
  if (Number.isNaN(time) || time <= Date.now()) {
    const message = 'must be a time in the future (to publish now, publish the entry)';
    throw new BadRequestError(`Invalid field publishAt: ${message}`, [{ field: 'publishAt', message }]);
  }
  return new Date(time).toISOString();
}

/** A write that links a feature checked just before: deleted in between, it is as if it never was. */
async function linking<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isForeignKeyViolation(error)) throw noSuchFeature();
    throw error;
  }
}

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
      schema: {
        operationId: 'manageListChangelog',
        summary: 'Changelog entries, drafts included, newest first (role: member)',
        tags,
        params: ProjectParams,
        querystring: ListEntriesQuery,
        response: { 200: EntryPage, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { projectId } = request.params;
      await requireProjectAccess(request, projectId, 'member');
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
      schema: {
        operationId: 'manageCreateChangelogEntry',
        summary:
          'Create an entry, standalone (statusKey new, improved or fixed) or linked to features it ships (role: admin)',
        tags,
        params: ProjectParams,
        body: CreateEntryBody,
        response: { 201: ManagedEntry, ...errorResponses(400, 401, 403, 404, 413, 415) },
      },
    },
    async (request, reply) => {
      const { projectId } = request.params;
      await requireProjectAccess(request, projectId, 'admin');
      const body = request.body;
      if (body.published && body.publishAt) {
        const message = 'a published entry cannot be scheduled; send one of published and publishAt';
        throw new BadRequestError(`Invalid field publishAt: ${message}`, [{ field: 'publishAt', message }]);
      }
      const publishAt = scheduleTime(body.publishAt);
      const featureIds = (await checkFeatures(db, projectId, body)) ?? [];
      const description = sanitizeDescription(body.description ?? '');
      // One transaction: a published entry's followers' e-mails are queued with it.
      const id = await linking(() =>
        db.transaction((tx) =>
          insertEntry(tx, projectId, {
            summary: body.summary,
            description,
            featureId: featureIds[0] ?? null,
            featureIds,
            statusKey: body.statusKey ?? 'new',
            published: body.published ?? false,
            publishAt,
          }),
        ),
      );
      return reply.code(201).send(await present(projectId, id));
    },
  );

  app.post(
    '/projects/:projectId/changelog/preview',
    {
      schema: {
        operationId: 'managePreviewChangelogDescription',
        summary:
          'Sanitise a description as a create or edit would, storing nothing: what the board will show (role: admin)',
        tags,
        params: ProjectParams,
        body: PreviewBody,
        response: { 200: PreviewAnswer, ...errorResponses(400, 401, 403, 404, 413, 415) },
      },
    },
    async (request) => {
      await requireProjectAccess(request, request.params.projectId, 'admin');
      return { description: sanitizeDescription(request.body.description) };
    },
  );

  app.get(
    '/projects/:projectId/changelog/:entryId',
    {
      schema: {
        operationId: 'manageGetChangelogEntry',
        summary: 'Read one entry (role: member)',
        tags,
        params: EntryParams,
        response: { 200: ManagedEntry, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      const { projectId, entryId } = request.params;
      await requireProjectAccess(request, projectId, 'member');
      return present(projectId, entryId);
    },
  );

  app.patch(
    '/projects/:projectId/changelog/:entryId',
    {
      schema: {
        operationId: 'manageUpdateChangelogEntry',
        summary:
          'Edit summary, description, linked feature or status of an entry, or schedule a draft (publishAt) (role: admin)',
        tags,
        params: EntryParams,
        body: UpdateEntryBody,
        response: { 200: ManagedEntry, ...errorResponses(400, 401, 403, 404, 409, 413, 415) },
      },
    },
    async (request) => {
      const { projectId, entryId } = request.params;
      await requireProjectAccess(request, projectId, 'admin');
      const body = request.body;
      requireSomeField(body, UPDATE_FIELDS);
      const publishAt = scheduleTime(body.publishAt);
      const featureIds = await checkFeatures(db, projectId, body);
      const changed = await linking(() =>
        updateEntry(db, projectId, entryId, {
          ...body,
          featureId: undefined,
          featureIds,
          description: body.description === undefined ? undefined : sanitizeDescription(body.description),
          publishAt,
        }),
      );
      if (!changed) throw new NotFoundError();
      if (changed === 'published') throw new ConflictError('The entry is published; unpublish it before scheduling');
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
        schema: {
          operationId: published ? 'managePublishChangelogEntry' : 'manageUnpublishChangelogEntry',
          summary: published
            ? 'Publish an entry now: it shows in the public changelog, publishedAt set to now, any schedule cleared (role: admin)'
            : 'Turn an entry back into a draft: publishedAt and any schedule (publishAt) become null (role: admin)',
          tags,
          params: EntryParams,
          response: { 200: ManagedEntry, ...errorResponses(401, 403, 404) },
        },
      },
      async (request) => {
        const { projectId, entryId } = request.params;
        await requireProjectAccess(request, projectId, 'admin');
        if (!(await db.transaction((tx) => setPublished(tx, projectId, entryId, published)))) throw new NotFoundError();
        return present(projectId, entryId);
      },
    );
  }

  app.delete(
    '/projects/:projectId/changelog/:entryId',
    {
      schema: {
        operationId: 'manageDeleteChangelogEntry',
        summary: 'Delete an entry (role: admin)',
        tags,
        params: EntryParams,
        response: { 204: { type: 'null', description: 'Deleted' }, ...errorResponses(401, 403, 404) },
      },
    },
    async (request, reply) => {
      const { projectId, entryId } = request.params;
      await requireProjectAccess(request, projectId, 'admin');
      if (!(await deleteEntry(db, projectId, entryId))) throw new NotFoundError();
      return reply.code(204).send(null);
    },
  );
}
