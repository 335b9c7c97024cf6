/**
 * Sends the follower e-mails queued in notification_outbox. Every `OUTBOX_POLL_MS` it asks (one
 * read, which writes nothing when the outbox is idle) whether anything is due; if so it claims a
 * few messages with a lease (store.ts `claimDue`: on PostgreSQL FOR UPDATE SKIP LOCKED, so
 * several processes claim disjoint messages), sends them one by one through the mailer, and
 * marks each sent the moment the mail server has accepted it. A failed send is tried again after
 * a pause that doubles each time, and given up as `failed` after `OUTBOX_MAX_ATTEMPTS`.
 *
 * A process that dies (kill -9) leaves its claimed messages `sending`; once their lease has run
 * out any worker claims them again, so nothing queued is lost. The one case that sends a message
 * twice is a death (or a database that cannot be written) between the mail server's acceptance
 * and the `sent` mark, a window of one UPDATE; every attempt carries the same Message-ID, by
 * which receiving systems can tell the copies apart.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { serverKey } from '../../db/instance-keys.ts';
import { drainDue } from '../../kernel/leased-queue.ts';
import { PollingWorker } from '../../kernel/poller.ts';
import type { Mailer, MailMessage } from '../../mail/mailer.ts';
import { renderNotice } from './messages.ts';
import { featureForNotice, recipientOf } from './read-model.ts';
import {
  anythingDue,
  claimDue,
  isFollowing,
  markFailed,
  markSent,
  markSkipped,
  release,
  type NotificationPayload,
  type OutboxRow,
} from './store.ts';
import { unsubscribeToken } from './unsubscribe-token.ts';

/** Messages claimed at once: small, so a slow mail server holds few of them under its lease. */
const BATCH = 10;
/** The longest pause between two attempts. */
const MAX_BACKOFF_MS = 6 * 60 * 60 * 1000;

export interface OutboxWorkerOptions {
  db: Database;
  config: Config;
  mailer: Mailer;
  log: FastifyBaseLogger;
}

export class OutboxWorker extends PollingWorker {
  private key: string | undefined;
  private readonly options: OutboxWorkerOptions;

  constructor(options: OutboxWorkerOptions) {
    super({ intervalMs: options.config.outbox.pollMs, name: 'outbox', log: options.log });
    this.options = options;
  }

  /** Sends what is due, batch after batch, until nothing is due or the worker stops. */
  override async runPass(): Promise<void> {
    const { db, config, log } = this.options;
    await drainDue<OutboxRow>({
      leaseMs: config.outbox.leaseSeconds * 1000,
      stopping: () => this.stopping,
      anythingDue: (now) => anythingDue(db, now),
      claim: async (now, leaseUntil) => {
        const claimed = await claimDue(db, { now, leaseUntil, limit: BATCH });
        if (claimed.length > 0) log.debug({ claimed: claimed.map((message) => message.id) }, 'outbox: claimed');
        return claimed;
      },
      release: (message, leaseUntil) => release(db, message.id, leaseUntil),
      handle: (message, leaseUntil) => this.deliver(message, leaseUntil),
    });
  }

  /**
   * Sends one claimed message and records the outcome. Anything that fails before the mail server
   * has accepted it (reading the recipient, rendering, the send) is a failed attempt; a failure to
   * record the acceptance is not (counting it would send the message again).
   */
  private async deliver(message: OutboxRow, lease: string): Promise<void> {
    try {
      const mail = await this.compose(message);
      if (!mail) return;
      await this.options.mailer.send(mail);
    } catch (error) {
      await this.retryLater(message, lease, error);
      return;
    }
    // Accepted by the mail server: record it at once, trying a few times if the database hiccups.
    for (let attempt = 1; ; attempt++) {
      try {
        await markSent(this.options.db, message.id);
        return;
      } catch (error) {
        if (attempt >= 5) throw error;
        await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
      }
    }
  }

  /** The e-mail as it goes out now; undefined (and the row `skipped`) when it should not go out. */
  private async compose(message: OutboxRow): Promise<MailMessage | undefined> {
    const { db, config } = this.options;
    let payload = JSON.parse(message.payload) as NotificationPayload;
    const recipient = await recipientOf(db, message);
    if (!recipient) {
      await markSkipped(db, message.id, 'the recipient or the project is gone');
      return undefined;
    }
    if (message.feature_id === null || !recipient.featurePublic) {
      await markSkipped(db, message.id, 'the idea is gone or no longer public');
      return undefined;
    }
    if (!(await isFollowing(db, message.feature_id, message.user_id))) {
      await markSkipped(db, message.id, 'unfollowed before sending');
      return undefined;
    }
    if (payload.kind === 'status-changed') {
      // Told as the idea is now, after its undo window: back where it started is nothing to tell.
      const now = await featureForNotice(db, message.feature_id);
      if (!now || now.status === payload.from) {
        await markSkipped(db, message.id, 'the status went back within the undo window');
        return undefined;
      }
      payload = { ...payload, title: now.title, to: now.status, response: now.response };
    }
    this.key ??= await serverKey(db, config.secretKey);
    const board = `${config.publicUrl}/b/${encodeURIComponent(recipient.slug)}`;
    const token = unsubscribeToken(this.key, message.project_id, message.user_id, message.feature_id);
    return {
      ...renderNotice(recipient.email, recipient.locale, recipient.boardName, payload, {
        idea: `${board}/ideas/${encodeURIComponent(message.feature_id)}`,
        unsubscribe: `${board}/unsubscribe?token=${encodeURIComponent(token)}`,
      }),
      messageId: message.message_id,
    };
  }

  /** A failed attempt: again after a pause that doubles each time, or given up after the last one. */
  private async retryLater(message: OutboxRow, lease: string, error: unknown): Promise<void> {
    const { db, config, log } = this.options;
    const attempts = Number(message.attempts);
    const reason = error instanceof Error ? error.message : String(error);
    const pause = Math.min(MAX_BACKOFF_MS, config.outbox.retryBaseMs * 2 ** (attempts - 1));
    const retryAt = attempts >= config.outbox.maxAttempts ? null : new Date(Date.now() + pause).toISOString();
    log.warn({ outboxId: message.id, attempts, retryAt, err: error }, 'outbox: sending failed');
    await markFailed(db, message.id, lease, reason, retryAt);
  }
}
