/**
 * The log histogram (issue 32): lines per level in minute, hour or day buckets over a range,
 * every bucket of the range listed, from the volume counts (store-count-reads.ts). The explorer's
 * and a group's chart are the same function; a group's is the explorer's with `groupId`.
 */
import type { Database } from '../../db/database.ts';
import { BadRequestError } from '../../kernel/errors.ts';
import { LOG_LEVELS } from './schemas.ts';
import { lineHistogramRows, type VolumeBucket } from './store-count-reads.ts';
import type { LineFilter } from './store-line-reads.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const STEP: Record<VolumeBucket, number> = { minute: MINUTE, hour: HOUR, day: DAY };
const PREFIX: Record<VolumeBucket, number> = { minute: 16, hour: 13, day: 10 };
/** The longest range a histogram covers (731 day buckets). */
const MAX_RANGE = 731 * DAY;
/** How long per-minute counts are kept (lines-worker.ts prunes older ones); older minutes count lines. */
export const MINUTE_VOLUME_HOURS = 48;

/** Minutes up to 3 hours, hours up to 10 days, days beyond. */
export function bucketFor(rangeMs: number): VolumeBucket {
  if (rangeMs <= 3 * HOUR) return 'minute';
  if (rangeMs <= 10 * DAY) return 'hour';
  return 'day';
}

function zeroLevels(): Record<string, number> {
  return Object.fromEntries(LOG_LEVELS.map((level) => [level, 0]));
}

/** Lines per bucket and level over [since, until) (defaults: the 24 hours up to the bucket that holds now). */
export async function logHistogram(
  db: Database,
  projectId: string,
  filter: LineFilter,
  sinceIso: string | undefined,
  untilIso: string | undefined,
) {
  const now = Date.now();
  let until = untilIso ? Date.parse(untilIso) : now;
  const since = sinceIso ? Date.parse(sinceIso) : until - DAY;
  if (!(since < until) || until - since > MAX_RANGE) {
    const message = 'must be before until, at most 731 days apart';
    throw new BadRequestError(`Invalid query parameter since: ${message}`, [{ field: 'since', message }]);
  }
  const bucket = bucketFor(until - since);
  const step = STEP[bucket];
  // Left out, the range ends with the bucket that holds now: whole buckets, and the same
  // answer for every request within it.
  if (!untilIso) until = Math.ceil((now + 1) / step) * step;
  const start = Math.floor(since / step) * step;
  const prefix = PREFIX[bucket];
  const countLines = bucket === 'minute' && start < now - MINUTE_VOLUME_HOURS * HOUR;
  const rows = await lineHistogramRows(
    db,
    projectId,
    { ...filter, from: new Date(start).toISOString(), to: new Date(until).toISOString() },
    bucket,
    countLines,
  );
  const buckets: { start: string; total: number; levels: Record<string, number> }[] = [];
  const byKey = new Map<string, (typeof buckets)[number]>();
  for (let at = start; at < until; at += step) {
    const iso = new Date(at).toISOString();
    const entry = { start: iso, total: 0, levels: zeroLevels() };
    buckets.push(entry);
    byKey.set(iso.slice(0, prefix), entry);
  }
  const totals = zeroLevels();
  for (const row of rows) {
    const entry = byKey.get(row.bucket);
    if (!entry || !(row.level in totals)) continue;
    entry.levels[row.level]! += row.n;
    entry.total += row.n;
    totals[row.level]! += row.n;
  }
  return { bucket, since: new Date(start).toISOString(), until: new Date(until).toISOString(), buckets, totals };
}
