/** Status messages of the site configuration. */
import { Type } from 'typebox';
import { errorResponses } from '../../http/common-schemas.ts';
import { NotFoundError } from '../../kernel/errors.ts';
import type { ManagementApp, ManagementDeps } from '../../routing/management/context.ts';
import { ProjectParams, requireSomeField } from '../../http/management-schemas.ts';
import { presentMessage } from './presenter.ts';
import { CreateMessageBody, Message, MESSAGE_FIELDS, MessageParams, UpdateMessageBody } from './schemas.ts';
import { createMessage, editMessage, removeMessage } from './service-content.ts';
import { listMessages } from './store.ts';

const tags = ['site configuration'];

export async function messageRoutes(app: ManagementApp, { db }: ManagementDeps): Promise<void> {
  app.get(
    '/projects/:projectId/site-config/messages',
    {
      config: { access: { project: 'member' } },
      schema: {
        operationId: 'manageListMessages',
        summary: 'Every status message, by priority; `live` tells which ones GET /site-config shows now',
        tags,
        params: ProjectParams,
        response: {
          200: Type.Object({ messages: Type.Array(Message) }, { additionalProperties: false }),
          ...errorResponses(401, 403, 404),
        },
      },
    },
    async (request) => {
      const now = new Date().toISOString();
      return { messages: (await listMessages(db, request.params.projectId)).map((row) => presentMessage(row, now)) };
    },
  );

  app.post(
    '/projects/:projectId/site-config/messages',
    {
      config: { access: { project: 'admin' } },
      schema: {
        operationId: 'manageCreateMessage',
        summary: 'Add a status message (type info, success, warning or error; active by default)',
        tags,
        params: ProjectParams,
        body: CreateMessageBody,
        response: { 201: Message, ...errorResponses(400, 401, 403, 404, 413, 415) },
      },
    },
    async (request, reply) => {
      const { projectId } = request.params;
      const created = await createMessage(db, projectId, request.body);
      return reply.code(201).send(presentMessage(created));
    },
  );

  app.patch(
    '/projects/:projectId/site-config/messages/:messageId',
    {
      config: { access: { project: 'admin' } },
      schema: {
        operationId: 'manageUpdateMessage',
        summary: 'Change a status message',
        tags,
        params: MessageParams,
        body: UpdateMessageBody,
        response: { 200: Message, ...errorResponses(400, 401, 403, 404, 413, 415) },
      },
    },
    async (request) => {
      const { projectId, messageId } = request.params;
      requireSomeField(request.body, MESSAGE_FIELDS);
      const updated = await editMessage(db, projectId, messageId, request.body);
      if (!updated) throw new NotFoundError();
      return presentMessage(updated);
    },
  );

  app.delete(
    '/projects/:projectId/site-config/messages/:messageId',
    {
      config: { access: { project: 'admin' } },
      schema: {
        operationId: 'manageDeleteMessage',
        summary: 'Delete a status message',
        tags,
        params: MessageParams,
        response: { 204: { type: 'null', description: 'Deleted' }, ...errorResponses(401, 403, 404) },
      },
    },
    async (request, reply) => {
      const { projectId, messageId } = request.params;
      if (!(await removeMessage(db, projectId, messageId))) throw new NotFoundError();
      return reply.code(204).send(null);
    },
  );
}
