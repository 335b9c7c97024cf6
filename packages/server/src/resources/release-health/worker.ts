/**
 * Release health's background work, one per process (started on `onReady`, stopped in
 * `preClose`): every second it writes the version checks counted in memory (tally.ts); every
 * `SESSION_EXPIRY_INTERVAL_MS` (default ten minutes, the first pass at the start; 0: never) it
 * expires, in batches of 1,000 rows with a pause between them, session state
 * whose 5-day update window has closed (plus a day) and the hourly counts older than
 * `SESSION_RETENTION_DAYS` (default 90); every `RELEASE_HEALTH_CHECK_INTERVAL_MS` (default 60000; 0:
 * never) it judges the releases with recent sessions for `release.health_dropped` (drops.ts).
 * On PostgreSQL release_session_users (by week) and release_sessions (by day) are time-partitioned
 * (partitions.ts) and the partition keeper drops what is wholly past. These batches then meet only
 * session users' edge week and DEFAULT, and no session the keeper will drop: on PostgreSQL they
 * take only sessions older than the day before the one the keeper drops now, normally none (rows in
 * DEFAULT: a restore, a clock far off; or days no keeper dropped for a day). On SQLite they delete
 * every expired session, as before.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/database.ts';
import { PollingWorker } from '../../kernel/poller.ts';
import { checkHealthDrops } from './drops.ts';
import { SESSION_STATE_MS } from './partitions.ts';
import { expireBatch } from './store-expiry.ts';
import { flushVersionChecks } from './tally.ts';

const BATCH = 1000;
const EXPIRE_EVERY_MS = 10 * 60_000;
const DAY_MS = 24 * 3600_000;

export interface ReleaseHealthWorkerOptions {
  db: Database;
  retentionDays: number;
  log: FastifyBaseLogger;
  /** Milliseconds between flushes of the version-check counts; 0 runs no worker. */
  flushMs?: number;
  /** Milliseconds between passes judging health drops; 0 judges none. */
  dropCheckMs?: number;
  /** Milliseconds between expiries (the first on the first pass); 0 expires nothing. */
  expireEveryMs?: number;
}

export class ReleaseHealthWorker extends PollingWorker {
  private readonly options: ReleaseHealthWorkerOptions;
  private lastExpiry = 0;
  private lastDropCheck = 0;

  constructor(options: ReleaseHealthWorkerOptions) {
    super({ intervalMs: options.flushMs ?? 1000, name: 'release health', log: options.log });
    this.options = options;
  }

  /** Stops the worker and writes the last counts. */
  override async stop(): Promise<void> {
    await super.stop();
    await flushVersionChecks(this.options.db);
  }

  override async runPass(now = new Date()): Promise<void> {
    await flushVersionChecks(this.options.db);
    const dropCheckMs = this.options.dropCheckMs ?? 60_000;
    if (dropCheckMs > 0 && now.getTime() - this.lastDropCheck >= dropCheckMs) {
      this.lastDropCheck = now.getTime();
      await checkHealthDrops(this.options.db, now);
    }
    const expireEveryMs = this.options.expireEveryMs ?? EXPIRE_EVERY_MS;
    if (expireEveryMs === 0 || now.getTime() - this.lastExpiry < expireEveryMs) return;
    this.lastExpiry = now.getTime();
    await this.expire(now);
  }

  /** Deletes what is past its time, batch by batch; the number of rows deleted. */
  async expire(now = new Date()): Promise<number> {
    const { db, retentionDays } = this.options;
    const sessionsCutoff = new Date(now.getTime() - SESSION_STATE_MS);
    // PostgreSQL: only the rows of the days before the one the keeper drops now (partitions.ts).
    const sessionsBefore = (
      db.dialect === 'postgres' ? new Date(Math.floor(sessionsCutoff.getTime() / DAY_MS - 1) * DAY_MS) : sessionsCutoff
    ).toISOString();
    const countsCutoff = new Date(now.getTime() - retentionDays * DAY_MS).toISOString();
    let deleted = 0;
    for (const [table, cutoff] of [
      ['release_sessions', sessionsBefore],
      ['release_session_hours', countsCutoff],
      ['release_session_users', countsCutoff],
      ['release_users', countsCutoff],
      ['release_checks', countsCutoff],
    ] as const) {
      deleted += await this.whileFull(BATCH, () => expireBatch(db, table, cutoff, BATCH), 50);
    }
    return deleted;
  }
}
