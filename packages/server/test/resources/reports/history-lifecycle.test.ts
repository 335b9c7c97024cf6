/**
 * Error groups over time and their lifecycle: the hourly occurrence history (exact, zero-filled,
 * pruned), resolve / resolve in the next release / ignore and regressions, the release and
 * regressed filters, and a feature made from a bug report. The last suite runs 30 concurrent
 * reports through two server processes on one PostgreSQL database.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Database } from '../../../src/db/database.ts';
import { migrate } from '../../../src/db/migrate.ts';
import { openDatabase } from '../../../src/db/open.ts';
import { newId } from '../../../src/kernel/ids.ts';
import { ALL_PUBLIC_SCOPES, createApiKey, createProject } from '../../../src/resources/projects/index.ts';
import {
  historyRecordsQuery,
  hourOf,
  readHistory,
  resetPruneClock,
} from '../../../src/resources/reports/store-history.ts';
import { compareVersions, lifecycleAfterRepeat } from '../../../src/resources/reports/store.ts';
import { Api } from '../../support/api.ts';
import { createTestDatabase, testDbKind, type TestDatabase } from '../../support/database.ts';
import { managedProjectSuite } from '../../support/manage-fixtures.ts';
import { startServerProcess, type ServerProcess } from '../../support/server.ts';

/** Waits, if need be, until the current hour has more than five seconds left: a test's reports stay in one hour. */
async function clearOfTheHourEnd(): Promise<void> {
  const left = 3600_000 - (Date.now() % 3600_000);
  if (left < 5000) await sleep(left + 10);
}

const report = (title: string, extra: Record<string, unknown> = {}) => ({
  title,
  message: `${title}: something went wrong here`,
  errorType: 'TypeError',
  ...extra,
});

