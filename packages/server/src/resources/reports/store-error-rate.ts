/**
 * A project's error rate around moments (issue 33: a flag's page shows events per hour before and
 * after each change). Counted from the error records as a group's history is (store-history.ts:
 * a record's reports fall in the UTC hour of its first and of its last report), over the whole
 * project's key environment, in one read of the records that reach the span of all the moments.
 */
import type { Queryable } from '../../db/database.ts';

const HOUR_MS = 60 * 60 * 1000;
/** Hours averaged on each side of a moment. */
export const RATE_HOURS = 3;

export interface ErrorRateAround {
  before: number;
  after: number;
  afterHours: number;
}

export async function errorRatesAround(
  db: Queryable,
  projectId: string,
  environment: string,
  moments: readonly string[],
  now: Date,
): Promise<ErrorRateAround[]> {
  if (moments.length === 0) return [];
  const hours = moments.map((at) => Math.floor(Date.parse(at) / HOUR_MS) * HOUR_MS);
  const from = Math.min(...hours) - RATE_HOURS * HOUR_MS;
  const to = Math.max(...hours) + RATE_HOURS * HOUR_MS;
  const records = await db.all<{
    first_seen_at: string;
    last_seen_at: string;
    occurrences: number;
    last_hour_occurrences: number;
  }>(
    `SELECT first_seen_at, last_seen_at, occurrences, last_hour_occurrences FROM error_reports
      WHERE project_id = ? AND environment = ? AND last_seen_at >= ? AND first_seen_at < ?
        AND last_hour_occurrences IS NOT NULL`,
    [projectId, environment, new Date(from).toISOString(), new Date(to).toISOString()],
  );
  const counts = new Map<number, number>();
  const add = (hour: number, n: number) => counts.set(hour, (counts.get(hour) ?? 0) + n);
  for (const record of records) {
    const firstHour = Math.floor(Date.parse(record.first_seen_at) / HOUR_MS) * HOUR_MS;
    const lastHour = Math.floor(Date.parse(record.last_seen_at) / HOUR_MS) * HOUR_MS;
    const inLastHour = lastHour > firstHour ? Number(record.last_hour_occurrences) : 0;
    add(firstHour, Number(record.occurrences) - inLastHour);
    add(lastHour, inLastHour);
  }
  const sum = (start: number, n: number) => {
    let total = 0;
    for (let i = 0; i < n; i++) total += counts.get(start + i * HOUR_MS) ?? 0;
    return total;
  };
  const round = (value: number) => Math.round(value * 100) / 100;
  const currentHour = Math.floor(now.getTime() / HOUR_MS) * HOUR_MS;
  return hours.map((hour) => {
    const afterHours = Math.max(1, Math.min(RATE_HOURS, (currentHour - hour) / HOUR_MS + 1));
    return {
      before: round(sum(hour - RATE_HOURS * HOUR_MS, RATE_HOURS) / RATE_HOURS),
      after: round(sum(hour, afterHours) / afterHours),
      afterHours,
    };
  });
}
