/**
 * Keeps log lines within their cap and retention (issue 32): every `LOG_LINES_WORKER_MS`, project
 * by project, deletes lines older than `LOG_LINE_RETENTION_DAYS`, trims each group seen since the
 * last pass to its newest `LOG_LINES_PER_GROUP` lines plus its first, and drops per-minute counts
 * older than MINUTE_VOLUME_HOURS. Every delete is a bounded batch (store-line-upkeep.ts) in its own
 * transaction and turn, so writers and the event loop wait for at most one batch. Several processes
 * may run it: the deletes of two passes overlap harmlessly. On PostgreSQL the lines and spans are
 * partitioned by day (partitions.ts) and the partition keeper drops the days wholly past the
 * retention: what is left for the retention here is the edge day (and DEFAULT), which its deletes
 * by time are pruned to.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { LogLinesConfig } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { readOffThread } from '../../db/read-context.ts';
import { PollingWorker } from '../../kernel/poller.ts';
import { MINUTE_VOLUME_HOURS } from './histogram.ts';
import {
  BATCH,
  capGroupLines,
  expireLines,
  type GroupCursor,
  groupsOverCap,
  MINUTE_UNITS,
  projectsWithLogs,
  pruneMinuteVolume,
  VOLUME_BATCH,
} from './store-line-upkeep.ts';

const HOUR = 3_600_000;

export class LinesWorker extends PollingWorker {
  /** Groups seen since this time are checked against the cap (the first pass checks the retention's span). */
  private checkedUntil: string | undefined;
  private readonly db: Database;
  private readonly config: LogLinesConfig;

  constructor(db: Database, config: LogLinesConfig, log: FastifyBaseLogger) {
    super({ intervalMs: config.workerMs, name: 'log lines', log });
    this.db = db;
    this.config = config;
  }

  /**
   * One pass; returns the lines deleted by retention and by the cap. Its reads (which groups are
   * over their cap, where a cap's edge is) go to SQLite's read workers, off the event loop; its
   * deletes are the writer's, one bounded batch a turn.
   */
  override runPass(now = Date.now()): Promise<{ expired: number; capped: number }> {
    return readOffThread(() => this.pass(now));
  }

  private async pass(now: number): Promise<{ expired: number; capped: number }> {
    const { db, config } = this;
    const before = new Date(now - config.retentionDays * 24 * HOUR).toISOString();
    const since = this.checkedUntil ?? before;
    const started = new Date(now).toISOString();
    const minutesBefore = new Date(now - MINUTE_VOLUME_HOURS * HOUR).toISOString().slice(0, 16);
    let expired = 0;
    let capped = 0;
    for (const projectId of await projectsWithLogs(db)) {
      expired += await this.whileFull(BATCH, () => expireLines(db, projectId, before));
      let page: GroupCursor | undefined = { seen: since, id: '' };
      while (page && !this.stopping) {
        const { ids, next } = await groupsOverCap(db, projectId, page, config.perGroup);
        for (const groupId of ids)
          capped += await this.whileFull(BATCH, () => capGroupLines(db, groupId, config.perGroup));
        page = next;
      }
      for (const unit of MINUTE_UNITS)
        await this.whileFull(VOLUME_BATCH, () => pruneMinuteVolume(db, projectId, unit, minutesBefore));
      if (this.stopping) return { expired, capped };
    }
    this.checkedUntil = started;
    return { expired, capped };
  }
}
