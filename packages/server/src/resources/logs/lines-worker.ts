/**
 * Keeps log lines within their cap and retention (issue 32): every `LOG_LINES_WORKER_MS`, project
 * by project, deletes lines older than `LOG_LINE_RETENTION_DAYS`, trims each group seen since the
 * last pass to its newest `LOG_LINES_PER_GROUP` lines plus its first, and drops per-minute counts
 * older than MINUTE_VOLUME_HOURS. Every delete is a bounded batch (store-line-upkeep.ts) in its own
 * statement, so writers wait for at most one batch. Several processes may run it: the deletes of
 * two passes overlap harmlessly. On PostgreSQL the lines and spans are partitioned by day
 * (partitions.ts) and the partition keeper drops the days wholly past the retention: what is left
 * for the retention here is the edge day (and DEFAULT), which its deletes by time are pruned to.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/database.ts';
import type { LogLinesConfig } from '../../config.ts';
import { PollingWorker } from '../../kernel/poller.ts';
import { MINUTE_VOLUME_HOURS } from './histogram.ts';
import {
  BATCH,
  capGroupLines,
  expireLines,
  groupsOverCap,
  projectsWithLogs,
  pruneMinuteVolume,
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

  /** One pass; returns the lines deleted by retention and by the cap. */
  override async runPass(now = Date.now()): Promise<{ expired: number; capped: number }> {
    const { db, config } = this;
    const before = new Date(now - config.retentionDays * 24 * HOUR).toISOString();
    const since = this.checkedUntil ?? before;
    const started = new Date(now).toISOString();
    let expired = 0;
    let capped = 0;
    for (const projectId of await projectsWithLogs(db)) {
      for (let n = BATCH; n === BATCH && !this.stopping; ) expired += n = await expireLines(db, projectId, before);
      for (const groupId of await groupsOverCap(db, projectId, since, config.perGroup)) {
        for (let n = BATCH; n === BATCH && !this.stopping; )
          capped += n = await capGroupLines(db, groupId, config.perGroup);
      }
      await pruneMinuteVolume(db, projectId, new Date(now - MINUTE_VOLUME_HOURS * HOUR).toISOString().slice(0, 16));
      if (this.stopping) return { expired, capped };
    }
    this.checkedUntil = started;
    return { expired, capped };
  }
}
