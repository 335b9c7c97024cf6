/**
 * Release health's intake writes (tables of migration 202612150100): a session's state while
 * updates are accepted, sessions per hour by counted status, users per hour and each user's
 * latest hour, and the running totals they move (store-totals.ts). The other SQL on these tables:
 * version checks (store-checks.ts), retention (store-expiry.ts), the charts' reads
 * (store-hour-reads.ts), a person's sessions (store-erasure.ts), bulk loads (store-load.ts).
 */
import type { Queryable } from '../../db/database.ts';
import type { Scope } from '../../kernel/scope.ts';
import {
  COUNTED_STATUSES,
  type CountedStatus,
  STATUS_RANK,
  type SessionAggregate,
  type SessionUpdate,
  FUTURE_MS,
  UPDATE_WINDOW_MS,
} from './parse.ts';
import { addTotals, noDelta, type TotalsDelta } from './store-totals.ts';

interface SessionState {
  release: string;
  sdk_environment: string;
  hour: string;
  started: string;
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
): Promise<boolean> {
  const key = [scope.projectId, scope.environment, at.release, at.sdkEnvironment, at.hour];
  if (by === -1) {
    const { changes } = await tx.run(
      `UPDATE release_session_hours SET ${column} = ${column} - 1 WHERE ${HOUR_KEY}`,
      key,
    );
    return changes === 1;
  }
  await tx.run(
    `INSERT INTO release_session_hours (project_id, environment, release, sdk_environment, hour, ${column})
     VALUES (?, ?, ?, ?, ?, 1)
     ON CONFLICT (project_id, environment, release, sdk_environment, hour)
     DO UPDATE SET ${column} = release_session_hours.${column} + 1`,
    key,
  );
  return true;
}

/**
 * A user seen in a session of the release that started in `at.hour` (crashed or not): the user's
 * latest hour (and latest crash hour) moves forward, and the per-hour counters with it, so the
 * users seen since any hour are one sum (exact for ranges that end now, which all of the API's
 * do). The user's row is locked first, as a session's is. What the per-hour counters gain in sum
 * (a new user, a first crash; a move between hours nets nothing) is added to `delta`, for the
 * key's running totals.
 */
async function touchUser(
  tx: Queryable,
  scope: Scope,
  at: { release: string; sdkEnvironment: string; hour: string },
  did: string,
  crashed: boolean,
  delta: TotalsDelta,
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
      delta.users++;
      if (crashed) {
        await moveUserCounter(tx, scope, at, 'last_crashed_users', 1);
        delta.crashedUsers++;
      }
      return;
    }
    [user] = await lock();
    if (!user) return;
  }
  const where = 'project_id = ? AND environment = ? AND release = ? AND sdk_environment = ? AND distinct_id = ?';
  if (at.hour > user.last_hour) {
    await tx.run(`UPDATE release_users SET last_hour = ? WHERE ${where}`, [at.hour, ...key]);
    // The old hour's row may have been expired since (retention): then the sum grows by one.
    if (!(await moveUserCounter(tx, scope, { ...at, hour: user.last_hour }, 'last_users', -1))) delta.users++;
    await moveUserCounter(tx, scope, at, 'last_users', 1);
  }
  if (crashed && (user.crash_hour === null || at.hour > user.crash_hour)) {
    await tx.run(`UPDATE release_users SET crash_hour = ? WHERE ${where}`, [at.hour, ...key]);
    const moved =
      user.crash_hour !== null &&
      (await moveUserCounter(tx, scope, { ...at, hour: user.crash_hour }, 'last_crashed_users', -1));
    if (!moved) delta.crashedUsers++;
    await moveUserCounter(tx, scope, at, 'last_crashed_users', 1);
  }
}

/**
 * How far apart two starts of one session's updates can be: each update's start is accepted from
 * UPDATE_WINDOW_MS before its arrival to FUTURE_MS after it (parse.ts).
 */
const SAME_SESSION_MS = UPDATE_WINDOW_MS + FUTURE_MS;

/** A session by its id (the day of its start is added where it is known). */
const SESSION = 'WHERE project_id = ? AND environment = ? AND sid = ?';
/** A session's row, locked (a no-op UPDATE), as the statement finds it. */
const LOCK_SESSION = `UPDATE release_sessions SET status = status ${SESSION}`;
const LOCKED = 'RETURNING release, sdk_environment, hour, started, status, distinct_id';

