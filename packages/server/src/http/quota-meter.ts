import type { Database } from '../db/database.ts';
import { Poller, type PollerLog } from '../kernel/poller.ts';
import { addUsage, readUsage, usageKey } from './quota-store.ts';
import type { LimitState } from './rate-limit.ts';

/** A calendar month in UTC: its name (`2026-11`) and where it starts and ends (epoch ms). */
interface Month {
  period: string;
  startsAt: number;
  endsAt: number;
}

let lastMonth: Month = { period: '', startsAt: 0, endsAt: 0 };

/** The month `ms` falls in; remembered, since formatting a date per request shows in a profile. */
function monthAt(ms: number): Month {
  if (ms >= lastMonth.startsAt && ms < lastMonth.endsAt) return lastMonth;
  const date = new Date(ms);
  const startsAt = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
  const endsAt = Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
  lastMonth = { period: date.toISOString().slice(0, 7), startsAt, endsAt };
  return lastMonth;
}

/** Calendar month in UTC, e.g. `2026-11`. */
export function quotaPeriod(now: Date): string {
  return monthAt(now.getTime()).period;
}

export function secondsToMonthEnd(now: Date): number {
  return Math.ceil((monthAt(now.getTime()).endsAt - now.getTime()) / 1000);
}

/** One project's count for one period, as this process knows it. */
interface Counter {
  projectId: string;
  period: string;
  /** The total in the database as last read or returned by a flush (every process's flushed counts). */
  shared: number;
  /** Admitted here since the last flush began. */
  pending: number;
  /** Admitted here and being written by the flush under way. */
  flushing: number;
  /** Admitted here since the flush before last ended: an idle counter is forgotten (and read afresh). */
  touched: boolean;
}

export interface QuotaMeterOptions {
  db: Database;
  /** Milliseconds between flushes (`QUOTA_FLUSH_INTERVAL_MS`). */
  flushIntervalMs: number;
  log: PollerLog;
}

/**
 * Counts plan-quota requests in memory and writes them to the quota store in one statement per
 * flush (every `flushIntervalMs`, and on close), instead of one upsert per request.
 *
 * A request is admitted while `shared + flushing + pending < limit`: this process's own
 * unflushed requests are always included, so one process alone is exact. Other processes'
 * requests are seen when they have flushed and this process has flushed (or read) since, so
 * with N processes the total admitted is at most the quota plus what the other processes
 * admitted within one flush interval (README, "Plan quota").
 */
export class QuotaMeter {
  private readonly counters = new Map<string, Counter>();
  /**
   * Each project's most recent counter, by project id alone: the front door's lookup, which
   * would otherwise build and hash the project-and-period key on every read.
   */
  private readonly latest = new Map<string, Counter>();
  /** First requests of a counter wait on one read of its shared total. */
  private readonly loading = new Map<string, Promise<Counter>>();
  private readonly poller: Poller;
  private flushing: Promise<void> | undefined;
  private readonly db: Database;
  private readonly log: PollerLog;

  constructor(options: QuotaMeterOptions) {
    this.db = options.db;
    this.log = options.log;
    this.poller = new Poller({
      intervalMs: options.flushIntervalMs,
      name: 'quota meter',
      log: options.log,
      runPass: () => this.flush(),
    });
  }

  start(): void {
    this.poller.start();
  }

  /** Stops the timer and writes what is still pending (a failed write is logged, not thrown). */
  async close(): Promise<void> {
    await this.poller.stop();
    // A flush under way took only what was pending when it began: write the rest after it.
    await this.flushing;
    await this.flush();
    if (this.unflushed > 0) {
      this.log.error({ err: undefined }, `quota meter: ${this.unflushed} counted requests could not be written`);
    }
  }

  /**
   * Counts one request against the project's quota for the period `now` falls in, if there is
   * room. Synchronous once the counter is known; a counter's first request reads the shared total.
   * A refused request is not counted.
   */
  consume(projectId: string, limit: number, now = new Date()): LimitState | Promise<LimitState> {
    const ms = now.getTime();
    const { period } = monthAt(ms);
    const key = `${projectId}\u0000${period}`;
    const counter = this.counters.get(key);
    if (counter) return admit(counter, limit, ms);
    return this.load(key, projectId, period).then((loaded) => admit(loaded, limit, ms));
  }

  /**
   * consume() for a counter already known, without waiting: undefined when its shared total has
   * not been read yet (nothing counted then).
   */
  consumeAtOnce(projectId: string, limit: number, now = Date.now()): LimitState | undefined {
    const counter = this.latest.get(projectId);
    return counter && counter.period === monthAt(now).period ? admit(counter, limit, now) : undefined;
  }

  /** Unflushed requests of this process, for tests and diagnostics. */
  get unflushed(): number {
    let sum = 0;
    for (const counter of this.counters.values()) sum += counter.pending + counter.flushing;
    return sum;
  }

  /**
   * Writes every pending count in one upsert and takes each project's shared total from it.
   * On failure the counts go back to pending for the next flush. Flushes never overlap.
   */
  flush(): Promise<void> {
    this.flushing ??= this.writePending().finally(() => {
      this.flushing = undefined;
    });
    return this.flushing;
  }

  private load(key: string, projectId: string, period: string): Promise<Counter> {
    let loading = this.loading.get(key);
    if (!loading) {
      loading = readUsage(this.db, projectId, period)
        .then((shared) => {
          const counter = { projectId, period, shared, pending: 0, flushing: 0, touched: true };
          this.counters.set(key, counter);
          this.latest.set(projectId, counter);
          return counter;
        })
        .finally(() => this.loading.delete(key));
      this.loading.set(key, loading);
    }
    return loading;
  }

  private async writePending(): Promise<void> {
    const batch: Counter[] = [];
    for (const [key, counter] of this.counters) {
      if (counter.pending > 0) {
        counter.flushing = counter.pending;
        counter.pending = 0;
        batch.push(counter);
      } else if (!counter.touched && counter.flushing === 0) {
        // Idle for a whole interval (or an old period): forget it; the next request reads afresh.
        this.counters.delete(key);
        if (this.latest.get(counter.projectId) === counter) this.latest.delete(counter.projectId);
      }
      counter.touched = false;
    }
    if (batch.length === 0) return;
    let totals: Map<string, number | null>;
    try {
      totals = await addUsage(
        this.db,
        batch.map((counter) => ({ projectId: counter.projectId, period: counter.period, count: counter.flushing })),
      );
    } catch (error) {
      totals = new Map();
      this.log.error({ err: error }, 'quota meter: flush failed; counts kept for the next one');
    }
    for (const counter of batch) {
      const total = totals.get(usageKey(counter.projectId, counter.period));
      if (total === undefined) {
        // Not written: counted again at the next flush.
        counter.pending += counter.flushing;
        counter.touched = true;
      } else if (total === null) {
        counter.shared += counter.flushing; // the project was deleted: nothing to write
      } else {
        counter.shared = total;
      }
      counter.flushing = 0;
    }
  }
}

function admit(counter: Counter, limit: number, now: number): LimitState {
  const used = counter.shared + counter.flushing + counter.pending;
  const allowed = used < limit;
  if (allowed) {
    counter.pending += 1;
    counter.touched = true;
  }
  return {
    allowed,
    limit,
    remaining: allowed ? limit - used - 1 : 0,
    resetSeconds: Math.ceil((monthAt(now).endsAt - now) / 1000),
  };
}
