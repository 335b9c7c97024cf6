/**
 * Log lines in time partitions on PostgreSQL (issue 37; migration 202701290100_log_line_partitions,
 * resources/logs/partitions.ts): log_lines by day of `ts` and log_line_spans by day of `max_ts`,
 * each with a DEFAULT partition. The keeper makes the days of the retention window and two ahead,
 * and drops the days wholly past it, lines and spans at once; the lines worker deletes the older
 * lines of the edge day and keeps each group to its cap in bounded batches; reads of a group's
 * lines, the explorer's search and the line-counted histogram read across days. Lines are written
 * through POST /logs with their own timestamps; the catalog (pg_inherits, pg_class, tableoid) says
 * where they are.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { loadConfig } from '../../src/config.ts';
import { PartitionKeeper } from '../../src/db/partition-keeper.ts';
import { slotStart } from '../../src/db/time-partitions.ts';
import { LinesWorker, logLinePartitions } from '../../src/resources/logs/mount.ts';
import { createProject } from '../../src/resources/projects/index.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { migratedUpTo } from '../support/upgrade-suite.ts';
import { type ManagedProject, managedProject } from '../support/manage-fixtures.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const DAY = 86_400_000;
const silent = pino({ level: 'silent' });
const pgOnly = { skip: process.env['SIGNPOST_TEST_DB'] !== 'postgres' && 'PostgreSQL only' };
const dayName = (table: string, at: Date) =>
  `${table}_p${slotStart(at, 'day').toISOString().slice(0, 10).replaceAll('-', '')}`;

describe('log lines in time partitions on PostgreSQL', pgOnly, () => {
  let server: TestServer;
  let p: ManagedProject;
  before(async () => {
    // No keeper and no lines worker in the server: the tests' own run at the times they name.
    server = await startTestServer({ env: { PARTITION_KEEPER_INTERVAL_MS: '0', LOG_LINES_WORKER_MS: '0' } });
    p = await managedProject(server);
  });
  after(() => server?.close());

  const keeper = (retentionDays = 14) =>
    new PartitionKeeper({ db: server.db, tables: logLinePartitions(retentionDays), intervalMs: 0, log: silent });
  const worker = (perGroup = 1000) =>
    new LinesWorker(
      server.db,
      loadConfig({ LOG_LINES_PER_GROUP: String(perGroup), LOG_LINES_WORKER_MS: '0' } as never).logLines,
      silent as never,
    );
  const partitionsOf = async (table: string) =>
    server.db.all<{ name: string; bound: string }>(
      `SELECT c.relname AS name, pg_get_expr(c.relpartbound, c.oid) AS bound
         FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = ?::regclass ORDER BY c.relname`,
      [table],
    );
  const exists = async (name: string) =>
    Number((await server.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM pg_class WHERE relname = ?', [name]))!.n) ===
    1;
  /** Sends one line a time, in one write, to the group of `category`; answers the group's id. */
  const send = async (category: string, times: Date[]) => {
    const sent = await p.live.post('/logs', {
      logs: times.map((at, k) => ({
        level: 'info',
        message: category,
        category,
        data: { k },
        timestamp: at.toISOString(),
      })),
    });
    assert.equal(sent.status, 200, sent.text);
    const list = await p.member.get(`/projects/${p.projectId}/logs`, { query: { category } });
    assert.equal(list.status, 200, list.text);
    return list.body.logs[0].id as string;
  };
  /** Which partition holds each of a group's lines, by `data.k`. */
  const placesOf = async (groupId: string) =>
    (
      await server.db.all<{ place: string }>(
        "SELECT tableoid::regclass::text AS place FROM log_lines WHERE group_id = ? ORDER BY (data->>'k')::int",
        [groupId],
      )
    ).map((row) => row.place);
  /** Every line of the group's page, page by page, as their `data.k`. */
  const groupPage = async (groupId: string, limit: number) => {
    const seen: number[] = [];
    let cursor: string | undefined;
    do {
      const page = await p.member.get(`/projects/${p.projectId}/logs/${groupId}/lines`, {
        query: { limit, ...(cursor ? { cursor } : {}) },
      });
      assert.equal(page.status, 200, page.text);
      seen.push(...page.body.lines.map((line: { data: { k: number } }) => line.data.k));
      cursor = page.body.hasMore ? page.body.nextCursor : undefined;
    } while (cursor);
    return seen;
  };

  it('partitions lines and spans by day with a DEFAULT each, and makes the retention window and two days ahead', async () => {
    for (const table of ['log_lines', 'log_line_spans']) {
      const kind = await server.db.get<{ kind: string }>('SELECT relkind AS kind FROM pg_class WHERE relname = ?', [
        table,
      ]);
      assert.equal(kind?.kind, 'p', `${table} is partitioned`);
      assert.ok((await partitionsOf(table)).some((row) => row.bound === 'DEFAULT' && row.name === `${table}_default`));
    }
    const now = new Date();
    await keeper().keep(now);
    for (const table of ['log_lines', 'log_line_spans']) {
      const names = (await partitionsOf(table)).map((row) => row.name);
      for (const day of [-13, -1, 0, 1, 2])
        assert.ok(names.includes(dayName(table, new Date(now.getTime() + day * DAY))), `${table} day ${day}`);
    }
    const again = await keeper().keep(now);
    assert.deepEqual(
      again.map((r) => [r.table, r.kept, r.created.length, r.dropped.length]),
      [
        ['log_lines', true, 0, 0],
        ['log_line_spans', true, 0, 0],
      ],
      'a second pass has nothing to do',
    );
  });

  it("reads a group's lines, the explorer's search and the line-counted histogram across days", async () => {
    const now = Date.now();
    // Six lines over four days, written out of time order in one write (one span over four days).
    const times = [3, 0.001, 1, 2, 0.002, 3.1].map((days) => new Date(now - days * DAY));
    const groupId = await send('across-days', times);
    const places = await placesOf(groupId);
    assert.ok(new Set(places).size >= 4, `four days' partitions or more: ${places.join(', ')}`);
    assert.ok(!places.includes('log_lines_default'));
    const newestFirst = [1, 4, 2, 3, 0, 5];
    assert.deepEqual(await groupPage(groupId, 2), newestFirst);
    assert.deepEqual(await groupPage(groupId, 100), newestFirst);
    const search = await p.member.get(`/projects/${p.projectId}/logs/lines`, {
      query: { q: 'across-days', from: new Date(now - 4 * DAY).toISOString() },
    });
    assert.equal(search.status, 200, search.text);
    assert.deepEqual(
      search.body.lines.map((line: { data: { k: number } }) => line.data.k),
      newestFirst,
    );
    const field = await p.member.get(`/projects/${p.projectId}/logs/lines`, { query: { q: 'data.k = 5' } });
    assert.deepEqual(
      field.body.lines.map((line: { data: { k: number } }) => line.data.k),
      [5],
      'a field value three days back',
    );
    const chart = await p.member.get(`/projects/${p.projectId}/logs/histogram`, {
      query: { category: 'across-days', q: 'has:data.k', since: new Date(now - 4 * DAY).toISOString() },
    });
    assert.equal(chart.status, 200, chart.text);
    assert.equal(chart.body.totals.info, 6, 'the lines counted in every day');
  });

  it('drops a day wholly past retention with its lines and spans (no row deleted); the group and its count stay', async () => {
    const now = new Date();
    // Noon 20 days ago: the lines a second apart stay in one day.
    const past = new Date(slotStart(new Date(now.getTime() - 20 * DAY), 'day').getTime() + DAY / 2);
    // The keeper as it ran 20 days ago made that day's partitions.
    await keeper().keep(past);
    const oldLines = dayName('log_lines', past);
    const oldSpans = dayName('log_line_spans', past);
    const groupId = await send('dropped-day', [past, new Date(past.getTime() + 1000)]);
    const recentId = await send('kept-day', [new Date(now.getTime() - 60_000)]);
    assert.deepEqual(await placesOf(groupId), [oldLines, oldLines]);
    const span = await server.db.get<{ place: string }>(
      'SELECT tableoid::regclass::text AS place FROM log_line_spans WHERE group_id = ?',
      [groupId],
    );
    assert.equal(span?.place, oldSpans);

    // Only the keeper runs here (no lines worker): the lines go as their partition's table does.
    const results = await keeper().keep(now);
    for (const [table, name] of [
      ['log_lines', oldLines],
      ['log_line_spans', oldSpans],
    ] as const) {
      const result = results.find((r) => r.table === table)!;
      assert.ok(
        result.dropped.some((partition) => partition.name === name),
        `${name} was dropped`,
      );
      assert.equal(await exists(name), false);
    }
    assert.deepEqual(await groupPage(groupId, 10), [], 'its lines went with the day');
    assert.equal(
      Number(
        (await server.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM log_line_spans WHERE group_id = ?', [groupId]))!
          .n,
      ),
      0,
      'its spans too',
    );
    const list = await p.member.get(`/projects/${p.projectId}/logs`, { query: { category: 'dropped-day' } });
    assert.equal(list.status, 200, list.text);
    assert.equal(list.body.logs[0].occurrences, 2, 'the group and its count stay');
    assert.deepEqual(await groupPage(recentId, 10), [0], 'a line inside the window stays');
  });

  it('the lines worker deletes the edge day’s older lines by time; the newer ones and the day stay', async () => {
    const now = new Date();
    await keeper().keep(now);
    const cutoff = new Date(now.getTime() - 14 * DAY);
    const edgeStart = slotStart(cutoff, 'day');
    const older = new Date(Math.max(edgeStart.getTime(), cutoff.getTime() - 3_600_000));
    assert.ok(older < cutoff, 'the cutoff is not the first instant of its day');
    const newer = new Date(cutoff.getTime() + 3_600_000);
    const groupId = await send('edge-day', [older, newer, new Date(now.getTime() - 1000)]);
    const edge = dayName('log_lines', cutoff);
    assert.equal((await placesOf(groupId))[0], edge, 'the old line is in the edge day');
    assert.ok(await exists(edge));
    const done = await worker().runPass(now.getTime());
    assert.ok(done.expired >= 1);
    assert.deepEqual(await groupPage(groupId, 10), [2, 1], 'the older line went, the newer ones stay');
    assert.ok(await exists(edge), 'the edge day stays until it is wholly past');
    const [kept] = await keeper().keep(now);
    assert.ok(!kept!.dropped.some((partition) => partition.name === edge));
  });

  it('keeps a group to its cap across days', async () => {
    const now = Date.now();
    // Twelve lines, two a day over six days, oldest first.
    const times = Array.from({ length: 12 }, (_, k) => new Date(now - (6 - k / 2) * DAY));
    const groupId = await send('capped-days', times);
    assert.ok(new Set(await placesOf(groupId)).size >= 5);
    const done = await worker(4).runPass(now);
    assert.ok(done.capped >= 7, `capped ${done.capped}`);
    assert.deepEqual(await groupPage(groupId, 3), [11, 10, 9, 8, 0], 'the newest four and the first');
  });

  it('puts a line with no partition for its time in DEFAULT, reads it there, and moves it once its day is made', async () => {
    const later = new Date(Date.now() + 30 * DAY);
    const groupId = await send('future-line', [new Date(), later]);
    assert.deepEqual(await placesOf(groupId), [dayName('log_lines', new Date()), 'log_lines_default']);
    assert.deepEqual(await groupPage(groupId, 10), [1, 0]);
    // The keeper as it will run then (a retention long enough to keep today's days).
    await keeper(3650).keep(later);
    assert.equal((await placesOf(groupId))[1], dayName('log_lines', later));
    assert.deepEqual(await groupPage(groupId, 10), [1, 0]);
  });

  it("runs the release before's statements on the new tables (a rolling upgrade's old processes)", async () => {
    // As the release before this migration ran them (its store-lines.ts, store-line-upkeep.ts and
    // store-line-reads.ts): the insert names no id, the deletes find lines by id alone.
    const now = new Date();
    const groupId = await send('previous-release', [new Date(now.getTime() - 1000)]);
    const lines = JSON.stringify([[groupId, now.toISOString(), 'info', null, null, null, null, { k: 1 }, null, null]]);
    await server.db.run(
      `WITH written AS (INSERT INTO log_lines (group_id, project_id, environment, ts, level, severity,
          source, app_version, user_id, data, trace_id, span_id)
        SELECT r->>0, ?, ?, r->>1, r->>2, r->>3, r->>4, r->>5, r->>6, NULLIF(r->7, 'null'::jsonb), r->>8, r->>9
        FROM jsonb_array_elements(CAST(? AS jsonb)) AS r
        RETURNING id, group_id, ts)
        INSERT INTO log_line_spans (group_id, max_ts, first_id, last_id, min_ts, n, project_id)
        SELECT group_id, MAX(ts), MIN(id), MAX(id), MIN(ts), COUNT(*), ?
        FROM (SELECT group_id, id, ts, id - ROW_NUMBER() OVER (PARTITION BY group_id ORDER BY id) AS run FROM written) w
        GROUP BY group_id, run`,
      [p.projectId, 'live', lines, p.projectId],
    );
    assert.deepEqual(await groupPage(groupId, 10), [1, 0]);
    const read = await server.db.all<{ id: string }>(
      `SELECT l.id FROM log_line_spans s CROSS JOIN LATERAL (SELECT * FROM log_lines WHERE id BETWEEN s.first_id AND s.last_id
        OFFSET 0) l WHERE s.group_id = ? AND l.group_id = ? ORDER BY l.ts DESC, l.id DESC`,
      [groupId, groupId],
    );
    assert.equal(read.length, 2);
    const deleted = await server.db.all<{ id: string }>(
      `DELETE FROM log_lines WHERE id IN (
        SELECT id FROM log_lines WHERE project_id = ? AND group_id = ? AND ts < ? ORDER BY ts, id LIMIT 1000)
      RETURNING id, group_id, ts`,
      [p.projectId, groupId, now.toISOString()],
    );
    assert.equal(deleted.length, 1);
    await server.db.run('UPDATE log_lines SET user_id = NULL WHERE project_id = ? AND user_id IN (?)', [
      p.projectId,
      'nobody',
    ]);
    assert.deepEqual(await groupPage(groupId, 10), [1]);
  });
});

