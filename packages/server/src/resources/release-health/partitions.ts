/**
 * Release health's time partitions on PostgreSQL (issue 37; the migration
 * 202701140100_time_partitions made them): release_session_users (a row per user, hour and
 * release: the largest of the counters, kept SESSION_RETENTION_DAYS) by ISO week of `hour`, which
 * its key holds; the partition keeper (db/partition-keeper.ts) drops the weeks wholly past, and the
 * worker deletes the older rows of the edge week (worker.ts).
 *
 * release_sessions is not partitioned in this release: its key would have to gain `started`, and
 * the release before inserts sessions with `ON CONFLICT (project_id, environment, sid)`, which no
 * unique index of a partitioned table matches (42P10, a 500 on every session envelope to an old
 * process during a rolling upgrade). This release's insert names no conflict target (store.ts), so
 * it stands on either key; a later migration partitions release_sessions by day of `started` once
 * every process runs it (the contract step), and its keeper entry comes here then. Until then the
 * worker deletes its expired rows in bounded batches, as before.
 */
import type { KeptTable } from '../../db/partition-keeper.ts';
import { UPDATE_WINDOW_MS } from './parse.ts';

const DAY_MS = 86_400_000;

export function sessionUserPartitions(retentionDays: number): KeptTable {
  return {
    table: 'release_session_users',
    column: 'hour',
    width: 'week',
    retentionMs: retentionDays * DAY_MS,
    aheadMs: 14 * DAY_MS,
    // A session update is accepted up to 5 days after it started, and counts in its own hour.
    backMs: UPDATE_WINDOW_MS,
  };
}
