/** Management of a project's tags and of which tags an idea carries. */
import { errorResponses } from '../../http/common-schemas.ts';
import { BadRequestError, NotFoundError } from '../../kernel/errors.ts';
import type { ManagementApp, ManagementDeps } from '../../routing/management/context.ts';
import { ProjectParams, requireSomeField } from '../../http/management-schemas.ts';
import { getFeature } from '../features/index.ts';
import { presentTag } from './presenter.ts';
import {
  CreateTagBody,
  FeatureTagParams,
  FeatureTags,
  SetFeatureTagsBody,
  Tag,
  TagList,
  TagParams,
  UPDATE_FIELDS,
  UpdateTagBody,
} from './schemas.ts';
import { addTag, editTag, removeTag } from './service.ts';
import { listTags, setFeatureTags, tagsOfFeatures } from './store.ts';

const tags = ['tags'];

/** The name as stored: trimmed, and not empty after trimming. */
function tagName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length === 0) {
    throw new BadRequestError('Invalid field name: must not be blank', [
      { field: 'name', message: 'must not be blank' },
    ]);
  }
  return trimmed;
}

const color = (value: string | null | undefined) => (typeof value === 'string' ? value.toLowerCase() : value);

export async function tagManagementRoutes(app: ManagementApp, { db }: ManagementDeps): Promise<void> {
  app.get(
    '/projects/:projectId/tags',
    {
      config: { access: { project: 'member' } },
      schema: {
        operationId: 'manageListTags',
        summary: "The project's tags, by name",
        tags,
        params: ProjectParams,
        response: { 200: TagList, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      const { projectId } = request.params;
      return { tags: (await listTags(db, projectId)).map(presentTag) };
    },
  );

  app.post(
    '/projects/:projectId/tags',
    {
      config: { access: { project: 'admin' } },
      schema: {
        operationId: 'manageCreateTag',
        summary: 'Create a tag; its name is unique in the project',
        tags,
        params: ProjectParams,
        body: CreateTagBody,
        response: { 201: Tag, ...errorResponses(400, 401, 403, 404, 409, 413, 415) },
      },
    },
    async (request, reply) => {
      const { projectId } = request.params;
      const row = await addTag(db, projectId, {
        name: tagName(request.body.name),
        color: color(request.body.color),
      });
      return reply.code(201).send(presentTag(row));
    },
  );

  app.patch(
    '/projects/:projectId/tags/:tagId',
    {
      config: { access: { project: 'admin' } },
      schema: {
        operationId: 'manageUpdateTag',
        summary: 'Rename or recolour a tag',
        tags,
        params: TagParams,
        body: UpdateTagBody,
        response: { 200: Tag, ...errorResponses(400, 401, 403, 404, 409, 413, 415) },
      },
    },
    async (request) => {
      const { projectId, tagId } = request.params;
      const body = request.body;
      requireSomeField(body, UPDATE_FIELDS);
      const row = await editTag(db, projectId, tagId, {
        name: body.name === undefined ? undefined : tagName(body.name),
        color: color(body.color),
      });
      if (!row) throw new NotFoundError();
      return presentTag(row);
    },
  );

  app.delete(
    '/projects/:projectId/tags/:tagId',
    {
      config: { access: { project: 'admin' } },
      schema: {
        operationId: 'manageDeleteTag',
        summary: 'Delete a tag; the ideas that carry it lose it',
        tags,
        params: TagParams,
        response: { 204: { type: 'null', description: 'Deleted' }, ...errorResponses(401, 403, 404) },
      },
    },
    async (request, reply) => {
      const { projectId, tagId } = request.params;
      if (!(await removeTag(db, projectId, tagId))) throw new NotFoundError();
      return reply.code(204).send(null);
    },
  );

  app.put(
    '/projects/:projectId/features/:featureId/tags',
    {
      config: { access: { project: 'admin' } },
      schema: {
        operationId: 'manageSetFeatureTags',
        summary: "Set an idea's tags: the given tags of the project replace its current ones",
        tags,
        params: FeatureTagParams,
        body: SetFeatureTagsBody,
        response: { 200: FeatureTags, ...errorResponses(400, 401, 403, 404, 413, 415) },
      },
    },
    async (request) => {
      const { projectId, featureId } = request.params;
      if (!(await getFeature(db, projectId, featureId))) throw new NotFoundError();
      const unknown = await setFeatureTags(db, projectId, featureId, request.body.tagIds);
      if (unknown.length > 0) {
        throw new BadRequestError(`Invalid field tagIds: no such tag in this project: ${unknown.join(', ')}`, [
          { field: 'tagIds', message: `no such tag in this project: ${unknown.join(', ')}` },
        ]);
      }
      const byId = new Map((await listTags(db, projectId)).map((row) => [row.id, row]));
      const current = (await tagsOfFeatures(db, [featureId])).get(featureId) ?? [];
      return {
        featureId,
        tags: current.flatMap((tag) => {
          const row = byId.get(tag.id);
          return row ? [presentTag(row)] : [];
        }),
      };
    },
  );
}
