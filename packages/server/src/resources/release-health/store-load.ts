/**
 * A load of many Sentry `sessions` aggregates in a few multi-row statements, for bulk writers
 * (the bench's seed of 1,000,000 sessions, about 16,800 aggregates: written one by one as the
 * intake does, eight statements each, it took 599 s on PostgreSQL, a round trip per statement).
 *
 * It writes the rows applySessionAggregate (store.ts) would write for aggregates whose users are
 * new to their release and SDK environment: their hour's counts (with `last_users` and
 * `last_crashed_users` moved to that hour), the user in that hour, the user's latest (crash)
 * hour, and each key's running totals. A user who is already there, or named twice in one load,
 * fails the insert into release_users (no ON CONFLICT), so a load never counts a user twice; the
 * transaction rolls back with it. Anything else (updates of known users) goes through
 * applySessionAggregate.
 */
import type { Queryable, SqlValue } from '../../db/database.ts';
import type { Scope } from '../../kernel/scope.ts';
import type { SessionAggregate } from './parse.ts';
import { TOTALS_INSERT, TOTALS_ON_CONFLICT, TOTALS_ROW, totalsRow } from './store-totals.ts';

/** Rows of a multi-row INSERT per statement (parameters stay far below either database's limit). */
const ROWS_PER_STATEMENT = 500;

type Counts = Pick<SessionAggregate, 'healthy' | 'errored' | 'unhandled' | 'abnormal' | 'crashed'>;
type Sums = Counts & { users: number; crashedUsers: number };

/** Adds `from`'s counts to `into`, and its user (new, crashed or not) when it names one. */
function add(into: Sums, from: SessionAggregate): void {
  into.healthy += from.healthy;
  into.errored += from.errored;
  into.unhandled += from.unhandled;
  into.abnormal += from.abnormal;
  into.crashed += from.crashed;
  if (from.did !== null) {
    into.users++;
    if (from.crashed > 0) into.crashedUsers++;
  }
}

const zero = (): Sums => ({ healthy: 0, errored: 0, unhandled: 0, abnormal: 0, crashed: 0, users: 0, crashedUsers: 0 });

async function insertChunked<T>(
  tx: Queryable,
  rows: readonly T[],
  head: string,
  tuple: string,
  tail: string,
  params: (row: T) => SqlValue[],
): Promise<void> {
  for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
    const chunk = rows.slice(start, start + ROWS_PER_STATEMENT);
    await tx.run(`${head} VALUES ${chunk.map(() => tuple).join(', ')} ${tail}`, chunk.flatMap(params));
  }
}

/** Writes `aggregates` (users new to their release) as applySessionAggregate would, one at a time. */
export async function loadSessionAggregates(
  tx: Queryable,
  scope: Scope,
  aggregates: readonly SessionAggregate[],
): Promise<void> {
  // An aggregate of no session and no user writes nothing, as in applySessionAggregate.
  aggregates = aggregates.filter(
    (a) => a.did !== null || a.healthy + a.errored + a.unhandled + a.abnormal + a.crashed > 0,
  );
  // One row per hour key and per totals key: a multi-row upsert may not touch a row twice.
  const hours = new Map<string, { at: SessionAggregate; sums: Sums }>();
  const totals = new Map<string, { at: SessionAggregate; first: string; last: string; sums: Sums }>();
  for (const aggregate of aggregates) {
    const key = `${aggregate.release}\n${aggregate.sdkEnvironment}`;
    const hour = hours.get(`${key}\n${aggregate.hour}`) ?? { at: aggregate, sums: zero() };
    add(hour.sums, aggregate);
    hours.set(`${key}\n${aggregate.hour}`, hour);
    const total = totals.get(key) ?? { at: aggregate, first: aggregate.hour, last: aggregate.hour, sums: zero() };
    if (aggregate.hour < total.first) total.first = aggregate.hour;
    if (aggregate.hour > total.last) total.last = aggregate.hour;
    add(total.sums, aggregate);
    totals.set(key, total);
  }
  const users = aggregates.filter((a): a is SessionAggregate & { did: string } => a.did !== null);
  const { projectId, environment } = scope;
  // First the users: a known one fails here, before anything is counted.
  await insertChunked(
    tx,
    users,
    'INSERT INTO release_users (project_id, environment, release, sdk_environment, distinct_id, last_hour, crash_hour)',
    '(?, ?, ?, ?, ?, ?, ?)',
    '',
    (a) => [projectId, environment, a.release, a.sdkEnvironment, a.did, a.hour, a.crashed > 0 ? a.hour : null],
  );
  await insertChunked(
    tx,
    users,
    'INSERT INTO release_session_users (project_id, environment, release, sdk_environment, hour, distinct_id, crashed)',
    '(?, ?, ?, ?, ?, ?, ?)',
    '',
    (a) => [projectId, environment, a.release, a.sdkEnvironment, a.hour, a.did, a.crashed > 0 ? 1 : 0],
  );
  await insertChunked(
    tx,
    [...hours.values()],
    `INSERT INTO release_session_hours (project_id, environment, release, sdk_environment, hour,
       healthy, errored, unhandled, abnormal, crashed, last_users, last_crashed_users)`,
    '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    `ON CONFLICT (project_id, environment, release, sdk_environment, hour) DO UPDATE SET
       healthy = release_session_hours.healthy + excluded.healthy,
       errored = release_session_hours.errored + excluded.errored,
       unhandled = release_session_hours.unhandled + excluded.unhandled,
       abnormal = release_session_hours.abnormal + excluded.abnormal,
       crashed = release_session_hours.crashed + excluded.crashed,
       last_users = release_session_hours.last_users + excluded.last_users,
       last_crashed_users = release_session_hours.last_crashed_users + excluded.last_crashed_users`,
    ({ at, sums: s }) => [
      projectId,
      environment,
      at.release,
      at.sdkEnvironment,
      at.hour,
      s.healthy,
      s.errored,
      s.unhandled,
      s.abnormal,
      s.crashed,
      s.users,
      s.crashedUsers,
    ],
  );
  await insertChunked(
    tx,
    [...totals.values()],
    TOTALS_INSERT,
    TOTALS_ROW,
    TOTALS_ON_CONFLICT,
    ({ at, first, last, sums }) => totalsRow(scope, at, { first, last }, sums),
  );
}
