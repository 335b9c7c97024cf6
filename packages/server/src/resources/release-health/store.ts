/**
 * The only SQL on release health's tables (migration 202612150100): session state while updates
 * are accepted, sessions per hour by counted status, users per hour, version checks per hour.
 */
import type { Queryable } from '../../db/database.ts';
import type { Scope } from '../../kernel/scope.ts';
import {
  COUNTED_STATUSES,
  type CountedStatus,
  STATUS_RANK,
  type SessionAggregate,
  type SessionUpdate,
} from './parse.ts';

interface SessionState {
  release: string;
  sdk_environment: string;
  hour: string;
  status: CountedStatus;
  distinct_id: string | null;
}

const HOUR_COLUMNS: Record<CountedStatus, string> = {
  healthy: 'healthy',
  errored: 'errored',
  unhandled: 'unhandled',
  abnormal: 'abnormal',
  crashed: 'crashed',
};

/** Statements per status, built once (the column is the only thing that differs). */
const ADD_HOUR = Object.fromEntries(
  Object.entries(HOUR_COLUMNS).map(([status, column]) => [
    status,
    `INSERT INTO release_session_hours (project_id, environment, release, sdk_environment, hour, ${column})
     VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (project_id, environment, release, sdk_environment, hour)
     DO UPDATE SET ${column} = release_session_hours.${column} + excluded.${column}`,
  ]),
) as Record<CountedStatus, string>;

const MOVE_HOUR = new Map<string, string>();
function moveStatement(from: CountedStatus, to: CountedStatus): string {
  const key = `${from}>${to}`;
  let sql = MOVE_HOUR.get(key);
  if (!sql) {
    sql = `UPDATE release_session_hours SET ${HOUR_COLUMNS[from]} = ${HOUR_COLUMNS[from]} - 1, ${HOUR_COLUMNS[to]} = ${HOUR_COLUMNS[to]} + 1
      WHERE project_id = ? AND environment = ? AND release = ? AND sdk_environment = ? AND hour = ?`;
    MOVE_HOUR.set(key, sql);
  }
  return sql;
}

async function addHour(
  tx: Queryable,
  scope: Scope,
  at: { release: string; sdkEnvironment: string; hour: string },
  status: CountedStatus,
  n: number,
): Promise<void> {
  await tx.run(ADD_HOUR[status], [scope.projectId, scope.environment, at.release, at.sdkEnvironment, at.hour, n]);
}

async function addUser(
  tx: Queryable,
  scope: Scope,
  at: { release: string; sdkEnvironment: string; hour: string },
  did: string,
  crashed: boolean,
): Promise<void> {
  await tx.run(
    `INSERT INTO release_session_users (project_id, environment, release, sdk_environment, hour, distinct_id, crashed)
     VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (project_id, environment, release, sdk_environment, hour, distinct_id)
     DO UPDATE SET crashed = 1 WHERE excluded.crashed = 1 AND release_session_users.crashed = 0`,
    [scope.projectId, scope.environment, at.release, at.sdkEnvironment, at.hour, did, crashed ? 1 : 0],
  );
}

const HOUR_KEY = 'project_id = ? AND environment = ? AND release = ? AND sdk_environment = ? AND hour = ?';

/** Moves a per-hour user counter (`last_users` or `last_crashed_users`) by `by`, creating the hour. */
async function moveUserCounter(
  tx: Queryable,
  scope: Scope,
  at: { release: string; sdkEnvironment: string; hour: string },
  column: 'last_users' | 'last_crashed_users',
  by: 1 | -1,
): Promise<void> {
  const key = [scope.projectId, scope.environment, at.release, at.sdkEnvironment, at.hour];
  if (by === -1) {
    await tx.run(`UPDATE release_session_hours SET ${column} = ${column} - 1 WHERE ${HOUR_KEY}`, key);
    return;
  }
  await tx.run(
    `INSERT INTO release_session_hours (project_id, environment, release, sdk_environment, hour, ${column})
     VALUES (?, ?, ?, ?, ?, 1)
     ON CONFLICT (project_id, environment, release, sdk_environment, hour)
     DO UPDATE SET ${column} = release_session_hours.${column} + 1`,
    key,
  );
}

/**
 * A user seen in a session of the release that started in `at.hour` (crashed or not): the user's
 * latest hour (and latest crash hour) moves forward, and the per-hour counters with it, so the
 * users seen since any hour are one sum (exact for ranges that end now, which all of the API's
 * do). The user's row is locked first, as a session's is.
 */
