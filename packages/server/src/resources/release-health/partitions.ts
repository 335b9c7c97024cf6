/**
 * Release health's time partitions on PostgreSQL (issue 37): release_session_users (a row per
 * user, hour and release: the largest of the counters, kept SESSION_RETENTION_DAYS) by ISO week of
 * `hour`, which its key holds (migration 202701140100_time_partitions); the partition keeper
 * (db/partition-keeper.ts) drops the weeks wholly past, and the worker deletes the older rows of
 * the edge week (worker.ts).
 *
 * release_sessions (a session's state while its updates are accepted) by UTC day of `started`
 * (migration 202701300100_session_partitions), its key (project_id, environment, sid, started):
 * the keeper drops each day once the update window of its last session has closed, plus a day
 * (SESSION_STATE_MS, what the worker deleted row by row before). No edge delete: a session kept up
 * to a day longer harms nothing (its updates are refused by their own `started`, parse.ts), so on
 * PostgreSQL the worker deletes only what no partition drop takes (worker.ts). A session's lookups
 * name its `started` (store.ts), so they read its day's partition alone.
 */
import type { KeptTable } from '../../db/partition-keeper.ts';
import { UPDATE_WINDOW_MS } from './parse.ts';

const DAY_MS = 86_400_000;

/** How long a session's state is kept: its update window, plus a day. */
export const SESSION_STATE_MS = UPDATE_WINDOW_MS + DAY_MS;

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

export function sessionPartitions(): KeptTable {
  return {
    table: 'release_sessions',
    column: 'started',
    width: 'day',
    retentionMs: SESSION_STATE_MS,
    // A session may say it starts up to a day ahead (parse.ts): two days ahead leaves a day's slack.
    aheadMs: 2 * DAY_MS,
    // And up to 5 days ago: its first update may come that late.
    backMs: UPDATE_WINDOW_MS,
  };
}
