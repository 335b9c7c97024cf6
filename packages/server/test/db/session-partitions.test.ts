/**
 * Session state in day partitions on PostgreSQL (issue 37; migration 202701300100_session_partitions,
 * resources/release-health/partitions.ts): release_sessions by UTC day of `started`, with a
 * DEFAULT partition, its key (project_id, environment, sid, started). A session lands in its day's
 * partition and its updates find it there, reading that partition alone (the statements the intake
 * runs, recorded and EXPLAINed); the keeper drops a day once its sessions' state is past (6 days),
 * and the release-health worker deletes none of a day the keeper drops, only what is left where no
 * drop reaches (DEFAULT). A person's sessions are listed and erased across days. The migration
 * moves the rows of the table before it into their days, and the release before's statements
 * (a rolling upgrade's old processes) stand on the new table.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import type { Queryable, SqlValue } from '../../src/db/database.ts';
import { PartitionKeeper } from '../../src/db/partition-keeper.ts';
import { slotStart } from '../../src/db/time-partitions.ts';
import { eraseSessionUser, sessionsOfUser } from '../../src/resources/release-health/index.ts';
import { ReleaseHealthWorker, sessionPartitions } from '../../src/resources/release-health/mount.ts';
import { sessionUpdate } from '../../src/resources/release-health/parse.ts';
import { applySessionUpdate } from '../../src/resources/release-health/store.ts';
import { createProject } from '../../src/resources/projects/index.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { migratedUpTo } from '../support/upgrade-suite.ts';
import { type ManagedProject, managedProject } from '../support/manage-fixtures.ts';
import { planNodes } from '../support/query-plans.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const DAY = 86_400_000;
const HOUR = 3_600_000;
const silent = pino({ level: 'silent' });
const pgOnly = { skip: process.env['SIGNPOST_TEST_DB'] !== 'postgres' && 'PostgreSQL only' };
const dayName = (at: Date | string) =>
  `release_sessions_p${slotStart(new Date(at), 'day').toISOString().slice(0, 10).replaceAll('-', '')}`;

describe('session state in day partitions on PostgreSQL', pgOnly, () => {
  let server: TestServer;
  let p: ManagedProject;
  before(async () => {
    // No keeper and no release-health expiry in the server: the tests' own run at the times they name.
    server = await startTestServer({ env: { PARTITION_KEEPER_INTERVAL_MS: '0' } });
    p = await managedProject(server);
  });
  after(() => server?.close());

  const keeper = () =>
    new PartitionKeeper({ db: server.db, tables: [sessionPartitions()], intervalMs: 0, log: silent });
  const worker = () => new ReleaseHealthWorker({ db: server.db, retentionDays: 3650, log: silent, flushMs: 0 });
  const partitionsOf = async () =>
    server.db.all<{ name: string; bound: string }>(
      `SELECT c.relname AS name, pg_get_expr(c.relpartbound, c.oid) AS bound
         FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'release_sessions'::regclass
        ORDER BY c.relname`,
    );
  const exists = async (name: string) =>
    Number((await server.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM pg_class WHERE relname = ?', [name]))!.n) ===
    1;
  const placeOf = async (sid: string) =>
    (
      await server.db.all<{ place: string; status: string }>(
        'SELECT tableoid::regclass::text AS place, status FROM release_sessions WHERE sid = ?',
        [sid],
      )
    ).map((row) => `${row.place} ${row.status}`);
  /** A session update through the Sentry envelope route, as an SDK sends it. */
  const send = async (session: { sid: string; started: string; status: string; did?: string; init?: boolean }) => {
    const number = (await server.db.get<{ ingest_number: number }>('SELECT ingest_number FROM projects WHERE id = ?', [
      p.projectId,
    ]))!.ingest_number;
    const body = ['{}', '{"type":"session"}', JSON.stringify({ ...session, attrs: { release: '3.7.0' } })].join('\n');
    const sent = await fetch(`${server.origin}/api/${number}/envelope/?sentry_key=${p.liveKey}`, {
      method: 'POST',
      body,
    });
    assert.equal(sent.status, 200, await sent.text());
  };
  const sessionCount = async () =>
    Number(
      (
        await server.db.get<{ n: number }>(
          "SELECT healthy + errored + unhandled + abnormal + crashed AS n FROM release_health_totals WHERE project_id = ? AND release = '3.7.0'",
          [p.projectId],
        )
      )?.n ?? 0,
    );

  it('partitions release_sessions by day of `started` with DEFAULT; the keeper makes the window and two days ahead', async () => {
    const kind = await server.db.get<{ kind: string }>(
      "SELECT relkind AS kind FROM pg_class WHERE relname = 'release_sessions'",
    );
    assert.equal(kind?.kind, 'p');
    const key = await server.db.get<{ def: string }>(
      "SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conname = 'release_sessions_pkey'",
    );
    assert.equal(key?.def, 'PRIMARY KEY (project_id, environment, sid, started)');
    assert.ok((await partitionsOf()).some((row) => row.bound === 'DEFAULT' && row.name === 'release_sessions_default'));
    const now = new Date();
    await keeper().keep(now);
    const names = (await partitionsOf()).map((row) => row.name);
    for (let day = -5; day <= 2; day++) {
      assert.ok(names.includes(dayName(new Date(now.getTime() + day * DAY))), `day ${day}`);
    }
    const [again] = await keeper().keep(now);
    assert.deepEqual([again!.kept, again!.created.length, again!.dropped.length], [true, 0, 0], 'nothing more to do');
  });

  it("puts each session in its day's partition, where its later updates change it and count it once", async () => {
    await keeper().keep(new Date());
    const earlier = { sid: randomUUID(), started: new Date(Date.now() - 3 * DAY).toISOString() };
    const today = { sid: randomUUID(), started: new Date().toISOString() };
    const counted = await sessionCount();
    await send({ ...earlier, status: 'ok', init: true });
    await send({ ...today, status: 'ok', init: true, did: 'ada' });
    assert.deepEqual(await placeOf(earlier.sid), [`${dayName(earlier.started)} healthy`]);
    assert.deepEqual(await placeOf(today.sid), [`${dayName(today.started)} healthy`]);
    await send({ ...earlier, status: 'crashed', did: 'ada' });
    await send({ ...today, status: 'exited' });
    assert.deepEqual(await placeOf(earlier.sid), [`${dayName(earlier.started)} crashed`]);
    assert.deepEqual(await placeOf(today.sid), [`${dayName(today.started)} healthy`]);
    assert.equal(await sessionCount(), counted + 2, 'two sessions, each counted once');
  });

  it("looks a session up in its day's partition: an update's statements read one partition, a new session's search a dozen days", async () => {
    const now = new Date();
    await keeper().keep(now);
    assert.ok((await partitionsOf()).length >= 9, 'the window, two days ahead and DEFAULT');
    const started = new Date(now.getTime() - 2 * DAY);
    const sid = randomUUID();
    const scope = { projectId: p.projectId, environment: 'live' as const };
    const statements: { sql: string; params: readonly SqlValue[] }[] = [];
    const recorded = (tx: Queryable): Queryable => ({
      all: <T>(sql: string, params: readonly SqlValue[] = []) => {
        statements.push({ sql, params });
        return tx.all<T>(sql, params);
      },
      get: <T>(sql: string, params: readonly SqlValue[] = []) => {
        statements.push({ sql, params });
        return tx.get<T>(sql, params);
      },
      run: (sql: string, params: readonly SqlValue[] = []) => {
        statements.push({ sql, params });
        return tx.run(sql, params);
      },
    });
    // A new session, then its crash with a user: the lookup, the insert, the lookup again, the
    // status and the user written.
    for (const [status, did] of [
      ['ok', undefined],
      ['crashed', 'grace'],
    ] as const) {
      const update = sessionUpdate(
        { sid, did, status, started: started.toISOString(), attrs: { release: '3.8.0' } },
        now,
      );
      assert.ok(update);
      await server.db.transaction((tx) => applySessionUpdate(recorded(tx), scope, update));
    }
    const lookups = statements.filter((s) => /^\s*UPDATE release_sessions\b/.test(s.sql));
    const readBy = async ({ sql, params }: (typeof statements)[number]) => {
      const [plan] = await server.db.all<{ 'QUERY PLAN': unknown }>(`EXPLAIN (FORMAT JSON) ${sql}`, params);
      return new Set(
        planNodes(plan!['QUERY PLAN'])
          .map((node) => node['Relation Name'])
          .filter((name): name is string => name !== undefined && name !== 'release_sessions'),
      );
    };
    const exact = lookups.filter((s) => /started = \?/.test(s.sql));
    assert.equal(exact.length, 4, lookups.map((s) => s.sql).join('\n'));
    for (const statement of exact) {
      const read = await readBy(statement);
      assert.deepEqual([...read], [dayName(started)], `${statement.sql}: reads ${[...read].join(', ')}`);
    }
    // The new session's first lookup missed, and it was looked for by id among the starts an
    // update can name (six days either side): those days' partitions, not the others.
    const windowed = lookups.filter((s) => /started >= \?/.test(s.sql));
    assert.equal(windowed.length, 1, lookups.map((s) => s.sql).join('\n'));
    const read = await readBy(windowed[0]!);
    const near = new Set(
      Array.from({ length: 13 }, (_, i) => dayName(new Date(started.getTime() + (i - 6) * DAY))).concat(
        'release_sessions_default',
      ),
    );
    assert.ok(read.size > 0 && [...read].every((name) => near.has(name)), `reads ${[...read].join(', ')}`);
    assert.deepEqual(await placeOf(sid), [`${dayName(started)} crashed`]);
  });

  it("drops a day once its sessions' state is past (6 days), with its rows", async () => {
    const now = new Date();
    const past = new Date(now.getTime() - 20 * DAY);
    // The keeper as it ran 20 days ago made that day; a session is aged into it.
    await keeper().keep(past);
    const old = dayName(past);
    assert.ok(await exists(old));
    const sid = randomUUID();
    await send({ sid, started: now.toISOString(), status: 'exited', did: 'old' });
    await server.db.run('UPDATE release_sessions SET started = ? WHERE sid = ?', [past.toISOString(), sid]);
    assert.deepEqual(await placeOf(sid), [`${old} healthy`]);
    const [kept] = await keeper().keep(now);
    assert.ok(kept!.dropped.some((partition) => partition.name === old));
    assert.equal(await exists(old), false);
    assert.deepEqual(await placeOf(sid), []);
    assert.ok(await exists(dayName(new Date(now.getTime() - 5 * DAY))), 'the days of the update window stay');
  });

  it('leaves the days the keeper drops to it: the worker deletes only sessions in DEFAULT older than those', async () => {
    const now = new Date();
    // The days from a week back, as the keeper made them two days ago.
    await keeper().keep(new Date(now.getTime() - 2 * DAY));
    const edge = { sid: randomUUID(), at: new Date(now.getTime() - 6 * DAY - HOUR) };
    const stray = { sid: randomUUID(), at: new Date(now.getTime() - 40 * DAY) };
    for (const { sid, at } of [edge, stray]) {
      await send({ sid, started: now.toISOString(), status: 'exited' });
      await server.db.run('UPDATE release_sessions SET started = ? WHERE sid = ?', [at.toISOString(), sid]);
    }
    assert.deepEqual(await placeOf(edge.sid), [`${dayName(edge.at)} healthy`]);
    assert.deepEqual(await placeOf(stray.sid), ['release_sessions_default healthy'], 'no partition that old');
    // Past the state's 6 days, but the keeper drops the edge's day whole: the worker takes only the stray.
    assert.equal(await worker().expire(now), 1);
    assert.deepEqual(await placeOf(stray.sid), []);
    assert.deepEqual(await placeOf(edge.sid), [`${dayName(edge.at)} healthy`]);
    const [kept] = await keeper().keep(new Date(now.getTime() + DAY));
    assert.ok(kept!.dropped.some((partition) => partition.name === dayName(edge.at)));
    assert.deepEqual(await placeOf(edge.sid), []);
  });

  it("lists and erases a person's sessions across days and DEFAULT", async () => {
    const now = new Date();
    await keeper().keep(now);
    const did = `erase-${randomUUID()}`;
    const times = [now, new Date(now.getTime() - 4 * DAY), new Date(now.getTime() - 60 * DAY)];
    const sids = times.map(() => randomUUID());
    for (const [i, at] of times.entries()) {
      await send({ sid: sids[i]!, started: now.toISOString(), status: 'exited', did });
      await server.db.run('UPDATE release_sessions SET started = ? WHERE sid = ?', [at.toISOString(), sids[i]!]);
    }
    assert.equal((await placeOf(sids[2]!))[0], 'release_sessions_default healthy');
    const listed = await sessionsOfUser(server.db, p.projectId, [did], 10);
    assert.deepEqual(
      listed.map((row) => row.sid),
      sids,
      'newest first',
    );
    const erased = await server.db.transaction((tx) => eraseSessionUser(tx, p.projectId, [did]));
    assert.equal(erased, 3);
    assert.deepEqual(await sessionsOfUser(server.db, p.projectId, [did], 10), []);
  });
});