async function touchUser(
  tx: Queryable,
  scope: Scope,
  at: { release: string; sdkEnvironment: string; hour: string },
  did: string,
  crashed: boolean,
): Promise<void> {
  await addUser(tx, scope, at, did, crashed);
  const key = [scope.projectId, scope.environment, at.release, at.sdkEnvironment, did];
  const lock = () =>
    tx.all<{ last_hour: string; crash_hour: string | null }>(
      `UPDATE release_users SET last_hour = last_hour
       WHERE project_id = ? AND environment = ? AND release = ? AND sdk_environment = ? AND distinct_id = ?
       RETURNING last_hour, crash_hour`,
      key,
    );
  let [user] = await lock();
  if (!user) {
    const inserted = await tx.all<{ last_hour: string }>(
      `INSERT INTO release_users (project_id, environment, release, sdk_environment, distinct_id, last_hour, crash_hour)
       VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (project_id, environment, release, sdk_environment, distinct_id)
       DO NOTHING RETURNING last_hour`,
      [...key, at.hour, crashed ? at.hour : null],
    );
    if (inserted.length === 1) {
      await moveUserCounter(tx, scope, at, 'last_users', 1);
      if (crashed) await moveUserCounter(tx, scope, at, 'last_crashed_users', 1);
      return;
    }
    [user] = await lock();
    if (!user) return;
  }
  const where = 'project_id = ? AND environment = ? AND release = ? AND sdk_environment = ? AND distinct_id = ?';
  if (at.hour > user.last_hour) {
    await tx.run(`UPDATE release_users SET last_hour = ? WHERE ${where}`, [at.hour, ...key]);
    await moveUserCounter(tx, scope, { ...at, hour: user.last_hour }, 'last_users', -1);
    await moveUserCounter(tx, scope, at, 'last_users', 1);
  }
  if (crashed && (user.crash_hour === null || at.hour > user.crash_hour)) {
    await tx.run(`UPDATE release_users SET crash_hour = ? WHERE ${where}`, [at.hour, ...key]);
    if (user.crash_hour !== null) {
      await moveUserCounter(tx, scope, { ...at, hour: user.crash_hour }, 'last_crashed_users', -1);
    }
    await moveUserCounter(tx, scope, at, 'last_crashed_users', 1);
  }
}

/**
 * One session update, inside the envelope's transaction. The first update of a session counts
 * it under the release, SDK environment and hour it started in; a later one moves it only to a
 * worse status (an `exited` after `crashed` changes nothing). The session's row is locked first
 * (a no-op UPDATE), so concurrent updates of one session on PostgreSQL count it once.
 */
export async function applySessionUpdate(tx: Queryable, scope: Scope, update: SessionUpdate): Promise<void> {
  const key = [scope.projectId, scope.environment, update.sid] as const;
  let [state] = await tx.all<SessionState>(
    `UPDATE release_sessions SET status = status WHERE project_id = ? AND environment = ? AND sid = ?
     RETURNING release, sdk_environment, hour, status, distinct_id`,
    key,
  );
  if (!state) {
    const inserted = await tx.all<{ sid: string }>(
      `INSERT INTO release_sessions (project_id, environment, sid, release, sdk_environment, distinct_id, hour, started, status)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (project_id, environment, sid) DO NOTHING RETURNING sid`,
      [...key, update.release, update.sdkEnvironment, update.did, update.hour, update.started, update.status],
    );
    if (inserted.length === 1) {
      await addHour(tx, scope, update, update.status, 1);
      if (update.did !== null) await touchUser(tx, scope, update, update.did, update.status === 'crashed');
      return;
    }
    // Another transaction inserted it meanwhile: now it is there to lock.
    [state] = await tx.all<SessionState>(
      `UPDATE release_sessions SET status = status WHERE project_id = ? AND environment = ? AND sid = ?
       RETURNING release, sdk_environment, hour, status, distinct_id`,
      key,
    );
    if (!state) return;
  }
  const at = { release: state.release, sdkEnvironment: state.sdk_environment, hour: state.hour };
  const worse = STATUS_RANK[update.status] > STATUS_RANK[state.status];
  if (worse) {
    await tx.run('UPDATE release_sessions SET status = ? WHERE project_id = ? AND environment = ? AND sid = ?', [
      update.status,
      ...key,
    ]);
    await tx.run(moveStatement(state.status, update.status), [
      scope.projectId,
      scope.environment,
      at.release,
      at.sdkEnvironment,
      at.hour,
    ]);
  }
  const did = state.distinct_id ?? update.did;
  if (did !== null && state.distinct_id === null) {
    await tx.run('UPDATE release_sessions SET distinct_id = ? WHERE project_id = ? AND environment = ? AND sid = ?', [
      did,
      ...key,
    ]);
    const status = worse ? update.status : state.status;
    await touchUser(tx, scope, at, did, status === 'crashed');
  } else if (did !== null && worse && update.status === 'crashed') {
    await touchUser(tx, scope, at, did, true);
  }
}

/** A `sessions` item's aggregate: counts added to its hour; its user, when named, counted. */
export async function applySessionAggregate(tx: Queryable, scope: Scope, aggregate: SessionAggregate): Promise<void> {
  for (const status of COUNTED_STATUSES) {
    if (aggregate[status] > 0) await addHour(tx, scope, aggregate, status, aggregate[status]);
  }
  if (aggregate.did !== null) await touchUser(tx, scope, aggregate, aggregate.did, aggregate.crashed > 0);
}

