/**
 * The background work of error alerts and kept events (issue 31), one poller per process:
 *
 * - every `ERROR_ALERT_POLL_MS` it sends the alert e-mails due (error_alert_outbox, claimed with a
 *   lease as the follower outbox does, so several processes send disjoint messages; a failed send
 *   is tried again after a doubling pause, and given up after ERROR_ALERT_MAX_ATTEMPTS);
 * - every `ERROR_ALERT_TICK_MS` it checks the spike rules (alerts.ts checkSpikes);
 * - every `ERROR_EVENT_RETENTION_INTERVAL_MS` it deletes kept events older than
 *   `ERROR_EVENT_RETENTION_DAYS`, a hundred groups per statement (store-groups.ts pruneGroupEvents);
 *   on PostgreSQL, where the partition keeper (db/partition-keeper.ts) drops the weeks wholly past,
 *   a thousand events per statement by time (pruneEventsBefore); and the spike marks no window
 *   reaches (store-alerts.ts pruneGroupMarks).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { drainDue } from '../../kernel/leased-queue.ts';
import { PollingWorker } from '../../kernel/poller.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { SPIKE_MINUTES_MAX } from './alert-rules.ts';
import { checkSpikes } from './alerts.ts';
import { teamRecipients } from './alerts-read-model.ts';
import {
  type AlertOutboxRow,
  type AlertPayload,
  anyAlertDue,
  claimDueAlerts,
  markAlertFailed,
  markAlertSent,
  markAlertSkipped,
  pruneGroupMarks,
  releaseAlert,
} from './store-alerts.ts';
import { pruneEventsBefore, pruneGroupEvents } from './store-groups.ts';

const BATCH = 10;
const RETENTION_GROUPS = 100;
/** Events per delete on PostgreSQL (by time, in the edge partition). */
const RETENTION_EVENTS = 1000;
const MAX_BACKOFF_MS = 6 * 60 * 60 * 1000;

export interface AlertWorkerOptions {
  db: Database;
  config: Config;
  mailer: Mailer;
  log: FastifyBaseLogger;
  messageIdDomain: string;
}

const REASONS: Record<AlertPayload['reason'], string> = {
  new_group: 'New error',
  regression: 'Error regressed',
  spike: 'Error spike',
};

export class AlertWorker extends PollingWorker {
  private readonly options: AlertWorkerOptions;
  private lastTick = 0;
  private lastRetention = 0;

  constructor(options: AlertWorkerOptions) {
    super({ intervalMs: options.config.errorAlerts.pollMs, name: 'error alerts', log: options.log });
    this.options = options;
  }

  override async runPass(): Promise<void> {
    const { config } = this.options;
    const now = Date.now();
    if (now - this.lastTick >= config.errorAlerts.tickMs) {
      this.lastTick = now;
      await checkSpikes(this.options.db, new Date(now), this.options.messageIdDomain);
    }
    await this.sendDue();
    if (now - this.lastRetention >= config.errorAlerts.retentionIntervalMs) {
      this.lastRetention = now;
      await this.prune(new Date(now));
    }
  }

  /** Deletes the kept events past retention, in bounded batches; answers how many. */
  async prune(now: Date): Promise<number> {
    const { db, config, log } = this.options;
    const cutoff = new Date(now.getTime() - config.errorAlerts.retentionDays * 86_400_000).toISOString();
    let deleted = 0;
    if (db.dialect === 'postgres') {
      // Partitioned by week: the keeper drops the weeks wholly past; this deletes the rest by time.
      deleted += await this.whileFull(RETENTION_EVENTS, () => pruneEventsBefore(db, cutoff, RETENTION_EVENTS));
    } else {
      let after: string | undefined = '';
      while (after !== undefined && !this.stopping) {
        const batch = await pruneGroupEvents(db, cutoff, after, RETENTION_GROUPS);
        deleted += batch.deleted;
        after = batch.next;
        await this.betweenBatches();
      }
    }
    if (deleted > 0) log.info({ deleted, cutoff }, 'error events: retention deleted old events');
    // Spike marks older than the longest window (a day) are no one's baseline but the latest.
    await pruneGroupMarks(db, new Date(now.getTime() - (SPIKE_MINUTES_MAX + 60) * 60_000).toISOString());
    return deleted;
  }

  private async sendDue(): Promise<void> {
    const { db, config } = this.options;
    await drainDue<AlertOutboxRow>({
      leaseMs: config.errorAlerts.leaseSeconds * 1000,
      stopping: () => this.stopping,
      anythingDue: (now) => anyAlertDue(db, now),
      claim: (now, leaseUntil) => claimDueAlerts(db, { now, leaseUntil, limit: BATCH }),
      release: (row, leaseUntil) => releaseAlert(db, row.id, leaseUntil),
      handle: (row, leaseUntil) => this.deliver(row, leaseUntil),
    });
  }

  private async deliver(row: AlertOutboxRow, lease: string): Promise<void> {
    const { db, config, mailer, log } = this.options;
    try {
      const [recipient] = await teamRecipients(db, row.project_id, [row.account_id]);
      if (!recipient) {
        await markAlertSkipped(db, row.id, 'the recipient is no longer a member of the project team');
        return;
      }
      const payload = JSON.parse(row.payload) as AlertPayload;
      const link = `${config.publicUrl}/app/projects/${encodeURIComponent(row.project_id)}/errors/groups/${encodeURIComponent(payload.groupId)}`;
      const what =
        payload.reason === 'spike'
          ? `${payload.events} events in ${payload.minutes} minutes`
          : REASONS[payload.reason].toLowerCase();
      await mailer.send({
        to: recipient.email,
        subject: `${REASONS[payload.reason]} in ${recipient.projectName}: ${payload.title}`.slice(0, 250),
        text: [
          `${payload.title}`,
          '',
          `Alert rule "${payload.ruleName}": ${what}.`,
          `Environment: ${payload.sdkEnvironment}; level: ${payload.level}.`,
          '',
          `Open the error group: ${link}`,
        ].join('\n'),
        messageId: row.message_id,
      });
    } catch (error) {
      const attempts = Number(row.attempts);
      const pause = Math.min(MAX_BACKOFF_MS, config.errorAlerts.retryBaseMs * 2 ** (attempts - 1));
      const retryAt = attempts >= config.errorAlerts.maxAttempts ? null : new Date(Date.now() + pause).toISOString();
      log.warn({ alertMailId: row.id, attempts, retryAt, err: error }, 'error alerts: sending failed');
      await markAlertFailed(db, row.id, lease, error instanceof Error ? error.message : String(error), retryAt);
      return;
    }
    await markAlertSent(db, row.id);
  }
}
