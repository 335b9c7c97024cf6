/**
 * The only writes of release_health_totals: each release and SDK environment's running totals,
 * moved by every write to its hour rows (store.ts, the intake; store-load.ts, a bulk load, with
 * this file's statement) and by their expiry (store-expiry.ts), so the releases list reads one row
 * per release instead of summing hours.
 */
import type { Queryable } from '../../db/database.ts';
import type { Scope } from '../../kernel/scope.ts';

/** What one write moves in a key's running totals (release_health_totals): any column may be 0. */
export interface TotalsDelta {
  healthy: number;
  errored: number;
  unhandled: number;
  abnormal: number;
  crashed: number;
  users: number;
  crashedUsers: number;
}

/** A release's running totals: the sums of every write's delta, and the hours they cover. */
export interface ReleaseTotals extends TotalsDelta {
  release: string;
  /** The first and last hour of the release's hour rows: a range holding both holds all of them. */
  firstHour: string;
  lastHour: string;
}

export const noDelta = (): TotalsDelta => ({
  healthy: 0,
  errored: 0,
  unhandled: 0,
  abnormal: 0,
  crashed: 0,
  users: 0,
  crashedUsers: 0,
});

const isEmpty = (d: TotalsDelta) =>
  d.healthy === 0 &&
  d.errored === 0 &&
  d.unhandled === 0 &&
  d.abnormal === 0 &&
  d.crashed === 0 &&
  d.users === 0 &&
  d.crashedUsers === 0;

/**
 * The totals' upsert in parts: one row here (addTotals), many per statement in the bench's bulk
 * load (store-load.ts). A conflicting row adds its sums and widens the hour bounds.
 */
export const TOTALS_INSERT = `INSERT INTO release_health_totals (project_id, environment, release, sdk_environment, first_hour, last_hour,
    healthy, errored, unhandled, abnormal, crashed, users, crashed_users)`;
export const TOTALS_ROW = '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)';
export const TOTALS_ON_CONFLICT = `ON CONFLICT (project_id, environment, release, sdk_environment) DO UPDATE SET
    first_hour = CASE WHEN excluded.first_hour < release_health_totals.first_hour THEN excluded.first_hour ELSE release_health_totals.first_hour END,
    last_hour = CASE WHEN excluded.last_hour > release_health_totals.last_hour THEN excluded.last_hour ELSE release_health_totals.last_hour END,
    healthy = release_health_totals.healthy + excluded.healthy,
    errored = release_health_totals.errored + excluded.errored,
    unhandled = release_health_totals.unhandled + excluded.unhandled,
    abnormal = release_health_totals.abnormal + excluded.abnormal,
    crashed = release_health_totals.crashed + excluded.crashed,
    users = release_health_totals.users + excluded.users,
    crashed_users = release_health_totals.crashed_users + excluded.crashed_users`;

/** One row's parameters for TOTALS_ROW: the key, its hour bounds, the delta. */
export function totalsRow(
  scope: Scope,
  at: { release: string; sdkEnvironment: string },
  hours: { first: string; last: string },
  d: TotalsDelta,
): (string | number)[] {
  return [
    scope.projectId,
    scope.environment,
    at.release,
    at.sdkEnvironment,
    hours.first,
    hours.last,
    d.healthy,
    d.errored,
    d.unhandled,
    d.abnormal,
    d.crashed,
    d.users,
    d.crashedUsers,
  ];
}

/**
 * Moves a key's running totals by what the same transaction wrote to its hour rows, and widens
 * the key's hour bounds to `at.hour` (one statement; nothing when the delta is empty).
 */
export async function addTotals(
  tx: Queryable,
  scope: Scope,
  at: { release: string; sdkEnvironment: string; hour: string },
  d: TotalsDelta,
): Promise<void> {
  if (isEmpty(d)) return;
  await tx.run(
    `${TOTALS_INSERT} VALUES ${TOTALS_ROW} ${TOTALS_ON_CONFLICT}`,
    totalsRow(scope, at, { first: at.hour, last: at.hour }, d),
  );
}

const KEY = 'project_id = ? AND environment = ? AND release = ? AND sdk_environment = ?';

/**
 * Takes what expired hour rows held out of their key's totals, in the expiry's transaction: the
 * sums lose it, and the first hour moves up to the cutoff (no row before it is left). A key with
 * nothing left goes. `key`: project, environment, release, SDK environment.
 */
export async function subtractExpiredTotals(
  tx: Queryable,
  key: readonly string[],
  d: TotalsDelta,
  cutoff: string,
): Promise<void> {
  await tx.run(
    `UPDATE release_health_totals SET healthy = healthy - ?, errored = errored - ?, unhandled = unhandled - ?,
       abnormal = abnormal - ?, crashed = crashed - ?, users = users - ?, crashed_users = crashed_users - ?,
       first_hour = CASE WHEN first_hour < ? THEN ? ELSE first_hour END
     WHERE ${KEY}`,
    [d.healthy, d.errored, d.unhandled, d.abnormal, d.crashed, d.users, d.crashedUsers, cutoff, cutoff, ...key],
  );
  await tx.run(
    `DELETE FROM release_health_totals WHERE ${KEY} AND last_hour < ?
       AND healthy = 0 AND errored = 0 AND unhandled = 0 AND abnormal = 0 AND crashed = 0 AND users = 0 AND crashed_users = 0`,
    [...key, cutoff],
  );
}