describe('the migration to log line partitions keeps the lines', pgOnly, () => {
  let database: TestDatabase;
  let server: TestServer;
  const now = Date.now();
  const times = [10 * DAY, DAY, 60_000].map((ago) => new Date(now - ago).toISOString());

  before(async () => {
    database = await createTestDatabase();
    const db = await migratedUpTo(database, '202701290100_log_line_partitions');
    // What the server before the migration wrote: a group with three lines (one span each) and
    // a fourth line whose id the cap took back (ids never come back on PostgreSQL).
    await createProject(db, { id: 'parted', name: 'Parted', slug: 'parted', monthlyQuota: null });
    await db.run(
      `INSERT INTO log_groups (id, project_id, environment, fingerprint, fingerprint_key, level, message,
         occurrences, first_seen_at, last_seen_at)
       VALUES ('lg_parted', 'parted', 'live', 'fp', 1, 'info', 'Parted', 4, ?, ?)`,
      [times[0]!, times[2]!],
    );
    for (const [k, at] of [...times, times[2]!].entries()) {
      const [line] = await db.all<{ id: string }>(
        `INSERT INTO log_lines (group_id, project_id, environment, ts, level, data)
         VALUES ('lg_parted', 'parted', 'live', ?, 'info', CAST(? AS jsonb)) RETURNING id`,
        [at, JSON.stringify({ k })],
      );
      if (k === 3) await db.run('DELETE FROM log_lines WHERE id = ?', [line!.id]);
      else
        await db.run(
          `INSERT INTO log_line_spans (group_id, max_ts, first_id, last_id, min_ts, n, project_id)
           VALUES ('lg_parted', ?, ?, ?, ?, 1, 'parted')`,
          [at, line!.id, line!.id, at],
        );
    }
    await db.close();
    server = await startTestServer({ database, env: { PARTITION_KEEPER_INTERVAL_MS: '0', LOG_LINES_WORKER_MS: '0' } });
  });
  after(async () => {
    await server?.close();
    await database?.drop();
  });

  it('moves every line and span into the partition of its day, none in DEFAULT, ids kept and never given again', async () => {
    const lines = await server.db.all<{ id: string; ts: string; place: string }>(
      "SELECT id, ts, tableoid::regclass::text AS place FROM log_lines WHERE group_id = 'lg_parted' ORDER BY id",
    );
    assert.deepEqual(
      lines.map((row) => row.ts),
      times,
    );
    for (const row of lines) assert.equal(row.place, dayName('log_lines', new Date(row.ts)));
    const spans = await server.db.all<{ max_ts: string; place: string }>(
      "SELECT max_ts, tableoid::regclass::text AS place FROM log_line_spans WHERE group_id = 'lg_parted'",
    );
    assert.equal(spans.length, 3);
    for (const row of spans) assert.equal(row.place, dayName('log_line_spans', new Date(row.max_ts)));
    const next = await server.db.get<{ id: string }>(
      `INSERT INTO log_lines (group_id, project_id, environment, ts, level)
       VALUES ('lg_parted', 'parted', 'live', ?, 'info') RETURNING id`,
      [new Date().toISOString()],
    );
    assert.ok(BigInt(next!.id) > BigInt(lines[2]!.id) + 1n, 'the id the deleted line had is not given again');
  });
});