/**
 * One session update, inside the envelope's transaction. The first update of a session counts
 * it under the release, SDK environment and hour it started in; a later one moves it only to a
 * worse status (an `exited` after `crashed` changes nothing). The session's row is locked first
 * (a no-op UPDATE), so concurrent updates of one session on PostgreSQL count it once.
 *
 * A session's updates repeat its `started` (Sentry's SDKs set it once), so the first lookup names
 * it: on PostgreSQL, where release_sessions is partitioned by day of `started` and its key holds it
 * (migration 202701300100, partitions.ts), that lookup reads that day's partition alone. An update
 * that names another start (a client of POST /sessions may send its own clock's) is still its
 * session's: when the first lookup misses, the session is looked for by id among the starts its
 * updates can have (both within the accepted window of the update's time, so at most six days
 * either side of the update's `started`: a dozen day partitions, only for a new session or such an
 * update), as SQLite's key (project_id, environment, sid) finds it, before a new one is inserted.
 */
export async function applySessionUpdate(tx: Queryable, scope: Scope, update: SessionUpdate): Promise<void> {
  const key = [scope.projectId, scope.environment, update.sid] as const;
  let [state] = await tx.all<SessionState>(`${LOCK_SESSION} AND started = ? ${LOCKED}`, [...key, update.started]);
  if (!state) {
    const at = Date.parse(update.started);
    [state] = await tx.all<SessionState>(`${LOCK_SESSION} AND started >= ? AND started <= ? ${LOCKED}`, [
      ...key,
      new Date(at - SAME_SESSION_MS).toISOString(),
      new Date(at + SAME_SESSION_MS).toISOString(),
    ]);
  }
  if (!state) {
    // No conflict target, on purpose: the key is (project_id, environment, sid) on SQLite and
    // (project_id, environment, sid, started) on PostgreSQL (partitions.ts), and the release
    // before the partitioning inserted with this statement too: it stands on both shapes.
    const inserted = await tx.all<{ sid: string }>(
      `INSERT INTO release_sessions (project_id, environment, sid, release, sdk_environment, distinct_id, hour, started, status)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING sid`,
      [...key, update.release, update.sdkEnvironment, update.did, update.hour, update.started, update.status],
    );
    if (inserted.length === 1) {
      await addHour(tx, scope, update, update.status, 1);
      const delta = noDelta();
      delta[update.status] = 1;
      if (update.did !== null) await touchUser(tx, scope, update, update.did, update.status === 'crashed', delta);
      await addTotals(tx, scope, update, delta);
      return;
    }
    // Another transaction inserted it meanwhile: now it is there to lock. Or (on SQLite) the
    // session is there with another `started`: found by id alone, as before the partitioning.
    [state] = await tx.all<SessionState>(`${LOCK_SESSION} AND started = ? ${LOCKED}`, [...key, update.started]);
    state ??= (await tx.all<SessionState>(`${LOCK_SESSION} ${LOCKED}`, key))[0];
    if (!state) return;
  }
  // The row found, by its key: on PostgreSQL its day's partition.
  const row = [...key, state.started];
  const at = { release: state.release, sdkEnvironment: state.sdk_environment, hour: state.hour };
  const worse = STATUS_RANK[update.status] > STATUS_RANK[state.status];
  const delta = noDelta();
  if (worse) {
    delta[state.status]--;
    delta[update.status]++;
    await tx.run(`UPDATE release_sessions SET status = ? ${SESSION} AND started = ?`, [update.status, ...row]);
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
    await tx.run(`UPDATE release_sessions SET distinct_id = ? ${SESSION} AND started = ?`, [did, ...row]);
    const status = worse ? update.status : state.status;
    await touchUser(tx, scope, at, did, status === 'crashed', delta);
  } else if (did !== null && worse && update.status === 'crashed') {
    await touchUser(tx, scope, at, did, true, delta);
  }
  await addTotals(tx, scope, at, delta);
}

/** A `sessions` item's aggregate: counts added to its hour; its user, when named, counted. */
export async function applySessionAggregate(tx: Queryable, scope: Scope, aggregate: SessionAggregate): Promise<void> {
  const delta = noDelta();
  for (const status of COUNTED_STATUSES) {
    if (aggregate[status] > 0) await addHour(tx, scope, aggregate, status, aggregate[status]);
    delta[status] = aggregate[status];
  }
  if (aggregate.did !== null) await touchUser(tx, scope, aggregate, aggregate.did, aggregate.crashed > 0, delta);
  await addTotals(tx, scope, aggregate, delta);
}