describe('error history and lifecycle', () => {
  const p = managedProjectSuite();
  const path = (rest: string) => `/projects/${p.projectId}${rest}`;

  it('counts every report of a group per hour, zero-filled over 24 hours and 14 days', async () => {
    // Reports and reads must fall in one hour (and day): a run that met midnight read the reports
    // an hour back (a whole run, 2026-11-29 23:59). Close to the hour's end, wait for the next.
    const toNextHour = 3600_000 - (Date.now() % 3600_000);
    if (toNextHour < 30_000) await new Promise((resolve) => setTimeout(resolve, toNextHour + 100));
    const first = (await p.live.post('/errors', report('Chart me please'))).body;
    for (let i = 0; i < 4; i++) await p.live.post('/errors', report('Chart me please'));
    // An earlier day, written as the store did before records counted their hours: 3 reports
    // 3 days ago, in the hourly table.
    const earlier = hourOf(new Date(Date.now() - 3 * 24 * 3600_000));
    const group = await p.server.db.get<{ fingerprint: string }>('SELECT fingerprint FROM error_reports WHERE id = ?', [
      first.id,
    ]);
    await p.server.db.run(
      'INSERT INTO error_occurrences_hourly (project_id, environment, fingerprint, hour, count) VALUES (?, ?, ?, ?, 3)',
      [p.projectId, 'live', group!.fingerprint, earlier],
    );

    const day = await p.member.get(path(`/errors/${first.id}/history`), { query: { range: '24h' } });
    assert.equal(day.status, 200);
    assert.equal(day.body.bucket, 'hour');
    assert.equal(day.body.buckets.length, 24);
    assert.equal(day.body.total, 5);
    assert.equal(day.body.buckets.at(-1).count, 5);
    assert.equal(day.body.buckets.at(-1).start, hourOf(new Date()));
    assert.ok(day.body.buckets.slice(0, -1).every((b: { count: number }) => b.count === 0));

    const fortnight = await p.member.get(path(`/errors/${first.id}/history`), { query: { range: '14d' } });
    assert.equal(fortnight.body.bucket, 'day');
    assert.equal(fortnight.body.buckets.length, 14);
    assert.equal(fortnight.body.total, 8);
    assert.equal(fortnight.body.buckets.at(-1).count, 5);
    assert.equal(fortnight.body.buckets.at(-4).count, 3);
    assert.match(fortnight.body.buckets[0].start, /T00:00:00\.000Z$/);

    assert.equal((await p.member.get(path(`/errors/${first.id}/history`))).body.range, '24h');
    assert.equal((await p.member.get(path(`/errors/${first.id}/history`), { query: { range: '7d' } })).status, 400);
    assert.equal((await p.member.get(path('/errors/error_nope/history'))).status, 404);
    assert.equal((await p.outsider.get(path(`/errors/${first.id}/history`))).status, 404);
  });

  it("counts a record's reports in each of the two hours it spans", async () => {
    await clearOfTheHourEnd();
    const first = (await p.live.post('/errors', report('Across the hour'))).body;
    await p.live.post('/errors', report('Across the hour'));
    await p.live.post('/errors', report('Across the hour'));
    // Its three reports moved to the last millisecond of the previous hour: inside the window.
    const previousHourEnd = new Date(Date.parse(hourOf(new Date())) - 1).toISOString();
    await p.server.db.run('UPDATE error_reports SET first_seen_at = ?, last_seen_at = ? WHERE id = ?', [
      previousHourEnd,
      previousHourEnd,
      first.id,
    ]);
    for (let i = 0; i < 2; i++)
      assert.equal((await p.live.post('/errors', report('Across the hour'))).body.id, first.id);

    const day = (await p.member.get(path(`/errors/${first.id}/history`), { query: { range: '24h' } })).body;
    assert.equal(day.total, 5);
    assert.equal(day.buckets.at(-1).count, 2);
    assert.equal(day.buckets.at(-2).count, 3);
    const record = await p.server.db.get<{ occurrences: number; last_hour_occurrences: number }>(
      'SELECT occurrences, last_hour_occurrences FROM error_reports WHERE id = ?',
      [first.id],
    );
    assert.deepEqual({ ...record }, { occurrences: 5, last_hour_occurrences: 2 });
  });

  it('a record from before records counted their hours goes on counting in the hourly table', async () => {
    const legacy = (await p.live.post('/errors', report('Counted the old way'))).body;
    const { fingerprint } = (await p.server.db.get<{ fingerprint: string }>(
      'SELECT fingerprint FROM error_reports WHERE id = ?',
      [legacy.id],
    ))!;
    // As migration 202612020100 leaves a record: no count of its hours, its reports in the hourly table.
    await p.server.db.run('UPDATE error_reports SET last_hour_occurrences = NULL WHERE id = ?', [legacy.id]);
    await p.server.db.run(
      'INSERT INTO error_occurrences_hourly (project_id, environment, fingerprint, hour, count) VALUES (?, ?, ?, ?, 1)',
      [p.projectId, 'live', fingerprint, hourOf(new Date())],
    );
    assert.equal((await p.live.post('/errors', report('Counted the old way'))).body.id, legacy.id);
    const hourly = await p.server.db.get<{ n: number }>(
      'SELECT SUM(count) AS n FROM error_occurrences_hourly WHERE fingerprint = ?',
      [fingerprint],
    );
    assert.equal(Number(hourly!.n), 2);
    const record = await p.server.db.get<{ last_hour_occurrences: number | null }>(
      'SELECT last_hour_occurrences FROM error_reports WHERE id = ?',
      [legacy.id],
    );
    assert.equal(record!.last_hour_occurrences, null);
    assert.equal((await p.member.get(path(`/errors/${legacy.id}/history`))).body.total, 2);
  });

  it("reads a group's history along the group's index, not the project's records", async () => {
    const query = historyRecordsQuery({ projectId: p.projectId, environment: 'live', fingerprint: 'f' }, Date.now());
    const db = p.server.db;
    if (db.dialect === 'sqlite') {
      const rows = await db.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${query.sql}`, query.params);
      const searches = rows.map((row) => row.detail).filter((detail) => /SEARCH|SCAN/.test(detail));
      assert.equal(searches.length, 2);
      for (const search of searches)
        assert.match(search, /USING INDEX error_reports_group \(.*fingerprint=\? AND dedup_slot[=>]/);
      return;
    }
    // A table of a few rows is read whole by PostgreSQL's choice; the plan with scans off shows
    // that the conditions are the index's.
    const plan = await db.transaction(async (tx) => {
      await tx.run('SET LOCAL enable_seqscan = off');
      const rows = await tx.all<Record<string, string>>(`EXPLAIN ${query.sql}`, query.params);
      return rows.map((row) => Object.values(row)[0]).join('\n');
    });
    assert.equal(plan.match(/Index Scan using error_reports_group/g)?.length, 2);
    assert.match(plan, /dedup_slot = ''/);
    assert.match(plan, /Index Cond: .*fingerprint = .*dedup_slot >= /);
    assert.doesNotMatch(plan, /Seq Scan|Bitmap/);
  });

  it('prunes hours older than the retention after a write', async () => {
    const old = hourOf(new Date(Date.now() - 40 * 24 * 3600_000));
    await p.server.db.run(
      'INSERT INTO error_occurrences_hourly (project_id, environment, fingerprint, hour, count) VALUES (?, ?, ?, ?, 7)',
      [p.projectId, 'live', 'old-fingerprint', old],
    );
    resetPruneClock();
    await p.live.post('/errors', report('Prune trigger'));
    const left = await p.server.db.get<{ n: number }>(
      'SELECT COUNT(*) AS n FROM error_occurrences_hourly WHERE fingerprint = ?',
      ['old-fingerprint'],
    );
    assert.equal(Number(left!.n), 0);
  });

  it('a resolved group that occurs again is regressed; ignored stays ignored; reopen', async () => {
    const a = (await p.live.post('/errors', report('Resolve then regress'))).body;
    const resolved = await p.admin.patch(path(`/errors/${a.id}`), { status: 'resolved' });
    assert.equal(resolved.status, 200);
    assert.equal(resolved.body.status, 'resolved');
    assert.equal(resolved.body.resolvedInRelease, null);
    await p.live.post('/errors', report('Resolve then regress'));
    assert.equal((await p.member.get(path(`/errors/${a.id}`))).body.status, 'regressed');
    const regressed = await p.member.get(path('/errors'), { query: { status: 'regressed' } });
    assert.deepEqual(
      regressed.body.errors.map((e: { id: string }) => e.id),
      [a.id],
    );
    assert.equal(regressed.body.counts.regressed, 1);

    const b = (await p.live.post('/errors', report('Ignore me'))).body;
    await p.admin.patch(path(`/errors/${b.id}`), { status: 'ignored' });
    await p.live.post('/errors', report('Ignore me'));
    assert.equal((await p.member.get(path(`/errors/${b.id}`))).body.status, 'ignored');

    assert.equal((await p.admin.patch(path(`/errors/${a.id}`), { status: 'open' })).body.status, 'open');
    assert.equal((await p.admin.patch(path(`/errors/${a.id}`), { status: 'regressed' })).status, 400);
    assert.equal((await p.member.patch(path(`/errors/${a.id}`), { status: 'resolved' })).status, 403);
  });

  it('resolved in the next release: same release stays resolved, a newer one regresses', async () => {
    const c = (await p.live.post('/errors', report('Next release fix', { app: { version: '1.9.2' } }))).body;
    const noRelease = (await p.live.post('/errors', report('No release given'))).body;
    const refused = await p.admin.patch(path(`/errors/${noRelease.id}`), { status: 'resolved', inNextRelease: true });
    assert.equal(refused.status, 400);
    assert.match(refused.body.error ?? JSON.stringify(refused.body), /release/);
    assert.equal((await p.member.get(path(`/errors/${noRelease.id}`))).body.status, 'open');

    const done = await p.admin.patch(path(`/errors/${c.id}`), { status: 'resolved', inNextRelease: true });
    assert.equal(done.body.resolvedInRelease, '1.9.2');
    await p.live.post('/errors', report('Next release fix', { app: { version: '1.9.2' } }));
    assert.equal((await p.member.get(path(`/errors/${c.id}`))).body.status, 'resolved');
    await p.live.post('/errors', report('Next release fix', { app: { version: '1.10.0' } }));
    const after = (await p.member.get(path(`/errors/${c.id}`))).body;
    assert.equal(after.status, 'regressed');
    assert.equal(after.release, '1.10.0');
    const byRelease = await p.member.get(path('/errors'), { query: { release: '1.10.0' } });
    assert.deepEqual(
      byRelease.body.errors.map((e: { id: string }) => e.id),
      [c.id],
    );
  });

  /** A group given `status`, its record moved two hours back (past the dedup window), and its next report. */
  async function pastTheWindow(title: string, status: 'resolved' | 'ignored') {
    const d = (await p.live.post('/errors', report(title))).body;
    await p.admin.patch(path(`/errors/${d.id}`), { status });
    const past = new Date(Date.now() - 2 * 3600_000).toISOString();
    await p.server.db.run('UPDATE error_reports SET first_seen_at = ?, last_seen_at = ? WHERE id = ?', [
      past,
      past,
      d.id,
    ]);
    return { d, next: (await p.live.post('/errors', report(title))).body };
  }

  it('a new record of a resolved fingerprint (past the dedup window) starts regressed', async () => {
    const { d, next } = await pastTheWindow('Window regress', 'resolved');
    assert.notEqual(next.id, d.id);
    assert.equal((await p.member.get(path(`/errors/${next.id}`))).body.status, 'regressed');
    assert.equal((await p.member.get(path(`/errors/${d.id}`))).body.status, 'resolved');
    // The history follows the group across its records.
    assert.equal((await p.member.get(path(`/errors/${next.id}/history`))).body.total, 2);
  });

  it('a new record of an ignored fingerprint (past the dedup window) stays ignored', async () => {
    const { d, next } = await pastTheWindow('Window ignored', 'ignored');
    assert.notEqual(next.id, d.id);
    assert.equal(next.duplicate, false);
    assert.equal((await p.member.get(path(`/errors/${next.id}`))).body.status, 'ignored');
  });

  it('lists a group once (its newest record, with the totals of all its records); a status change moves the whole group', async () => {
    const old = (await p.live.post('/errors', report('Grouped across windows'))).body;
    await p.live.post('/errors', report('Grouped across windows'));
    const past = new Date(Date.now() - 3 * 3600_000).toISOString();
    await p.server.db.run('UPDATE error_reports SET first_seen_at = ?, last_seen_at = ? WHERE id = ?', [
      past,
      past,
      old.id,
    ]);
    const recent = (await p.live.post('/errors', report('Grouped across windows'))).body;
    assert.notEqual(recent.id, old.id);
    // Another environment is another group.
    await p.test.post('/errors', report('Grouped across windows'));

    const listed = await p.member.get(path('/errors'), {
      query: { q: 'Grouped across windows', environment: 'live' },
    });
    assert.equal(listed.body.total, 1);
    const [row] = listed.body.errors;
    assert.equal(row.id, recent.id);
    assert.equal(row.occurrences, 1);
    assert.deepEqual(row.group, { occurrences: 3, firstSeenAt: past, records: 2 });
    assert.equal((await p.member.get(path('/errors'), { query: { q: 'Grouped across windows' } })).body.total, 2);
    // The full record carries the same totals, from any record of the group.
    assert.deepEqual((await p.member.get(path(`/errors/${old.id}`))).body.group, row.group);
    // Sorted by occurrences, the group's total counts.
    const byCount = await p.member.get(path('/errors'), { query: { sort: 'occurrences', environment: 'live' } });
    const position = byCount.body.errors.findIndex((e: { id: string }) => e.id === recent.id);
    for (const before of byCount.body.errors.slice(0, position)) assert.ok(before.group.occurrences >= 3);

    const countsBefore = (await p.member.get(path('/errors'), { query: { environment: 'live' } })).body.counts;
    assert.equal((await p.admin.patch(path(`/errors/${old.id}`), { status: 'ignored' })).status, 200);
    assert.equal((await p.member.get(path(`/errors/${recent.id}`))).body.status, 'ignored');
    const countsAfter = (await p.member.get(path('/errors'), { query: { environment: 'live' } })).body.counts;
    // Counts are of groups: one group moved from open to ignored, though it has two records.
    assert.equal(countsAfter.open, countsBefore.open - 1);
    assert.equal(countsAfter.ignored, countsBefore.ignored + 1);
  });

  it('a burst of 50 identical reports (folded while one is written): one record, one 201, exact counts; the latest release wins', async () => {
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        p.live.post('/errors', report('Burst of one error', { app: { version: i === 49 ? '3.1.0' : '3.0.0' } })),
      ),
    );
    assert.deepEqual(
      responses.map((response) => response.status).sort((a, b) => a - b),
      [...Array.from({ length: 49 }, () => 200), 201],
    );
    const ids = new Set(responses.map((response) => response.body.id));
    assert.equal(ids.size, 1);
    const [id] = ids;
    const full = (await p.member.get(path(`/errors/${id}`))).body;
    assert.equal(full.occurrences, 50);
    assert.equal((await p.member.get(path(`/errors/${id}/history`))).body.total, 50);
    // The release of the last report given; which report the server saw last is not fixed, so
    // only that it is one of the two.
    assert.ok(['3.0.0', '3.1.0'].includes(full.release));
  });

  it('a burst of many different errors (written together): each its own group, with its own exact counts', async () => {
    // 12 errors, each reported 1 to 4 times, all at once and interleaved: the writer takes what
    // arrives while a write is under way into one write of several groups.
    const sends = Array.from({ length: 12 }, (_, n) => Array.from({ length: 1 + (n % 4) }, () => n)).flat();
    const responses = await Promise.all(sends.map((n) => p.live.post('/errors', report(`Mixed burst error ${n}`))));
    assert.ok(responses.every((response) => response.status === 201 || response.status === 200));
    for (let n = 0; n < 12; n++) {
      const mine = responses.filter((_, i) => sends[i] === n);
      assert.equal(mine.filter((response) => response.status === 201).length, 1, `error ${n}: one new record`);
      const ids = new Set(mine.map((response) => response.body.id));
      assert.equal(ids.size, 1, `error ${n}: one group`);
      const [id] = ids;
      assert.equal((await p.member.get(path(`/errors/${id}`))).body.occurrences, 1 + (n % 4));
      assert.equal((await p.member.get(path(`/errors/${id}/history`))).body.total, 1 + (n % 4));
    }
  });

  it('orders releases', () => {
    assert.equal(compareVersions('1.10.0', '1.9.2'), 1);
    assert.equal(compareVersions('v2.0', '2.0'), 0);
    assert.equal(compareVersions('2.0.0-beta', '2.0.0'), 1);
    assert.equal(compareVersions('1.0', '1.0.1'), -1);
    assert.equal(lifecycleAfterRepeat('ignored', null, '9'), 'ignored');
    assert.equal(lifecycleAfterRepeat('resolved', '2.0', null), 'resolved');
  });

  it('creates an idea from a bug report, linked both ways; a second call answers the same one', async () => {
    const bugReport = (
      await p.live.post('/bugs', { title: 'Export button is dead', message: 'Clicking export does nothing at all.' })
    ).body;
    assert.equal((await p.member.post(path(`/bugs/${bugReport.id}/feature`))).status, 403);
    const made = await p.admin.post(path(`/bugs/${bugReport.id}/feature`));
    assert.equal(made.status, 201);
    assert.equal(made.body.created, true);
    const again = await p.admin.post(path(`/bugs/${bugReport.id}/feature`));
    assert.equal(again.status, 200);
    assert.deepEqual(again.body, { featureId: made.body.featureId, created: false });
    assert.equal((await p.member.get(path(`/bugs/${bugReport.id}`))).body.featureId, made.body.featureId);
    const linked = await p.member.get(path('/bugs'), { query: { featureId: made.body.featureId } });
    assert.deepEqual(
      linked.body.bugs.map((b: { id: string }) => b.id),
      [bugReport.id],
    );
    const feature = await p.member.get(path(`/features/${made.body.featureId}`));
    assert.equal(feature.status, 200);
    assert.equal(feature.body.title, 'Export button is dead');
    assert.equal((await p.admin.post(path('/bugs/bug_nope/feature'))).status, 404);
    assert.equal((await p.outsider.post(path(`/bugs/${bugReport.id}/feature`))).status, 404);
  });
});

const skip =
  testDbKind() === 'postgres' ? false : 'needs PostgreSQL (SIGNPOST_TEST_DB=postgres): SQLite runs as one process';

describe('error history through two server processes on one PostgreSQL database', { skip }, () => {
  let database: TestDatabase;
  let db: Database;
  const processes: ServerProcess[] = [];
  let projectId: string;
  let apis: Api[];

  before(async () => {
    database = await createTestDatabase('postgres');
    processes.push(await startServerProcess(database));
    processes.push(await startServerProcess(database));
    db = openDatabase({ databaseUrl: database.url, dataDir: database.dataDir });
    await migrate(db);
    projectId = newId('proj');
    await createProject(db, { id: projectId, name: 'History', slug: projectId, monthlyQuota: null });
    const key = (await createApiKey(db, projectId, 'live', ALL_PUBLIC_SCOPES)).key;
    apis = processes.map((proc) => new Api(proc.baseUrl, key));
    await Promise.all(apis.map((api) => api.get('/features')));
  });

  after(async () => {
    await Promise.all(processes.map((proc) => proc.stop('SIGTERM')));
    await db?.close();
    await database?.drop();
  });

  it('30 concurrent reports of one error: one group, 30 occurrences, a history of exactly 30', async () => {
    const responses = await Promise.all(
      Array.from({ length: 30 }, (_, i) => apis[i % 2]!.post('/errors', report('Concurrent crash'))),
    );
    assert.ok(responses.every((r) => r.status === 201 || r.status === 200));
    assert.equal(responses.filter((r) => r.status === 201).length, 1);
    const ids = new Set(responses.map((r) => r.body.id));
    assert.equal(ids.size, 1);
    const row = await db.get<{ occurrences: number }>('SELECT occurrences FROM error_reports WHERE id = ?', [
      [...ids][0],
    ]);
    assert.equal(Number(row!.occurrences), 30);
    const { fingerprint } = (await db.get<{ fingerprint: string }>(
      'SELECT fingerprint FROM error_reports WHERE id = ?',
      [[...ids][0]],
    ))!;
    const history = await readHistory(db, { projectId, environment: 'live', fingerprint }, '24h', new Date());
    assert.equal(history.total, 30);
  });

  it('10 errors, 6 reports each, through both processes at once: 10 groups of exactly 6, no deadlock', async () => {
    const sends = Array.from({ length: 60 }, (_, i) => i % 10);
    const responses = await Promise.all(
      sends.map((n, i) => apis[i % 2]!.post('/errors', report(`Concurrent mixed crash ${n}`))),
    );
    assert.ok(responses.every((r) => r.status === 201 || r.status === 200));
    const rows = await db.all<{ title: string; occurrences: number; fingerprint: string }>(
      `SELECT title, occurrences, fingerprint FROM error_reports WHERE project_id = ? AND title LIKE 'Concurrent mixed crash %'`,
      [projectId],
    );
    assert.equal(rows.length, 10);
    assert.ok(rows.every((row) => Number(row.occurrences) === 6));
    for (const { fingerprint } of rows) {
      const history = await readHistory(db, { projectId, environment: 'live', fingerprint }, '24h', new Date());
      assert.equal(history.total, 6);
    }
  });
});
