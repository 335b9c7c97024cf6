/**
 * Releases first seen (issue 33): every `RELEASE_SIGHTING_INTERVAL_MS` (default 5000; 0 runs no
 * worker in this process) the worker asks which versions the projects' live events and sessions
 * reported since its last pass (and, after a start, in the two hours before it), and records each
 * version the project neither created nor saw before. A first sighting tells `release.seen` in its
 * transaction, so the release goes live once, as a created one does: what was resolved in it ships
 * (resources/release-hub). Several processes may run it; the sighting's key makes one of them win.
 * Version checks count known releases only (resources/release-health), so they make no sightings.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/database.ts';
import { emitDomainEvent } from '../../db/domain-events.ts';
import { PollingWorker } from '../../kernel/poller.ts';
import { releasesReportedSince } from './read-model.ts';
import { insertSighting, knownVersions } from './store-sightings.ts';

const CATCH_UP_MS = 2 * 3600_000;

export interface SightingsWorkerOptions {
  db: Database;
  intervalMs: number;
  log: FastifyBaseLogger;
}

export class SightingsWorker extends PollingWorker {
  private readonly db: Database;
  private since: Date | undefined;

  constructor(options: SightingsWorkerOptions) {
    super({ intervalMs: options.intervalMs, name: 'release sightings', log: options.log });
    this.db = options.db;
  }

  /** One pass; the number of releases first seen in it. */
  override async runPass(now = new Date()): Promise<number> {
    // A little overlap with the last pass: a write committed late is still found.
    const since = new Date((this.since ?? new Date(now.getTime() - CATCH_UP_MS)).getTime() - 60_000);
    const reported = await releasesReportedSince(this.db, since.toISOString());
    this.since = now;
    const byProject = new Map<string, Map<string, 'events' | 'sessions'>>();
    for (const row of reported) {
      const versions = byProject.get(row.project_id) ?? new Map<string, 'events' | 'sessions'>();
      if (!versions.has(row.version)) versions.set(row.version, row.source);
      byProject.set(row.project_id, versions);
    }
    let seen = 0;
    for (const [projectId, versions] of byProject) {
      const known = await knownVersions(this.db, projectId, [...versions.keys()]);
      for (const [version, source] of versions) {
        if (known.has(version) || this.stopping) continue;
        const first = await this.db.transaction(async (tx) => {
          if (!(await insertSighting(tx, projectId, version, source))) return false;
          await emitDomainEvent(tx, 'release.seen', { projectId, version, source });
          return true;
        });
        if (first) seen++;
      }
    }
    return seen;
  }
}
