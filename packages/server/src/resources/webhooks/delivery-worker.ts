/**
 * Sends the webhook messages queued in webhook_deliveries. Every `WEBHOOKS_POLL_MS` it asks (one
 * read, which writes nothing when the outbox is idle) whether anything is due; if so it claims a
 * few messages with a lease (store.ts `claimDue`: on PostgreSQL FOR UPDATE SKIP LOCKED, so several
 * processes claim disjoint messages; an item's later message waits for its earlier one to the same
 * endpoint), signs each with the `standardwebhooks` library and POSTs it (target.ts: resolved and
 * checked address, timeout, no redirects). A 2xx marks it delivered; anything else is tried again
 * after a pause that doubles each time (WEBHOOKS_RETRY_BASE_MS, at most 8 hours), and given up as
 * `failed` after WEBHOOKS_MAX_ATTEMPTS. WEBHOOKS_DISABLE_AFTER deliveries given up in a row
 * disable the endpoint, and its team is told by e-mail: the notice is made due in the
 * transaction that disables it and sent by this worker, with the same lease and backoff as a
 * message (store.ts `claimNotices`), so neither a crash nor a mail server that is down loses it.
 * Settled messages older than
 * WEBHOOKS_LOG_RETENTION_DAYS leave the log (checked every 10 minutes per process).
 *
 * A process that dies (kill -9) leaves its claimed messages `sending`; once their lease has run
 * out any worker claims them again, so nothing queued is lost. The one case that sends a message
 * twice is a death between the endpoint's answer and the `delivered` mark; every attempt carries
 * the same `webhook-id`, by which receivers tell copies apart.
 */
import type { FastifyBaseLogger } from 'fastify';
import { Webhook } from 'standardwebhooks';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { serverKey } from '../../db/instance-keys.ts';
import { drainDue } from '../../kernel/leased-queue.ts';
import { PollingWorker } from '../../kernel/poller.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { dashboardLinks } from './events.ts';
import { renderBody } from './format.ts';
import { projectTeam } from './read-model.ts';
import { webhookSecret } from './secret.ts';
import {
  type AttemptOutcome,
  anyNoticeDue,
  anythingDue,
  claimDue,
  claimNotices,
  clearFailures,
  countFailure,
  type DeliveryRow,
  type EndpointRow,
  getEndpoint,
  markDelivered,
  markFailed,
  pruneSettled,
  release,
  settleNotice,
} from './store.ts';
import { sendWebhook } from './target.ts';

/** Messages claimed at once. */
const BATCH = 10;
/** How often one process prunes the delivery log. */
const PRUNE_EVERY_MS = 10 * 60 * 1000;
/** The longest pause between two attempts. */
const MAX_BACKOFF_MS = 8 * 60 * 60 * 1000;

/** The pause after the `attempts`-th failed attempt. */
export function backoffMs(retryBaseMs: number, attempts: number): number {
  return Math.min(MAX_BACKOFF_MS, retryBaseMs * 2 ** (attempts - 1));
}

export interface DeliveryWorkerOptions {
  db: Database;
  config: Config;
  mailer: Mailer;
  log: FastifyBaseLogger;
}

export class DeliveryWorker extends PollingWorker {
  private key: string | undefined;
  private prunedAt = 0;
  private readonly options: DeliveryWorkerOptions;

  constructor(options: DeliveryWorkerOptions) {
    super({ intervalMs: options.config.webhooks.pollMs, name: 'webhooks', log: options.log });
    this.options = options;
  }

  override async runPass(): Promise<void> {
    const { db, config } = this.options;
    const leaseMs = config.webhooks.leaseSeconds * 1000;
    if (Date.now() - this.prunedAt > PRUNE_EVERY_MS) {
      this.prunedAt = Date.now();
      const before = new Date(Date.now() - config.webhooks.logRetentionDays * 86_400_000).toISOString();
      await pruneSettled(db, before);
    }
    await this.sendNotices(leaseMs);
    await drainDue<DeliveryRow>({
      leaseMs,
      stopping: () => this.stopping,
      anythingDue: (now) => anythingDue(db, now),
      claim: (now, leaseUntil) => claimDue(db, { now, leaseUntil, limit: BATCH }),
      release: (delivery, leaseUntil) => release(db, delivery.id, leaseUntil),
      handle: (delivery, leaseUntil) => this.deliver(delivery, leaseUntil),
      // Messages to different endpoints or items go out side by side; an item's messages to one
      // endpoint are never claimed together (the later waits for the earlier to settle).
      concurrent: true,
    });
  }