/** Adds version-check counts (the in-memory tally of one flush) in one transaction. */
export async function addVersionChecks(
  tx: Queryable,
  counts: readonly { projectId: string; release: string; hour: string; checks: number }[],
): Promise<void> {
  for (const count of counts) {
    await tx.run(
      `INSERT INTO release_checks (project_id, release, hour, checks) VALUES (?, ?, ?, ?)
       ON CONFLICT (project_id, release, hour) DO UPDATE SET checks = release_checks.checks + excluded.checks`,
      [count.projectId, count.release, count.hour, count.checks],
    );
  }
}

/**
 * Deletes up to `limit` rows of one table older than `cutoff`; the number deleted. Session
 * state goes once no update of it can be accepted any more, the counts after the retention.
 */
export async function expireBatch(
  db: Queryable,
  table: 'release_sessions' | 'release_session_hours' | 'release_session_users' | 'release_users' | 'release_checks',
  cutoff: string,
  limit: number,
): Promise<number> {
  const column = table === 'release_sessions' ? 'started' : table === 'release_users' ? 'last_hour' : 'hour';
  const key = {
    release_sessions: 'project_id, environment, sid',
    release_session_hours: 'project_id, environment, release, sdk_environment, hour',
    release_session_users: 'project_id, environment, release, sdk_environment, hour, distinct_id',
    release_users: 'project_id, environment, release, sdk_environment, distinct_id',
    release_checks: 'project_id, release, hour',
  }[table];
  const { changes } = await db.run(
    `DELETE FROM ${table} WHERE (${key}) IN (SELECT ${key} FROM ${table} WHERE ${column} < ? LIMIT ?)`,
    [cutoff, limit],
  );
  return changes;
}

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
}

function where(filter: HealthFilter): { sql: string; params: string[] } {
  const params = [filter.projectId, filter.environment, filter.since, filter.until];
  let sql = 'project_id = ? AND environment = ? AND hour >= ? AND hour < ?';
  if (filter.sdkEnvironment !== undefined) {
    sql += ' AND sdk_environment = ?';
    params.push(filter.sdkEnvironment);
  }
  if (filter.release !== undefined) {
    sql += ' AND release = ?';
    params.push(filter.release);
  }
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
  let sql = 'project_id = ? AND hour >= ? AND hour < ?';
  if (filter.release !== undefined) {
    sql += ' AND release = ?';
    params.push(filter.release);
  }
  const rows = await db.all<{ release: string; hour: string; checks: number }>(
    `SELECT release, hour, checks FROM release_checks WHERE ${sql}`,
    params,
  );
  return rows.map((row) => ({ release: row.release, hour: row.hour, checks: Number(row.checks) }));
}

/** Every release seen in sessions or version checks, with the first hour it was seen in. */
export async function seenReleases(
  db: Queryable,
  projectId: string,
  environment: string,
): Promise<{ release: string; first: string }[]> {
  return db.all<{ release: string; first: string }>(
    `SELECT release, MIN(first) AS first FROM (
       SELECT release, MIN(hour) AS first FROM release_session_hours WHERE project_id = ? AND environment = ? GROUP BY release
       UNION ALL
       SELECT release, MIN(hour) AS first FROM release_checks WHERE project_id = ? GROUP BY release
     ) seen GROUP BY release`,
    [projectId, environment, projectId],
  );
}

/** A person's sessions (issue 36's export), by the SDK's distinct id: their id or address. */
export async function sessionsOfUser(db: Queryable, projectId: string, distinctIds: readonly string[], limit: number) {
  if (distinctIds.length === 0) return [];
  return db.all<{
    environment: string;
    sid: string;
    release: string;
    sdk_environment: string;
    started: string;
    status: string;
  }>(
    `SELECT environment, sid, release, sdk_environment, started, status FROM release_sessions
     WHERE project_id = ? AND distinct_id IN (${distinctIds.map(() => '?').join(', ')}) ORDER BY started DESC LIMIT ?`,
    [projectId, ...distinctIds, limit],
  );
}

/**
 * Erasing a person (issue 36): each of their distinct ids becomes a new random one in every
 * table, so sessions, users per hour and crash-free users count the same and link to nobody.
 */
export async function eraseSessionUser(tx: Queryable, projectId: string, distinctIds: readonly string[]) {
  let sessions = 0;
  for (const id of distinctIds) {
    const replacement = `erased:${crypto.randomUUID()}`;
    for (const table of ['release_session_users', 'release_users'] as const) {
      await tx.run(`UPDATE ${table} SET distinct_id = ? WHERE project_id = ? AND distinct_id = ?`, [
        replacement,
        projectId,
        id,
      ]);
    }
    sessions += (
      await tx.run('UPDATE release_sessions SET distinct_id = ? WHERE project_id = ? AND distinct_id = ?', [
        replacement,
        projectId,
        id,
      ])
    ).changes;
  }
  return sessions;
}
