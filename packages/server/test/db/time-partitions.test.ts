/**
 * Time partitions on PostgreSQL (issue 37, db/time-partitions.ts, db/partition-keeper.ts): the
 * migration made error_events and release_session_users (both by week) partitioned tables with a
 * DEFAULT partition, and left release_sessions whole: the release before inserts sessions with
 * `ON CONFLICT (project_id, environment, sid)`, which a partitioned key (holding `started`) could not
 * match during a rolling upgrade; a later migration, 202701300100, partitions it by day
 * (test/db/session-partitions.test.ts). The release before's inserts of the tables partitioned
 * here are run against the new schema. The keeper makes partitions ahead and drops those wholly past retention, one
 * process at a time; a row with no partition for its time lands in DEFAULT and is still read, and
 * moves into its partition once the keeper makes it. Rows are written through the real routes and
 * aged by moving their times (PostgreSQL moves a row between partitions when its key changes); the
 * catalog (pg_inherits, pg_class) says where they are.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { Api } from '../support/api.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { migratedUpTo } from '../support/upgrade-suite.ts';
import { KEEPER_LOCK_CLASS, PartitionKeeper } from '../../src/db/partition-keeper.ts';
import { ALL_PUBLIC_SCOPES, createApiKey, createProject } from '../../src/resources/projects/index.ts';
import { slotStart } from '../../src/db/time-partitions.ts';
import { ReleaseHealthWorker, sessionUserPartitions } from '../../src/resources/release-health/mount.ts';
import { errorEventPartitions } from '../../src/resources/reports/mount.ts';
import { type ManagedProject, managedProject } from '../support/manage-fixtures.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const DAY = 86_400_000;
const silent = pino({ level: 'silent' });
const pgOnly = { skip: process.env['SIGNPOST_TEST_DB'] !== 'postgres' && 'PostgreSQL only' };

describe('time partitions on PostgreSQL', pgOnly, () => {
  let server: TestServer;
  let p: ManagedProject;
  before(async () => {
    // No keeper in the server: the tests' keepers are the only ones, at the times they name.
    server = await startTestServer({ env: { PARTITION_KEEPER_INTERVAL_MS: '0', ERROR_ALERT_POLL_MS: '0' } });
    p = await managedProject(server);
  });
  after(() => server?.close());

  const keeper = (eventRetentionDays = 90) =>
    new PartitionKeeper({
      db: server.db,
      tables: [errorEventPartitions(eventRetentionDays), sessionUserPartitions(90)],
      intervalMs: 0,
      log: silent,
    });

  /** The catalog's partitions of a table: name and bound, from pg_inherits and pg_class. */
  const partitionsOf = async (table: string) =>
    server.db.all<{ name: string; bound: string }>(
      `SELECT c.relname AS name, pg_get_expr(c.relpartbound, c.oid) AS bound
         FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = ?::regclass ORDER BY c.relname`,
      [table],
    );
  const exists = async (name: string) =>
    Number((await server.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM pg_class WHERE relname = ?', [name]))!.n) ===
    1;
  const partitionName = (table: string, at: Date, width: 'day' | 'week') =>
    `${table}_p${slotStart(at, width).toISOString().slice(0, 10).replaceAll('-', '')}`;

  /** A new error group with `n` events sent through POST /errors; its id. */
  const errorGroup = async (title: string, n: number) => {
    for (let i = 0; i < n; i++) {
      const sent = await p.live.post('/errors', { title, message: `${title} ${i}`, errorType: title.split(':')[0] });
      assert.ok([200, 201].includes(sent.status), sent.text);
    }
    const groups = await p.member.get(`/projects/${p.projectId}/error-groups`, { query: { q: title.split(':')[0] } });
    assert.equal(groups.status, 200, groups.text);
    return groups.body.groups[0].id as string;
  };
  const eventsOf = async (groupId: string) => {
    const response = await p.member.get(`/projects/${p.projectId}/error-groups/${groupId}/events`);
    assert.equal(response.status, 200, response.text);
    return response.body as { events: { eventId: string; receivedAt: string }[]; kept: number };
  };
  /** Which partition holds each of a group's events. */
  const placesOf = async (groupId: string) =>
    (
      await server.db.all<{ place: string }>(
        'SELECT tableoid::regclass::text AS place FROM error_events WHERE group_id = ? ORDER BY ordinal',
        [groupId],
      )
    ).map((row) => row.place);

  it('partitions two tables by range with a DEFAULT partition, and makes partitions ahead', async () => {
    const sessions = await server.db.get<{ kind: string }>(
      "SELECT relkind AS kind FROM pg_class WHERE relname = 'release_sessions'",
    );
    assert.equal(sessions?.kind, 'p', 'release_sessions too, by the later migration (session-partitions.test.ts)');
    for (const table of ['error_events', 'release_session_users']) {
      const kind = await server.db.get<{ kind: string }>('SELECT relkind AS kind FROM pg_class WHERE relname = ?', [
        table,
      ]);
      assert.equal(kind?.kind, 'p', `${table} is partitioned`);
      assert.ok((await partitionsOf(table)).some((row) => row.bound === 'DEFAULT' && row.name === `${table}_default`));
    }
    const now = new Date();
    await keeper().keep(now);
    const events = (await partitionsOf('error_events')).map((row) => row.name);
    for (const week of [0, 7, 14]) {
      assert.ok(
        events.includes(partitionName('error_events', new Date(now.getTime() + week * DAY), 'week')),
        `week +${week / 7}`,
      );
    }
    const users = (await partitionsOf('release_session_users')).map((row) => row.name);
    for (const week of [0, 7, 14]) {
      assert.ok(
        users.includes(partitionName('release_session_users', new Date(now.getTime() + week * DAY), 'week')),
        `session users' week +${week / 7}`,
      );
    }
    // A second pass has nothing to do.
    const again = await keeper().keep(now);
    assert.deepEqual(
      again.map((r) => [r.table, r.kept, r.created.length, r.dropped.length]),
      [
        ['error_events', true, 0, 0],
        ['release_session_users', true, 0, 0],
      ],
    );
  });

  it('drops the partitions wholly past retention, with their rows; the group and its counts stay', async () => {
    const now = new Date();
    const past = new Date(now.getTime() - 120 * DAY);
    // The keeper as it ran 120 days ago made that week's partition; the events are aged into it.
    await keeper().keep(past);
    const old = partitionName('error_events', past, 'week');
    assert.ok(await exists(old));
    const groupId = await errorGroup('PartitionAgeError: old', 3);
    await server.db.run('UPDATE error_events SET received_at = ? WHERE group_id = ?', [past.toISOString(), groupId]);
    assert.deepEqual(await placesOf(groupId), [old, old, old]);
    assert.equal((await eventsOf(groupId)).kept, 3);

    const [events] = await keeper().keep(now);
    assert.ok(
      events!.dropped.some((partition) => partition.name === old),
      'the old week was dropped',
    );
    assert.equal(await exists(old), false);
    assert.equal((await eventsOf(groupId)).kept, 0);
    const group = await p.member.get(`/projects/${p.projectId}/error-groups/${groupId}`);
    assert.equal(group.status, 200, group.text);
    assert.equal(group.body.events, 3, 'the count stays');
    // The weeks still within retention stay.
    assert.ok(await exists(partitionName('error_events', now, 'week')));
  });

  it("runs the release before's inserts on the new tables (a rolling upgrade's old processes)", async () => {
    // As the release before this migration wrote them (its release-health/store.ts and
    // reports/store-groups.ts): each conflict target must match a unique index, or PostgreSQL
    // refuses the statement (42P10) and every such request of an old process answers 500. Its
    // session insert, `ON CONFLICT (project_id, environment, sid)`, stood on this migration's
    // schema and no longer does on 202701300100's (release_sessions' key holds `started`): that
    // migration is the contract step, for a rolling upgrade from the release after this one,
    // whose insert names no target (session-partitions.test.ts runs its statements).
    const hour = `${new Date().toISOString().slice(0, 13)}:00:00.000Z`;
    for (let i = 0; i < 2; i++) {
      await server.db.run(
        `INSERT INTO release_session_users (project_id, environment, release, sdk_environment, hour, distinct_id, crashed)
         VALUES (?, 'live', '9.0.0', 'production', ?, 'ada', 0)
         ON CONFLICT (project_id, environment, release, sdk_environment, hour, distinct_id)
         DO UPDATE SET crashed = 1 WHERE excluded.crashed = 1 AND release_session_users.crashed = 0`,
        [p.projectId, hour],
      );
    }
    const count = async (table: string) =>
      Number(
        (await server.db.get<{ n: number }>(
          `SELECT COUNT(*) AS n FROM ${table} WHERE project_id = ? AND release = '9.0.0'`,
          [p.projectId],
        ))!.n,
      );
    assert.equal(await count('release_session_users'), 1);
  });

  it('drops session users by the week past retention; session state with no day of its own is expired by the worker', async () => {
    const number = (await server.db.get<{ ingest_number: number }>('SELECT ingest_number FROM projects WHERE id = ?', [
      p.projectId,
    ]))!.ingest_number;
    const url = `${server.origin}/api/${number}/envelope/?sentry_key=${p.liveKey}`;
    const sid = randomUUID();
    const body = [
      '{}',
      '{"type":"session"}',
      JSON.stringify({
        sid,
        did: 'grace',
        status: 'exited',
        started: new Date().toISOString(),
        attrs: { release: '9.1.0' },
      }),
    ].join('\n');
    assert.equal((await fetch(url, { method: 'POST', body })).status, 200);
    const now = new Date();
    const past = new Date(now.getTime() - 120 * DAY);
    await keeper().keep(past);
    const old = partitionName('release_session_users', past, 'week');
    const pastHour = `${past.toISOString().slice(0, 13)}:00:00.000Z`;
    await server.db.run(
      "UPDATE release_session_users SET hour = ? WHERE project_id = ? AND release = '9.1.0' AND distinct_id = 'grace'",
      [pastHour, p.projectId],
    );
    const place = await server.db.get<{ place: string }>(
      "SELECT tableoid::regclass::text AS place FROM release_session_users WHERE project_id = ? AND release = '9.1.0'",
      [p.projectId],
    );
    assert.equal(place?.place, old);
    const [, users] = await keeper().keep(now);
    assert.ok(users!.dropped.some((partition) => partition.name === old));
    assert.equal(await exists(old), false);

    // No release_sessions partition is that old (this file's keepers do not keep it): the row
    // lands in DEFAULT, which no drop empties, and the worker's batches delete it.
    await server.db.run('UPDATE release_sessions SET started = ? WHERE sid = ?', [
      new Date(now.getTime() - 10 * DAY).toISOString(),
      sid,
    ]);
    const worker = new ReleaseHealthWorker({ db: server.db, retentionDays: 3650, log: silent });
    assert.ok((await worker.expire(now)) >= 1);
    assert.equal(
      Number(
        (await server.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM release_sessions WHERE sid = ?', [sid]))!.n,
      ),
      0,
    );
  });

  it('puts a row with no partition for its time in DEFAULT, reads it there, and moves it into its partition once made', async () => {
    const groupId = await errorGroup('PartitionFutureError: later', 2);
    const later = new Date(Date.now() + 400 * DAY);
    const [first] = await server.db.all<{ ordinal: number }>(
      'SELECT ordinal FROM error_events WHERE group_id = ? ORDER BY ordinal LIMIT 1',
      [groupId],
    );
    await server.db.run('UPDATE error_events SET received_at = ? WHERE group_id = ? AND ordinal = ?', [
      later.toISOString(),
      groupId,
      first!.ordinal,
    ]);
    assert.equal((await placesOf(groupId))[0], 'error_events_default');
    const read = await eventsOf(groupId);
    assert.equal(read.kept, 2);
    assert.equal(read.events[0]!.receivedAt, later.toISOString(), 'the newest, read from DEFAULT');

    // The keeper as it will run then (a retention long enough to keep today's weeks).
    await keeper(3650).keep(later);
    const made = partitionName('error_events', later, 'week');
    assert.equal((await placesOf(groupId))[0], made);
    assert.equal(
      Number((await server.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM error_events_default'))!.n),
      0,
      'DEFAULT is empty again',
    );
    assert.equal((await eventsOf(groupId)).events[0]!.receivedAt, later.toISOString());
  });

  it('keeps a table in one process at a time: a keeper that finds the lock held skips it', async () => {
    await server.db.transaction(async (tx) => {
      // What another process's keeper holds while it keeps error_events.
      await tx.all('SELECT pg_advisory_xact_lock(?::int, hashtext(?))', [KEEPER_LOCK_CLASS, 'error_events']);
      const results = await keeper().keep(new Date());
      assert.deepEqual(
        results.map((r) => [r.table, r.kept]),
        [
          ['error_events', false],
          ['release_session_users', true],
        ],
      );
    });
    const [events] = await keeper().keep(new Date());
    assert.equal(events!.kept, true, 'once the lock is free, it keeps the table again');
  });
});

describe('the migration to time partitions keeps the rows', pgOnly, () => {
  let database: TestDatabase;
  let server: TestServer;
  let key: string;
  const now = Date.now();
  const times = [40 * DAY, 3 * DAY, 60_000].map((ago) => new Date(now - ago).toISOString());
  const sid = randomUUID();

  before(async () => {
    database = await createTestDatabase();
    const db = await migratedUpTo(database, '202701140100_time_partitions');
    // What the server before the migration wrote: a group with three kept events, a live session
    // and its user's hour.
    await createProject(db, { id: 'parted', name: 'Parted', slug: 'parted', monthlyQuota: null });
    key = (await createApiKey(db, 'parted', 'live', ALL_PUBLIC_SCOPES)).key;
    await db.run(
      `INSERT INTO error_groups (id, project_id, environment, sdk_environment, group_key, title, level, first_seen_at, last_seen_at, own_events, events)
       VALUES ('eg_parted', 'parted', 'live', 'production', 'k', 'PartedError', 'error', ?, ?, 3, 3)`,
      [times[0]!, times[2]!],
    );
    for (const [i, at] of times.entries()) {
      await db.run(
        `INSERT INTO error_events (group_id, ordinal, event_id, received_at, release, sdk_environment, user_key, handled, payload)
         VALUES ('eg_parted', ?, ?, ?, NULL, 'production', NULL, 1, 'x')`,
        [i + 1, `e${i}`, at],
      );
    }
    const started = new Date(now - 2 * DAY).toISOString();
    await db.run(
      `INSERT INTO release_sessions (project_id, environment, sid, release, sdk_environment, distinct_id, hour, started, status)
       VALUES ('parted', 'live', ?, '1.0.0', 'production', 'ada', ?, ?, 'healthy')`,
      [sid, `${started.slice(0, 13)}:00:00.000Z`, started],
    );
    await db.run(
      `INSERT INTO release_session_users (project_id, environment, release, sdk_environment, hour, distinct_id, crashed)
       VALUES ('parted', 'live', '1.0.0', 'production', ?, 'ada', 0)`,
      [`${started.slice(0, 13)}:00:00.000Z`],
    );
    await db.close();
    server = await startTestServer({ database, env: { PARTITION_KEEPER_INTERVAL_MS: '0' } });
  });
  after(async () => {
    await server?.close();
    await database?.drop();
  });

  it('moves every event, session user and session into the partition of its time, none in DEFAULT', async () => {
    const events = await server.db.all<{ at: string; place: string }>(
      "SELECT received_at AS at, tableoid::regclass::text AS place FROM error_events WHERE group_id = 'eg_parted' ORDER BY ordinal",
    );
    assert.deepEqual(
      events.map((row) => row.at),
      times,
    );
    for (const row of events) {
      assert.equal(
        row.place,
        `error_events_p${slotStart(new Date(row.at), 'week').toISOString().slice(0, 10).replaceAll('-', '')}`,
      );
    }
    const user = await server.db.get<{ hour: string; place: string }>(
      "SELECT hour, tableoid::regclass::text AS place FROM release_session_users WHERE project_id = 'parted'",
    );
    assert.equal(
      user?.place,
      `release_session_users_p${slotStart(new Date(user!.hour), 'week').toISOString().slice(0, 10).replaceAll('-', '')}`,
    );
    const session = await server.db.get<{ place: string }>(
      'SELECT tableoid::regclass::text AS place FROM release_sessions WHERE sid = ?',
      [sid],
    );
    assert.equal(
      session?.place,
      `release_sessions_p${slotStart(new Date(now - 2 * DAY), 'day')
        .toISOString()
        .slice(0, 10)
        .replaceAll('-', '')}`,
      'by the later migration, 202701300100',
    );
  });

  it('finds a session from before the migration by its id: a later update changes it, not counts it again', async () => {
    const api = new Api(server.baseUrl, key);
    const started = (await server.db.get<{ started: string }>('SELECT started FROM release_sessions WHERE sid = ?', [
      sid,
    ]))!.started;
    const sent = await api.post('/sessions', {
      sessions: [{ sid, did: 'ada', status: 'crashed', started, release: '1.0.0' }],
    });
    assert.equal(sent.status, 200, sent.text);
    const rows = await server.db.all<{ status: string }>('SELECT status FROM release_sessions WHERE sid = ?', [sid]);
    assert.deepEqual(rows, [{ status: 'crashed' }]);
  });
});
