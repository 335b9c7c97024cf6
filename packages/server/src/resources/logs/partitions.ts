/**
 * Log lines' time partitions on PostgreSQL (issue 37; the migration 202701290100_log_line_partitions
 * made them): log_lines by UTC day of `ts` and log_line_spans by UTC day of `max_ts`, both dropped
 * by the partition keeper (db/partition-keeper.ts) once wholly older than LOG_LINE_RETENTION_DAYS;
 * the lines worker deletes the older lines of the edge day, and keeps each group to its cap, in
 * bounded batches (lines-worker.ts). Days, not weeks: 14 days of retention are about 17 partitions,
 * and the edge leaves at most a day of deleted rows (the migration says more).
 *
 * A line's time is its sender's, so a line may say it is as old as the retention: the partitions
 * are made back to the cutoff (at most BACK_DAYS), so such a line lands in its day, not in DEFAULT.
 * A span's lines are as old as its `max_ts` or older, so a spans partition past the retention
 * holds only spans of lines past it too (a span left without lines for a while is harmless: reads
 * join it to nothing, and a span's count may already be more than its lines).
 */
import type { KeptTable } from '../../db/partition-keeper.ts';

const DAY_MS = 86_400_000;
/** Partitions are made at most this far back: an older line (a long retention) lands in DEFAULT. */
const BACK_DAYS = 31;

export function logLinePartitions(retentionDays: number): KeptTable[] {
  const kept = {
    width: 'day',
    retentionMs: retentionDays * DAY_MS,
    aheadMs: 2 * DAY_MS,
    backMs: Math.min(retentionDays, BACK_DAYS) * DAY_MS,
  } as const;
  return [
    { table: 'log_lines', column: 'ts', ...kept },
    { table: 'log_line_spans', column: 'max_ts', ...kept },
  ];
}
