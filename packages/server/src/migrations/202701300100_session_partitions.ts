/**
 * Session state in time partitions on PostgreSQL (issue 37, the contract step that
 * 202701140100_time_partitions left for later): release_sessions becomes a table partitioned by
 * RANGE on `started`, a partition per UTC day and a DEFAULT one, so that the partition keeper
 * drops a day of sessions whole once its update window has closed (plus a day) instead of the
 * release-health worker deleting every session row by row (release-health/partitions.ts,
 * worker.ts). SQLite keeps its table: on it this migration does nothing.
 *
 * Why days: a session's state is kept 6 days (Sentry's 5-day update window, plus a day), so the
 * table is about 9 partitions (the window, the edge, two ahead; a session may say it starts up to
 * a day ahead); weeks would keep up to twice as many rows as needed.
 *
 * The key must hold the partition column: (project_id, environment, sid, started). A session's
 * updates repeat its `started`, so its lookups name it (release-health/store.ts) and PostgreSQL
 * reads one partition. The release before this one inserts sessions with a target-less
 * `ON CONFLICT DO NOTHING` (202701140100 says why it had to be so) and finds, updates and deletes
 * them by (project_id, environment, sid) and by time: every statement of it stands on the new
 * table, so it keeps serving during a rolling upgrade (test/server/rolling-upgrade.test.ts,
 * test/db/session-partitions.test.ts). `started` is `COLLATE "C"`: ISO-8601 text then sorts, and
 * partitions by range, as time does. One exception, as with the columns 202701140100 changed: a
 * statement of an old process that returns `started` and was prepared on a connection before this
 * migration (a person's export, people/service.ts) now has a result of another collation, which
 * PostgreSQL refuses for a prepared statement ("cached plan must not change result type") on that
 * connection until the process is replaced; the intake's statements return no `started`.
 *
 * Indexes: the key (a session's lookups; erasure's by project) and a BRIN index on `started` in
 * place of the old btree: it is a few pages per partition, costs an insert next to nothing, and
 * serves the worker's delete of what the keeper cannot drop (DEFAULT's rows).
 */
import type { Database, Queryable } from '../db/database.ts';
import { ensurePartitions, type TimePartitioned } from '../db/time-partitions.ts';

const DAY_MS = 86_400_000;
/** Partitions are made for the existing rows at most this far back (older rows go to DEFAULT). */
const BACK_MS = 31 * DAY_MS;
/** And at least this far back: a session update is accepted 5 days after it started (parse.ts). */
const WINDOW_MS = 5 * DAY_MS;
/** And ahead of now, as the keeper makes them (release-health/partitions.ts). */
const AHEAD_MS = 2 * DAY_MS;

const SPEC: TimePartitioned = { table: 'release_sessions', column: 'started', width: 'day' };
const COLUMNS = 'project_id, environment, sid, release, sdk_environment, distinct_id, hour, started, status';

export async function up(q: Queryable, dialect: Database['dialect']): Promise<void> {
  if (dialect !== 'postgres') return;
  const now = new Date();
  await q.run('ALTER TABLE release_sessions RENAME TO release_sessions_unpartitioned');
  // The new table takes the old names: the index and the key's index go first.
  await q.run('DROP INDEX release_sessions_started');
  await q.run('ALTER TABLE release_sessions_unpartitioned DROP CONSTRAINT release_sessions_pkey');
  await q.run(`CREATE TABLE release_sessions (
    project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    environment TEXT NOT NULL,
    sid TEXT NOT NULL,
    release TEXT NOT NULL,
    sdk_environment TEXT NOT NULL,
    distinct_id TEXT,
    hour TEXT NOT NULL,
    started TEXT COLLATE "C" NOT NULL,
    status TEXT NOT NULL,
    PRIMARY KEY (project_id, environment, sid, started)
  ) PARTITION BY RANGE (started)`);
  await q.run('CREATE TABLE release_sessions_default PARTITION OF release_sessions DEFAULT');
  const range = await q.get<{ oldest: string | null }>(
    'SELECT MIN(started) AS oldest FROM release_sessions_unpartitioned',
  );
  const floor = new Date(now.getTime() - BACK_MS);
  const window = new Date(now.getTime() - WINDOW_MS);
  const oldest = range?.oldest ? new Date(range.oldest) : window;
  const from = Number.isNaN(oldest.getTime()) || oldest < floor ? floor : oldest > window ? window : oldest;
  await ensurePartitions(q, SPEC, from, new Date(now.getTime() + AHEAD_MS));
  await q.run(`INSERT INTO release_sessions (${COLUMNS}) SELECT ${COLUMNS} FROM release_sessions_unpartitioned`);
  await q.run('DROP TABLE release_sessions_unpartitioned');
  await q.run('CREATE INDEX release_sessions_started ON release_sessions USING brin (started)');
  await q.run('ANALYZE release_sessions');
}
