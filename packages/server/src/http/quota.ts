import type { Database } from '../db/database.ts';
import { QuotaMeter, quotaPeriod, secondsToMonthEnd, type QuotaMeterOptions } from './quota-meter.ts';
import type { LimitState } from './rate-limit.ts';

export { quotaPeriod };

/** The meter of the app running on each database handle (one per process and database). */
const meters = new WeakMap<Database, QuotaMeter>();

/**
 * Starts counting this database's plan quotas in memory (see quota-meter.ts); the app opens
 * one on start and closes it (a last flush) when it closes. Every caller of consumeQuota with
 * this database handle, REST or MCP, counts through it.
 */
export function openQuotaMeter(options: QuotaMeterOptions): QuotaMeter {
  const meter = new QuotaMeter(options);
  meters.set(options.db, meter);
  return meter;
}

export async function closeQuotaMeter(meter: QuotaMeter, db: Database): Promise<void> {
  await meter.close();
  if (meters.get(db) === meter) meters.delete(db);
}

/**
 * Counts one request against the project's monthly plan quota; a refused request is not
 * counted, and projects without a quota (the self-hosted default) are not counted at all.
 * Through the database's meter when the app runs one (counted in memory, flushed every
 * interval: exact within one process, bounded overshoot across processes, see README);
 * otherwise one upsert that counts and checks, exact across processes.
 */
export function consumeQuota(
  db: Database,
  projectId: string,
  monthlyQuota: number | null,
  now = new Date(),
): LimitState | undefined | Promise<LimitState | undefined> {
  if (monthlyQuota === null || monthlyQuota === undefined) return undefined;
  const limit = Number(monthlyQuota);
  const meter = meters.get(db);
  if (meter) return meter.consume(projectId, limit, now);
  return consumeExactly(db, projectId, limit, now);
}

async function consumeExactly(db: Database, projectId: string, limit: number, now: Date): Promise<LimitState> {
  const rows = await db.all<{ used: number }>(
    `INSERT INTO quota_usage (project_id, period, used) VALUES (?, ?, 1)
     ON CONFLICT (project_id, period) DO UPDATE SET used = quota_usage.used + 1
     WHERE quota_usage.used < ?
     RETURNING used`,
    [projectId, quotaPeriod(now), limit],
  );
  const used = rows[0] ? Number(rows[0].used) : undefined;
  const allowed = used !== undefined && used <= limit;
  return {
    allowed,
    limit,
    remaining: allowed ? limit - used : 0,
    resetSeconds: secondsToMonthEnd(now),
  };
}
