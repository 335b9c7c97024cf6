/**
 * API keys of a project: list by prefix (member), create with chosen scopes, secret or
 * publishable, shown once, and revoke (admin).
 */
import { Type } from 'typebox';
import { errorResponses } from '../../http/common-schemas.ts';
import { NotFoundError } from '../../kernel/errors.ts';
import { projectAccess } from '../../routing/management/declared-access.ts';
import type { ManagementApp, ManagementDeps } from '../../routing/management/context.ts';
import { sentryDsn, sentryDsnTemplate } from '../sentry-ingest/index.ts';
import { presentApiKey } from './presenter.ts';
import { ApiKeySummary, CreatedKey, CreateKeyBody, KeyParams, ProjectIdParams } from './schemas.ts';
import { issueApiKey, withdrawApiKey } from './service.ts';
import { findApiKey, listApiKeys } from './store-keys.ts';

export async function keyRoutes(app: ManagementApp, { db, config }: ManagementDeps): Promise<void> {
  const tags = ['api keys'];
  // Every key shows its Sentry DSN (resources/sentry-ingest); the stored key is only a hash, so
  // with `<key>` in place of the key, except once, when it is created.
  const presentFor = (project: { ingest_number: number }) => (row: Parameters<typeof presentApiKey>[0]) => ({
    ...presentApiKey(row),
    sentryDsn: sentryDsnTemplate(config.publicUrl, Number(project.ingest_number)),
  });
  const find = (projectId: string, keyId: string) => findApiKey(db, projectId, keyId);

  app.get(
    '/projects/:projectId/keys',
    {
      config: { access: { project: 'member' } },
      schema: {
        operationId: 'listApiKeys',
        summary: 'Keys of a project by prefix, newest first, revoked ones included',
        tags,
        params: ProjectIdParams,
        response: {
          200: Type.Object({ keys: Type.Array(ApiKeySummary) }, { additionalProperties: false }),
          ...errorResponses(401, 404),
        },
      },
    },
    async (request) => {
      const project = projectAccess(request);
      const rows = await listApiKeys(db, project.id);
      return { keys: rows.map(presentFor(project)) };
    },
  );

  app.post(
    '/projects/:projectId/keys',
    {
      config: { access: { project: 'admin' } },
      schema: {
        operationId: 'createApiKey',
        summary: 'Create a live or test key with the chosen scopes; the key is shown once',
        tags,
        params: ProjectIdParams,
        body: CreateKeyBody,
        response: { 201: CreatedKey, ...errorResponses(400, 401, 403, 404, 413, 415) },
      },
    },
    async (request, reply) => {
      const project = projectAccess(request);
      const created = await issueApiKey(db, project.id, request.body.environment, request.body.scopes, {
        name: request.body.name?.trim() ?? '',
        publishable: request.body.publishable ?? false,
      });
      return reply.code(201).send({
        key: created.key,
        sentryDsn: sentryDsn(config.publicUrl, created.key, Number(project.ingest_number)),
        apiKey: presentFor(project)((await find(project.id, created.id))!),
      });
    },
  );

  app.delete(
    '/projects/:projectId/keys/:keyId',
    {
      config: { access: { project: 'admin' } },
      schema: {
        operationId: 'revokeApiKey',
        summary: 'Revoke a key; the public API refuses it from the next request on',
        tags,
        params: KeyParams,
        response: { 200: ApiKeySummary, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      const project = projectAccess(request);
      await withdrawApiKey(db, project.id, request.params.keyId);
      const row = await find(project.id, request.params.keyId);
      if (!row) throw new NotFoundError();
      return presentFor(project)(row);
    },
  );
}
