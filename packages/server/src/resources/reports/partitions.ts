/**
 * error_events' time partitions on PostgreSQL (issue 37; the migration 202701140100_time_partitions
 * made them): a partition per ISO week of `received_at`, dropped by the partition keeper
 * (db/partition-keeper.ts) once wholly older than ERROR_EVENT_RETENTION_DAYS; the alert worker
 * deletes the older events of the edge week (alert-worker.ts). Weeks, not days: a group's events
 * are read by group, so every read visits every partition, and 90 days are about 16 weeks.
 */
import type { KeptTable } from '../../db/partition-keeper.ts';

const DAY_MS = 86_400_000;

export function errorEventPartitions(retentionDays: number): KeptTable {
  return {
    table: 'error_events',
    column: 'received_at',
    width: 'week',
    retentionMs: retentionDays * DAY_MS,
    aheadMs: 14 * DAY_MS,
    // Received now: the server's own clock.
    backMs: 0,
  };
}
