/**
 * The partition keeper (issue 37): on PostgreSQL, a background worker that makes the time
 * partitions of the tables it keeps ahead of time and drops those wholly past their retention
 * (time-partitions.ts). Every process runs one; each pass takes a transaction-level advisory lock
 * with `pg_try_advisory_xact_lock` per table, so when several processes share the database
 * exactly one keeps a table at a time and the others skip it (no waiting, no double work). DDL
 * waits at most `lock_timeout` (2 s) for a table lock: a keeper stuck behind a long transaction
 * would otherwise queue every reader of the table behind it; it gives up and tries next pass.
 *
 * What it does not do: delete rows one by one. The rows older than the retention that are left
 * after the drops (the edge partition, which holds both older and newer rows, and DEFAULT) are
 * deleted by the owning resource's own bounded batches, whose `WHERE column < cutoff` PostgreSQL
 * prunes to those partitions. On SQLite the keeper does nothing.
 */
import { PollingWorker, type PollerLog } from '../kernel/poller.ts';
import type { Database } from './database.ts';
import { dropPartitionsBefore, ensurePartitions, type Partition, type TimePartitioned } from './time-partitions.ts';

/** A table the keeper keeps: its partitions, how long rows are kept and how far ahead to make them. */
export interface KeptTable extends TimePartitioned {
  /** Rows older than this go: the partitions that end before now minus this are dropped. */
  retentionMs: number;
  /** Partitions are made up to now plus this (at least the current one). */
  aheadMs: number;
  /** Partitions are made from now minus this (rows may say they are this old when written), within retention. */
  backMs: number;
}

export interface KeptTableResult {
  table: string;
  /** False when another process held the table's lock (it keeps the table this time). */
  kept: boolean;
  created: Partition[];
  dropped: Partition[];
}

/** PostgreSQL's lock_not_available: `lock_timeout` ran out. */
const isLockTimeout = (error: unknown) => (error as { code?: unknown } | null)?.code === '55P03';

/** Advisory lock keys: this class and the table's hash (migrate.ts uses a single-key lock of its own). */
export const KEEPER_LOCK_CLASS = 5_318_037;

export interface PartitionKeeperOptions {
  db: Database;
  tables: readonly KeptTable[];
  /** Milliseconds between passes; 0 runs none. */
  intervalMs: number;
  log: PollerLog & { info(details: object, message: string): void; warn(details: object, message: string): void };
}

export class PartitionKeeper extends PollingWorker {
  private readonly options: PartitionKeeperOptions;

  constructor(options: PartitionKeeperOptions) {
    super({
      intervalMs: options.db.dialect === 'postgres' ? options.intervalMs : 0,
      name: 'partition keeper',
      log: options.log,
    });
    this.options = options;
  }

  override async runPass(): Promise<void> {
    await this.keep(new Date());
  }

  /** One pass over every table at `now`; what was done to each. */
  async keep(now: Date): Promise<KeptTableResult[]> {
    if (this.options.db.dialect !== 'postgres') return [];
    const results: KeptTableResult[] = [];
    for (const table of this.options.tables) {
      if (this.stopping) break;
      try {
        const result = await this.keepTable(table, now);
        if (result.created.length > 0 || result.dropped.length > 0) {
          this.options.log.info(
            {
              table: table.table,
              created: result.created.map((p) => p.name),
              dropped: result.dropped.map((p) => p.name),
            },
            'partition keeper: partitions made and dropped',
          );
        }
        results.push(result);
      } catch (error) {
        // Behind a long transaction's lock: nothing was changed; the next pass tries again.
        if (!isLockTimeout(error)) throw error;
        this.options.log.warn({ table: table.table }, 'partition keeper: table busy, trying again next pass');
        results.push({ table: table.table, kept: false, created: [], dropped: [] });
      }
    }
    return results;
  }

  private keepTable(spec: KeptTable, now: Date): Promise<KeptTableResult> {
    return this.options.db.transaction(async (tx) => {
      const [lock] = await tx.all<{ held: boolean }>('SELECT pg_try_advisory_xact_lock(?::int, hashtext(?)) AS held', [
        KEEPER_LOCK_CLASS,
        spec.table,
      ]);
      if (!lock?.held) return { table: spec.table, kept: false, created: [], dropped: [] };
      await tx.run("SET LOCAL lock_timeout = '2s'");
      const cutoff = new Date(now.getTime() - spec.retentionMs);
      const dropped = await dropPartitionsBefore(tx, spec, cutoff.toISOString());
      const back = new Date(now.getTime() - spec.backMs);
      const created = await ensurePartitions(
        tx,
        spec,
        cutoff > back ? cutoff : back,
        new Date(now.getTime() + spec.aheadMs),
      );
      return { table: spec.table, kept: true, created, dropped };
    });
  }
}
