/**
 * Release health's reads of its hour rows for a range (health.ts's charts and the list's older
 * releases): sessions by status, users per hour, version checks per hour.
 */
import type { Queryable } from '../../db/database.ts';

export interface HourCounts {
  release: string;
  hour: string;
  healthy: number;
  errored: number;
  unhandled: number;
  abnormal: number;
  crashed: number;
  lastUsers: number;
  lastCrashedUsers: number;
}

export interface HealthFilter {
  projectId: string;
  environment: string;
  sdkEnvironment: string | undefined;
  since: string;
  until: string;
  release?: string | undefined;
  /** Only these releases (a short list: one parameter each). */
  releases?: readonly string[] | undefined;
}

/** The release conditions both kinds of hour rows share. */
function releaseConditions(filter: Pick<HealthFilter, 'release' | 'releases'>, params: string[]): string {
  let sql = '';
  if (filter.release !== undefined) {
    sql += ' AND release = ?';
    params.push(filter.release);
  }
  if (filter.releases !== undefined) {
    sql += ` AND release IN (${filter.releases.map(() => '?').join(', ')})`;
    params.push(...filter.releases);
  }
  return sql;
}

function where(filter: HealthFilter): { sql: string; params: string[] } {
  const params = [filter.projectId, filter.environment, filter.since, filter.until];
  let sql = 'project_id = ? AND environment = ? AND hour >= ? AND hour < ?';
  if (filter.sdkEnvironment !== undefined) {
    sql += ' AND sdk_environment = ?';
    params.push(filter.sdkEnvironment);
  }
  sql += releaseConditions(filter, params);
  return { sql, params };
}

/** Sessions per release and hour in the range (`byRelease`: per release, `hour` the first one). */
export async function sessionHours(db: Queryable, filter: HealthFilter, byRelease = false): Promise<HourCounts[]> {
  const { sql, params } = where(filter);
  const group = byRelease ? 'release' : 'release, hour';
  const hour = byRelease ? 'MIN(hour)' : 'hour';
  const rows = await db.all<HourCounts & { last_users: number; last_crashed_users: number }>(
    `SELECT release, ${hour} AS hour, SUM(healthy) AS healthy, SUM(errored) AS errored, SUM(unhandled) AS unhandled, SUM(abnormal) AS abnormal, SUM(crashed) AS crashed,
       SUM(last_users) AS last_users, SUM(last_crashed_users) AS last_crashed_users
     FROM release_session_hours WHERE ${sql} GROUP BY ${group}`,
    params,
  );
  return rows.map((row) => ({
    release: row.release,
    hour: row.hour,
    healthy: Number(row.healthy),
    errored: Number(row.errored),
    unhandled: Number(row.unhandled),
    abnormal: Number(row.abnormal),
    crashed: Number(row.crashed),
    lastUsers: Number(row.last_users),
    lastCrashedUsers: Number(row.last_crashed_users),
  }));
}

/** Distinct users and crashed users per hour of one release (each hour exact on its own). */
export async function userHours(
  db: Queryable,
  filter: HealthFilter,
): Promise<{ hour: string; users: number; crashedUsers: number }[]> {
  const { sql, params } = where(filter);
  const rows = await db.all<{ hour: string; users: number; crashed_users: number }>(
    `SELECT hour, COUNT(DISTINCT distinct_id) AS users, COUNT(DISTINCT CASE WHEN crashed = 1 THEN distinct_id END) AS crashed_users
     FROM release_session_users WHERE ${sql} GROUP BY hour`,
    params,
  );
  return rows.map((row) => ({ hour: row.hour, users: Number(row.users), crashedUsers: Number(row.crashed_users) }));
}

/** Version checks per release and hour in the range (version checks carry no key environment). */
export async function checkHours(
  db: Queryable,
  filter: Omit<HealthFilter, 'environment' | 'sdkEnvironment'>,
): Promise<{ release: string; hour: string; checks: number }[]> {
  const params = [filter.projectId, filter.since, filter.until];
  const sql = `project_id = ? AND hour >= ? AND hour < ?${releaseConditions(filter, params)}`;
  const rows = await db.all<{ release: string; hour: string; checks: number }>(
    `SELECT release, hour, checks FROM release_checks WHERE ${sql}`,
    params,
  );
  return rows.map((row) => ({ release: row.release, hour: row.hour, checks: Number(row.checks) }));
}