describe('the migration to day partitions of sessions keeps them', pgOnly, () => {
  let database: TestDatabase;
  let server: TestServer;
  const now = Date.now();
  const times = [6 * DAY + HOUR, 2 * DAY, 60_000].map((ago) => new Date(now - ago).toISOString());
  const sids = times.map(() => randomUUID());
  const placeOf = async (sid: string) =>
    (
      await server.db.all<{ place: string; status: string; did: string | null }>(
        'SELECT tableoid::regclass::text AS place, status, distinct_id AS did FROM release_sessions WHERE sid = ?',
        [sid],
      )
    ).map((row) => `${row.place} ${row.status} ${row.did}`);

  before(async () => {
    database = await createTestDatabase();
    const db = await migratedUpTo(database, '202701300100_session_partitions');
    // What the server before the migration wrote: sessions that started over the last 6 days (the
    // worker deletes older ones; the server's, on start, would race the test for them).
    await createProject(db, { id: 'sessions', name: 'Sessions', slug: 'sessions', monthlyQuota: null });
    for (const [i, started] of times.entries()) {
      await db.run(
        `INSERT INTO release_sessions (project_id, environment, sid, release, sdk_environment, distinct_id, hour, started, status)
         VALUES ('sessions', 'live', ?, '1.0.0', 'production', 'ada', ?, ?, 'healthy')`,
        [sids[i]!, `${started.slice(0, 13)}:00:00.000Z`, started],
      );
    }
    await db.close();
    server = await startTestServer({ database, env: { PARTITION_KEEPER_INTERVAL_MS: '0' } });
  });
  after(async () => {
    await server?.close();
    await database?.drop();
  });

  it("moves every session into its day's partition", async () => {
    const rows = await server.db.all<{ sid: string; place: string }>(
      "SELECT sid, tableoid::regclass::text AS place FROM release_sessions WHERE project_id = 'sessions'",
    );
    const places = new Map(rows.map((row) => [row.sid, row.place]));
    assert.deepEqual(
      sids.map((sid) => places.get(sid)),
      times.map(dayName),
    );
    const indexes = await server.db.all<{ name: string; def: string }>(
      "SELECT indexname AS name, indexdef AS def FROM pg_indexes WHERE tablename = 'release_sessions' ORDER BY indexname",
    );
    assert.deepEqual(
      indexes.map((index) => index.name),
      ['release_sessions_pkey', 'release_sessions_started'],
    );
    assert.match(indexes[1]!.def, /USING brin \(started\)/);
  });

  it("runs the release before's statements on the new table (a rolling upgrade's old processes)", async () => {
    // As the release before this migration wrote them (its release-health/store.ts,
    // store-expiry.ts, store-erasure.ts): by (project_id, environment, sid), with no `started`.
    const sid = randomUUID();
    const started = new Date().toISOString();
    const key = ['sessions', 'live', sid];
    const lock = () =>
      server.db.all<{ status: string }>(
        `UPDATE release_sessions SET status = status WHERE project_id = ? AND environment = ? AND sid = ?
         RETURNING release, sdk_environment, hour, status, distinct_id`,
        key,
      );
    assert.deepEqual(await lock(), []);
    for (let i = 0; i < 2; i++) {
      const inserted = await server.db.all(
        `INSERT INTO release_sessions (project_id, environment, sid, release, sdk_environment, distinct_id, hour, started, status)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING sid`,
        [...key, '1.0.1', 'production', null, `${started.slice(0, 13)}:00:00.000Z`, started, 'healthy'],
      );
      assert.equal(inserted.length, 1 - i, 'a repeat conflicts');
    }
    assert.deepEqual(
      (await lock()).map((row) => row.status),
      ['healthy'],
    );
    await server.db.run('UPDATE release_sessions SET status = ? WHERE project_id = ? AND environment = ? AND sid = ?', [
      'crashed',
      ...key,
    ]);
    await server.db.run(
      'UPDATE release_sessions SET distinct_id = ? WHERE project_id = ? AND environment = ? AND sid = ?',
      ['bea', ...key],
    );
    assert.deepEqual(await placeOf(sid), [`${dayName(started)} crashed bea`]);
    await server.db.run('UPDATE release_sessions SET distinct_id = ? WHERE project_id = ? AND distinct_id = ?', [
      'erased:x',
      'sessions',
      'bea',
    ]);
    const cutoff = new Date(now - 6 * DAY).toISOString();
    const { changes } = await server.db.run(
      `DELETE FROM release_sessions WHERE started < ? AND (project_id, environment, sid) IN
         (SELECT project_id, environment, sid FROM release_sessions WHERE started < ? LIMIT ?)`,
      [cutoff, cutoff, 1000],
    );
    assert.equal(changes, 1, 'the session past its state');
    assert.deepEqual(await placeOf(sid), [`${dayName(started)} crashed erased:x`]);
  });
});
