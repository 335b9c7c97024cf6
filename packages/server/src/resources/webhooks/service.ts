/**
 * Webhook endpoints as the management API changes them: the target's checks, the write and its
 * audit-log entry in one transaction. The log keeps an endpoint's URL as its origin only (a chat
 * webhook's path is its credential: Slack's, Discord's and Teams' URLs carry the token) and never
 * the signing secret or its hint.
 */
import type { Static } from 'typebox';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { serverKey } from '../../db/instance-keys.ts';
import { BadRequestError, ConflictError } from '../../kernel/errors.ts';
import { changes, recordAudit } from '../audit/index.ts';
import { presentWebhook } from './presenter.ts';
import { type CreateWebhookBody, type UpdateWebhookBody, WEBHOOKS_PER_PROJECT_MAX } from './schemas.ts';
import { newSecretId, secretHint, webhookSecret } from './secret.ts';
import {
  deleteEndpoint,
  type EndpointRow,
  getEndpoint,
  insertEndpoint,
  listEndpoints,
  updateEndpoint,
} from './store.ts';
import { isPublicAddress } from './target.ts';

/**
 * A target URL as stored: http(s), no credentials, and (unless private targets are allowed) not a
 * literal loopback or private address. Host names are checked at every delivery, after resolving.
 */
export function targetUrl(raw: string, config: Config): string {
  const refuse = (message: string) => new BadRequestError(`Invalid field url: ${message}`, [{ field: 'url', message }]);
  if (!URL.canParse(raw)) throw refuse('must be an http(s) URL');
  const url = new URL(raw);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw refuse('must be an http(s) URL');
  if (url.username || url.password) throw refuse('must not carry credentials');
  const host = url.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '');
  const literal = /^[\d.]+$/.test(host) || host.includes(':');
  if (!config.webhooks.allowPrivateTargets && (host === 'localhost' || host.endsWith('.localhost'))) {
    throw refuse('loopback and private-network targets are not allowed on this server');
  }
  if (!config.webhooks.allowPrivateTargets && literal && !isPublicAddress(host)) {
    throw refuse('loopback and private-network targets are not allowed on this server');
  }
  return url.toString();
}

async function withSecret(db: Database, config: Config, row: EndpointRow) {
  const key = await serverKey(db, config.secretKey);
  return { ...presentWebhook(row), secret: webhookSecret(key, row.project_id, row.secret_id) };
}

/** An endpoint as the audit log keeps it: the URL's origin, no secret hint, no delivery counters. */
function auditState(row: EndpointRow) {
  const { url, secretHint: _hint, consecutiveFailures: _failures, updatedAt: _updated, ...rest } = presentWebhook(row);
  return { ...rest, url: `${new URL(url).origin}/…` };
}

/** A new endpoint with its signing secret (shown this once); 409 past the per-project limit. */
export async function createWebhook(
  db: Database,
  config: Config,
  projectId: string,
  body: Static<typeof CreateWebhookBody>,
) {
  const url = targetUrl(body.url, config);
  const key = await serverKey(db, config.secretKey);
  const secretId = newSecretId();
  const row = await db.transaction(async (tx) => {
    if ((await listEndpoints(tx, projectId)).length >= WEBHOOKS_PER_PROJECT_MAX) {
      throw new ConflictError(`A project has at most ${WEBHOOKS_PER_PROJECT_MAX} webhooks`);
    }
    const created = await insertEndpoint(tx, projectId, {
      url,
      description: body.description ?? null,
      events: body.events,
      format: body.format ?? 'standard',
      enabled: body.enabled ?? true,
      secretId,
      secretHint: secretHint(webhookSecret(key, projectId, secretId)),
    });
    const after = auditState(created);
    await recordAudit(tx, { projectId, action: 'webhook.created', target: { type: 'webhook', id: created.id }, after });
    return created;
  });
  return withSecret(db, config, row);
}

/** Changes an endpoint (enabling it again clears its failures); undefined when there is none. */
export async function editWebhook(
  db: Database,
  config: Config,
  projectId: string,
  webhookId: string,
  body: Static<typeof UpdateWebhookBody>,
): Promise<EndpointRow | undefined> {
  const url = body.url === undefined ? undefined : targetUrl(body.url, config);
  return db.transaction(async (tx) => {
    const was = await getEndpoint(tx, projectId, webhookId);
    if (!was) return undefined;
    const row = await updateEndpoint(tx, projectId, webhookId, {
      url,
      events: body.events,
      format: body.format,
      enabled: body.enabled,
      description: body.description,
    });
    if (!row) return undefined;
    // A changed URL with the same origin still shows as a change.
    const before = { ...auditState(was), urlChanged: false };
    const after = { ...auditState(row), urlChanged: was.url !== row.url };
    const diff = changes(before, after);
    await recordAudit(tx, {
      projectId,
      action: 'webhook.updated',
      target: { type: 'webhook', id: webhookId },
      ...diff,
    });
    return row;
  });
}

/** Deletes an endpoint and its delivery log; false when there is none. */
export async function removeWebhook(db: Database, projectId: string, webhookId: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const was = await getEndpoint(tx, projectId, webhookId);
    if (!was || !(await deleteEndpoint(tx, projectId, webhookId))) return false;
    await recordAudit(tx, {
      projectId,
      action: 'webhook.deleted',
      target: { type: 'webhook', id: webhookId },
      before: auditState(was),
      after: null,
    });
    return true;
  });
}

/** Replaces the signing secret; the endpoint with the new one (shown this once), or undefined. */
export async function rotateWebhookSecret(db: Database, config: Config, projectId: string, webhookId: string) {
  const key = await serverKey(db, config.secretKey);
  const secretId = newSecretId();
  const row = await db.transaction(async (tx) => {
    const rotated = await updateEndpoint(tx, projectId, webhookId, {
      secretId,
      secretHint: secretHint(webhookSecret(key, projectId, secretId)),
    });
    if (rotated) {
      await recordAudit(tx, {
        projectId,
        action: 'webhook.secret_rotated',
        target: { type: 'webhook', id: webhookId },
      });
    }
    return rotated;
  });
  return row ? withSecret(db, config, row) : undefined;
}
