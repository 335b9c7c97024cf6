import type { Database } from '../db/database.ts';
import type { LimitState } from './rate-limit.ts';

/** Calendar month in UTC, e.g. `2026-11`. */
export function quotaPeriod(now: Date): string {
  return now.toISOString().slice(0, 7);
}

function secondsToMonthEnd(now: Date): number {
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
  return Math.ceil((next - now.getTime()) / 1000);
}

/**
 * Counts one request against the project's monthly plan quota. A single upsert both counts
 * and checks, so the quota is exact across processes; a refused request is not counted.
 * Projects without a quota (the self-hosted default) are not counted at all.
 */
export async function consumeQuota(
  db: Database,
  projectId: string,
  monthlyQuota: number | null,
  now = new Date(),
): Promise<LimitState | undefined> {
  if (monthlyQuota === null || monthlyQuota === undefined) return undefined;
  const limit = Number(monthlyQuota);
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
