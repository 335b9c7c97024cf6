/**
 * Deletes audit entries past their project's retention (resources/audit/service.ts
 * `pruneAuditLog`) once an hour, in bounded batches. Several processes may run it: a batch
 * another process already deleted just deletes nothing.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/database.ts';
import { PollingWorker } from '../../kernel/poller.ts';
import { pruneAuditLog } from './service.ts';

export const AUDIT_PRUNE_INTERVAL_MS = 3_600_000;

export class AuditRetentionWorker extends PollingWorker {
  readonly #db: Database;

  constructor(options: { db: Database; log: FastifyBaseLogger; intervalMs?: number }) {
    super({ intervalMs: options.intervalMs ?? AUDIT_PRUNE_INTERVAL_MS, name: 'audit retention', log: options.log });
    this.#db = options.db;
  }

  override runPass(): Promise<unknown> {
    return pruneAuditLog(this.#db, { stopping: () => this.stopping });
  }
}
