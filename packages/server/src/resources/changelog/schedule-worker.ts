/**
 * Publishes scheduled changelog entries once their time has come. Every
 * `CHANGELOG_SCHEDULE_INTERVAL_MS` it asks (one read, which writes nothing when nothing is due, so
 * an idle poll does not move SQLite's change marker) whether a scheduled draft is due; if so it
 * publishes each due entry in its own transaction through the store's conditional UPDATE
 * (`publishIfDue`: still a draft, still scheduled, still due), with its audit-log entry as the
 * `system` actor (service.ts, `publishScheduledEntry`). That is the same write a manual
 * publish makes, so the change marker, board caches, feeds and the `changelog.published` domain
 * event (follower e-mails queued in the same transaction) all see a scheduled publish exactly as
 * a manual one. Several processes may run the worker: the conditional UPDATE lets only one of
 * them publish an entry (and so notify once); the others find it already published.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/database.ts';
import { PollingWorker } from '../../kernel/poller.ts';
import { publishScheduledEntry } from './service.ts';
import { anyScheduleDue, listScheduleDue } from './store.ts';

/** Entries looked at per read; a pass reads again until nothing is due. */
const BATCH = 50;

export interface ScheduleWorkerOptions {
  db: Database;
  /** Milliseconds between polls; 0 runs no worker in this process. */
  intervalMs: number;
  log: FastifyBaseLogger;
}

export class ScheduleWorker extends PollingWorker {
  private readonly options: ScheduleWorkerOptions;

  constructor(options: ScheduleWorkerOptions) {
    super({ intervalMs: options.intervalMs, name: 'changelog schedule', log: options.log });
    this.options = options;
  }

  /** Publishes every entry due now; returns the ids this worker published. */
  override async runPass(): Promise<string[]> {
    const { db, log } = this.options;
    const published: string[] = [];
    const seen = new Set<string>();
    while (!this.stopping) {
      const now = new Date().toISOString();
      if (!(await anyScheduleDue(db, now))) break;
      const due = (await listScheduleDue(db, now, BATCH)).filter((entry) => !seen.has(entry.id));
      if (due.length === 0) break;
      for (const entry of due) {
        seen.add(entry.id);
        if (await publishScheduledEntry(db, entry.project_id, entry.id, now)) {
          published.push(entry.id);
          log.info({ entryId: entry.id, projectId: entry.project_id }, 'changelog schedule: published');
        }
      }
    }
    return published;
  }
}
