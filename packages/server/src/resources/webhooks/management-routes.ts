/**
 * Management of a project's webhooks: endpoints (list, create, change, delete, rotate the
 * secret), their delivery log, redelivery and a test message. Members read; admins change.
 */
import { clampLimit, errorResponses } from '../../http/common-schemas.ts';
import { ProjectParams, requireSomeField } from '../../http/management-schemas.ts';
import { NotFoundError } from '../../kernel/errors.ts';
import type { ManagementApp, ManagementDeps } from '../../routing/management/context.ts';
import { dashboardLinks, TEST_EVENT } from './events.ts';
import { presentDelivery, presentWebhook } from './presenter.ts';
import {
  CreateWebhookBody,
  Delivery,
  DeliveryList,
  DeliveryParams,
  DeliveryQuery,
  UPDATE_FIELDS,
  UpdateWebhookBody,
  Webhook,
  WebhookList,
  WebhookParams,
  WebhookWithSecret,
} from './schemas.ts';
import { createWebhook, editWebhook, removeWebhook, rotateWebhookSecret } from './service.ts';
import { enqueueDelivery, getDelivery, getEndpoint, listDeliveries, listEndpoints } from './store.ts';

const tags = ['webhooks'];

export async function webhookManagementRoutes(app: ManagementApp, { db, config }: ManagementDeps): Promise<void> {
  app.get(
    '/projects/:projectId/webhooks',
    {
      config: { access: { project: 'member' } },
      schema: {
        operationId: 'manageListWebhooks',
        summary: "The project's webhook endpoints",
        tags,
        params: ProjectParams,
        response: { 200: WebhookList, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      const { projectId } = request.params;
      return { webhooks: (await listEndpoints(db, projectId)).map(presentWebhook) };
    },
  );

  app.post(
    '/projects/:projectId/webhooks',
    {
      config: { access: { project: 'admin' } },
      schema: {
        operationId: 'manageCreateWebhook',
        summary: 'Create a webhook endpoint; the answer shows its signing secret, this once',
        tags,
        params: ProjectParams,
        body: CreateWebhookBody,
        response: { 201: WebhookWithSecret, ...errorResponses(400, 401, 403, 404, 409, 413, 415) },
      },
    },
    async (request, reply) => {
      const { projectId } = request.params;
      return reply.code(201).send(await createWebhook(db, config, projectId, request.body));
    },
  );

  app.get(
    '/projects/:projectId/webhooks/:webhookId',
    {
      config: { access: { project: 'member' } },
      schema: {
        operationId: 'manageGetWebhook',
        summary: 'One webhook endpoint',
        tags,
        params: WebhookParams,
        response: { 200: Webhook, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      const { projectId, webhookId } = request.params;
      const row = await getEndpoint(db, projectId, webhookId);
      if (!row) throw new NotFoundError();
      return presentWebhook(row);
    },
  );

  app.patch(
    '/projects/:projectId/webhooks/:webhookId',
    {
      config: { access: { project: 'admin' } },
      schema: {
        operationId: 'manageUpdateWebhook',
        summary: 'Change a webhook endpoint; enabling it again clears its failures',
        tags,
        params: WebhookParams,
        body: UpdateWebhookBody,
        response: { 200: Webhook, ...errorResponses(400, 401, 403, 404, 413, 415) },
      },
    },
    async (request) => {
      const { projectId, webhookId } = request.params;
      const body = request.body;
      requireSomeField(body, UPDATE_FIELDS);
      const row = await editWebhook(db, config, projectId, webhookId, body);
      if (!row) throw new NotFoundError();
      return presentWebhook(row);
    },
  );

  app.delete(
    '/projects/:projectId/webhooks/:webhookId',
    {
      config: { access: { project: 'admin' } },
      schema: {
        operationId: 'manageDeleteWebhook',
        summary: 'Delete a webhook endpoint and its delivery log',
        tags,
        params: WebhookParams,
        response: { 204: { type: 'null', description: 'Deleted' }, ...errorResponses(401, 403, 404) },
      },
    },
    async (request, reply) => {
      const { projectId, webhookId } = request.params;
      if (!(await removeWebhook(db, projectId, webhookId))) throw new NotFoundError();
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/projects/:projectId/webhooks/:webhookId/rotate-secret',
    {
      config: { access: { project: 'admin' } },
      schema: {
        operationId: 'manageRotateWebhookSecret',
        summary: 'Replace the signing secret; the answer shows the new one, this once',
        tags,
        params: WebhookParams,
        response: { 200: WebhookWithSecret, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      const { projectId, webhookId } = request.params;
      const answer = await rotateWebhookSecret(db, config, projectId, webhookId);
      if (!answer) throw new NotFoundError();
      return answer;
    },
  );

  app.get(
    '/projects/:projectId/webhooks/:webhookId/deliveries',
    {
      config: { access: { project: 'member' } },
      schema: {
        operationId: 'manageListWebhookDeliveries',
        summary: "The endpoint's delivery log, newest first",
        tags,
        params: WebhookParams,
        querystring: DeliveryQuery,
        response: { 200: DeliveryList, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { projectId, webhookId } = request.params;
      if (!(await getEndpoint(db, projectId, webhookId))) throw new NotFoundError();
      const limit = clampLimit(request.query.limit, 50, 200);
      const offset = request.query.offset ?? 0;
      const { rows, total } = await listDeliveries(db, projectId, webhookId, limit, offset);
      return { deliveries: rows.map(presentDelivery), total, limit, offset };
    },
  );

  app.post(
    '/projects/:projectId/webhooks/:webhookId/deliveries/:deliveryId/redeliver',
    {
      config: { access: { project: 'admin' } },
      schema: {
        operationId: 'manageRedeliverWebhook',
        summary: 'Send a message again, as a new delivery with the same webhook-id',
        tags,
        params: DeliveryParams,
        response: { 202: Delivery, ...errorResponses(401, 403, 404) },
      },
    },
    async (request, reply) => {
      const { projectId, webhookId, deliveryId } = request.params;
      const original = await getDelivery(db, projectId, webhookId, deliveryId);
      if (!original) throw new NotFoundError();
      const row = await enqueueDelivery(db, {
        endpointId: original.endpoint_id,
        projectId,
        event: original.event,
        itemKey: original.item_key,
        payload: original.payload,
        messageId: original.message_id,
      });
      return reply.code(202).send(presentDelivery(row));
    },
  );

  app.post(
    '/projects/:projectId/webhooks/:webhookId/test',
    {
      config: { access: { project: 'admin' } },
      schema: {
        operationId: 'manageTestWebhook',
        summary: 'Queue a `webhook.test` message to the endpoint (sent once, even when disabled)',
        tags,
        params: WebhookParams,
        response: { 202: Delivery, ...errorResponses(401, 403, 404) },
      },
    },
    async (request, reply) => {
      const { projectId, webhookId } = request.params;
      const endpoint = await getEndpoint(db, projectId, webhookId);
      if (!endpoint) throw new NotFoundError();
      const payload = {
        type: TEST_EVENT,
        timestamp: new Date().toISOString(),
        data: {
          projectId,
          webhookId,
          message: 'A test message from Signpost',
          url: dashboardLinks(config.publicUrl, projectId).webhooks(),
        },
      };
      const row = await enqueueDelivery(db, {
        endpointId: webhookId,
        projectId,
        event: TEST_EVENT,
        itemKey: `test:${webhookId}`,
        payload: JSON.stringify(payload),
      });
      return reply.code(202).send(presentDelivery(row));
    },
  );
}