  private async deliver(delivery: DeliveryRow, lease: string): Promise<void> {
    const { db, config, log } = this.options;
    const endpoint = await getEndpoint(db, delivery.project_id, delivery.endpoint_id);
    if (!endpoint) return; // deleted meanwhile: its deliveries went with it
    this.key ??= await serverKey(db, config.secretKey);
    const secret = webhookSecret(this.key, endpoint.project_id, endpoint.secret_id);
    const body = renderBody(endpoint.format, delivery.payload);
    const signedAt = new Date();
    const signature = new Webhook(secret).sign(delivery.message_id, signedAt, body);
    const result = await sendWebhook({
      url: endpoint.url,
      body,
      headers: {
        'webhook-id': delivery.message_id,
        'webhook-timestamp': String(Math.floor(signedAt.getTime() / 1000)),
        'webhook-signature': signature,
      },
      timeoutMs: config.webhooks.timeoutMs,
      allowPrivate: config.webhooks.allowPrivateTargets,
    });
    const outcome: AttemptOutcome = { status: result.status, responseMs: result.responseMs, error: result.error };
    if (result.error === null) {
      await markDelivered(db, delivery.id, outcome);
      if (delivery.event !== 'webhook.test') await clearFailures(db, endpoint.id);
      return;
    }
    const attempts = Number(delivery.attempts);
    const last = attempts >= config.webhooks.maxAttempts || delivery.event === 'webhook.test';
    const retryAt = last ? null : new Date(Date.now() + backoffMs(config.webhooks.retryBaseMs, attempts)).toISOString();
    log.warn(
      { webhookDelivery: delivery.id, endpoint: endpoint.id, attempts, retryAt, status: result.status },
      `webhooks: delivery failed: ${result.error}`,
    );
    const recorded = await markFailed(db, delivery.id, lease, outcome, retryAt);
    if (recorded && retryAt === null && delivery.event !== 'webhook.test') {
      const disabled = await countFailure(db, endpoint.id, config.webhooks.disableAfter, result.error);
      if (disabled) {
        log.warn({ endpoint: endpoint.id }, 'webhooks: endpoint disabled after repeated failure');
        await this.sendNotices(config.webhooks.leaseSeconds * 1000);
      }
    }
  }

  /** Tells the teams of the endpoints disabled since (or not told at) the last pass. */
  private async sendNotices(leaseMs: number): Promise<void> {
    const { db } = this.options;
    const now = new Date();
    if (!(await anyNoticeDue(db, now.toISOString()))) return;
    const leaseUntil = new Date(now.getTime() + leaseMs).toISOString();
    const claimed = await claimNotices(db, { now: now.toISOString(), leaseUntil, limit: BATCH });
    for (const endpoint of claimed) await this.sendNotice(endpoint);
  }

  /**
   * E-mails every member of the project's team that the endpoint was disabled. A failed send is
   * tried again after the messages' backoff (each member may then get it twice: the same as an
   * outbox message sent again), and given up after WEBHOOKS_MAX_ATTEMPTS.
   */
  private async sendNotice(endpoint: EndpointRow): Promise<void> {
    const { db, config, mailer, log } = this.options;
    try {
      const team = await projectTeam(db, endpoint.project_id);
      if (team) {
        const link = dashboardLinks(config.publicUrl, endpoint.project_id).webhooks();
        const text = [
          `The webhook ${endpoint.url} of ${team.name} was disabled after ${config.webhooks.disableAfter} deliveries in a row failed every attempt.`,
          '',
          `Last error: ${endpoint.disabled_reason ?? 'unknown'}`,
          '',
          `Fix the receiver, then enable the webhook again (its undelivered messages can be redelivered): ${link}`,
        ].join('\n');
        for (const email of team.emails) {
          await mailer.send({ to: email, subject: `Webhook disabled: ${endpoint.url}`, text });
        }
      }
      await settleNotice(db, endpoint.id, null);
    } catch (error) {
      const attempts = Number(endpoint.notice_attempts);
      const retryAt =
        attempts >= config.webhooks.maxAttempts
          ? null
          : new Date(Date.now() + backoffMs(config.webhooks.retryBaseMs, attempts)).toISOString();
      log.error({ err: error, endpoint: endpoint.id, attempts, retryAt }, 'webhooks: could not e-mail the team');
      await settleNotice(db, endpoint.id, retryAt);
    }
  }
}
