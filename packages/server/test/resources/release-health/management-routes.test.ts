/**
 * Release health end to end: the real @sentry/node (its process session) reports sessions for
 * two releases, clients call the public version check, and the management API answers adoption,
 * crash-free sessions and users and the comparison with the previous release. Hand-written
 * envelopes hold Sentry's rules: a session counts once by its worst status (an `exited` after
 * `crashed` does not un-crash), updates of sessions started more than 5 days ago are ignored,
 * `sessions` aggregates add up, and a malformed item is ignored (the envelope's others are kept).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { type ManagedProject, managedProject } from '../../support/manage-fixtures.ts';
import { freePort } from '../../support/mcp.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';

const run = promisify(execFile);
const APP = fileURLToPath(new URL('../../fixtures/sentry/session-app.ts', import.meta.url));

const sid = () => randomUUID().replaceAll('-', '');

describe('release health: sessions, version checks and the management API', () => {
  let server: TestServer;
  let p: ManagedProject;
  let dsn: string;
  let envelopeUrl: string;

  before(async () => {
    const port = await freePort();
    server = await startTestServer({ env: { PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` } });
    p = await managedProject(server);
    const created = await p.owner.post(`/projects/${p.projectId}/keys`, {
      environment: 'live',
      scopes: ['errors:write'],
    });
    assert.equal(created.status, 201, created.text);
    dsn = created.body.sentryDsn;
    const url = new URL(dsn);
    envelopeUrl = `${url.protocol}//${url.host}/api${url.pathname}/envelope/?sentry_key=${url.username}&sentry_version=7`;
  });
  after(() => server.close());

  const post = (body: string) => fetch(envelopeUrl, { method: 'POST', body });
  const envelope = (...items: [string, unknown][]) =>
    [JSON.stringify({ sent_at: new Date().toISOString() })]
      .concat(items.flatMap(([type, payload]) => [JSON.stringify({ type }), JSON.stringify(payload)]))
      .join('\n');
  const session = (id: string, status: string, extra: Record<string, unknown> = {}) => ({
    sid: id,
    did: 'u-raw',
    init: status === 'ok',
    started: new Date().toISOString(),
    timestamp: new Date().toISOString(),
    status,
    errors: 0,
    attrs: { release: 'raw@3.0.0', environment: 'production' },
    ...extra,
  });
  const health = async (version: string) => {
    const response = await p.member.get(`/projects/${p.projectId}/release-health/${encodeURIComponent(version)}`, {
      query: { days: 1 },
    });
    assert.equal(response.status, 200, response.text);
    return response.body;
  };

  it('counts what @sentry/node sends for two releases, and version checks, as adoption and crash-free rates', async () => {
    for (const version of ['1.4.1', '1.4.2']) {
      const created = await p.owner.post(`/projects/${p.projectId}/releases`, { version });
      assert.equal(created.status, 201, created.text);
    }
    const runs: [string, string, string][] = [
      ['shop@1.4.1', 'ada', 'ok'],
      ['shop@1.4.1', 'bob', 'ok'],
      ['shop@1.4.2', 'ada', 'ok'],
      ['shop@1.4.2', 'cyd', 'crash'],
      ['shop@1.4.2', 'dee', 'errored'],
    ];
    for (const [release, user, mode] of runs) {
      const result = await run(process.execPath, [APP, dsn, release, user, mode], { timeout: 60_000 }).catch(
        (error: { code?: number; stdout?: string }) => error,
      );
      // The crash ends the process with exit code 1 after the SDK sent it.
      if (mode !== 'crash') assert.equal(result.stdout?.trim(), 'flushed');
    }
    for (const currentVersion of ['1.4.1', '1.4.2', '1.4.2', 'v1.4.2', '9.9.9']) {
      const checked = await p.anonymous.get('/version-check', { query: { projectId: p.projectId, currentVersion } });
      assert.equal(checked.status, 200, checked.text);
    }

    const list = await p.member.get(`/projects/${p.projectId}/release-health`, { query: { days: 1 } });
    assert.equal(list.status, 200, list.text);
    const byVersion = new Map(list.body.releases.map((r: any) => [r.version, r]));
    assert.deepEqual(
      list.body.releases.map((r: any) => r.version).filter((v: string) => v.startsWith('1.4')),
      ['1.4.2', '1.4.1'],
    );
    const newer: any = byVersion.get('1.4.2');
    assert.deepEqual(
      newer.sessions,
      { total: 3, healthy: 1, errored: 1, unhandled: 0, abnormal: 0, crashed: 1 },
      list.text,
    );
    assert.deepEqual(newer.users, { total: 3, crashed: 1 });
    assert.equal(newer.versionChecks, 3);
    assert.ok(Math.abs(newer.crashFreeSessions - 2 / 3) < 1e-9);
    assert.ok(Math.abs(newer.crashFreeUsers - 2 / 3) < 1e-9);
    assert.equal(newer.comparison.previous, '1.4.1');
    assert.ok(Math.abs(newer.comparison.crashFreeUsersChange - (2 / 3 - 1)) < 1e-9);
    const older: any = byVersion.get('1.4.1');
    assert.deepEqual(older.sessions, { total: 2, healthy: 2, errored: 0, unhandled: 0, abnormal: 0, crashed: 0 });
    assert.deepEqual(older.users, { total: 2, crashed: 0 });
    assert.equal(older.versionChecks, 1);
    assert.equal(older.crashFreeSessions, 1);
    assert.equal(list.body.latest.version, list.body.releases[0].version);

    const one = await health('shop@1.4.2');
    assert.equal(one.release.version, '1.4.2');
    assert.equal(one.previous.version, '1.4.1');
    assert.equal(one.bucket, 'hour');
    const total = (field: string) => one.series.reduce((sum: number, point: any) => sum + point[field], 0);
    assert.equal(total('sessions'), 3);
    assert.equal(total('crashed'), 1);
    assert.equal(total('versionChecks'), 3);
  });

  it('counts a session once by its worst status: an exited after crashed does not un-crash', async () => {
    const id = sid();
    for (const status of ['ok', 'crashed', 'exited']) {
      const response = await post(envelope(['session', session(id, status)]));
      assert.equal(response.status, 200, await response.text());
    }
    // An errored and an exited update in one envelope: one session, errored.
    const other = sid();
    const both = await post(
      envelope(['session', session(other, 'ok', { errors: 1 })], ['session', session(other, 'exited')]),
    );
    assert.equal(both.status, 200);
    const found = await health('3.0.0');
    assert.deepEqual(found.release.sessions, {
      total: 2,
      healthy: 0,
      errored: 1,
      unhandled: 0,
      abnormal: 0,
      crashed: 1,
    });
    assert.deepEqual(found.release.users, { total: 1, crashed: 1 });
    assert.equal(found.release.crashFreeSessions, 0.5);
    assert.equal(found.release.crashFreeUsers, 0);
  });

  it('ignores updates of a session started more than 5 days ago, and adds up sessions aggregates', async () => {
    const old = new Date(Date.now() - 6 * 24 * 3600_000).toISOString();
    const ignored = await post(
      envelope(['session', { ...session(sid(), 'crashed'), started: old, attrs: { release: '4.0.0' } }]),
    );
    assert.equal(ignored.status, 200);
    const minute = new Date();
    minute.setSeconds(0, 0);
    const aggregates = await post(
      envelope([
        'sessions',
        {
          aggregates: [
            { started: minute.toISOString(), exited: 7, errored: 2, crashed: 1 },
            { started: old, exited: 50 },
          ],
          attrs: { release: 'api@4.0.0', environment: 'production' },
        },
      ]),
    );
    assert.equal(aggregates.status, 200);
    const found = await health('4.0.0');
    assert.deepEqual(found.release.sessions, {
      total: 10,
      healthy: 7,
      errored: 2,
      unhandled: 0,
      abnormal: 0,
      crashed: 1,
    });
    assert.equal(found.release.crashFreeSessions, 0.9);
  });

  it('ignores a malformed session item, as Sentry does, and keeps the rest of the envelope', async () => {
    for (const bad of [
      { ...session(sid(), 'ok'), sid: undefined },
      { ...session(sid(), 'ok'), status: 'exploded' },
      { ...session(sid(), 'ok'), started: 'yesterday' },
    ]) {
      const good = session(sid(), 'ok', { attrs: { release: '5.0.0' } });
      const response = await post(envelope(['session', good], ['session', bad]));
      assert.equal(response.status, 200, await response.text());
    }
    const aggregate = await post(
      envelope([
        'sessions',
        { aggregates: [{ started: new Date().toISOString(), exited: -1 }, 'x'], attrs: { release: '5.0.0' } },
      ]),
    );
    assert.equal(aggregate.status, 200);
    const notJson = await post(`{}\n{"type":"session"}\n{not json`);
    assert.equal(notJson.status, 400);
    const found = await health('5.0.0');
    assert.equal(found.release.sessions.total, 3);
  });

  it('keeps running totals that equal the raw rows: @sentry/node sessions, repeated and late updates, both ranges', async () => {
    for (const [user, mode] of [
      ['eve', 'ok'],
      ['fay', 'crash'],
      ['eve', 'errored'],
    ] as const) {
      const result = await run(process.execPath, [APP, dsn, 'shop@6.0.0', user, mode], { timeout: 60_000 }).catch(
        (error: { code?: number; stdout?: string }) => error,
      );
      if (mode !== 'crash') assert.equal(result.stdout?.trim(), 'flushed');
    }
    const attrs = { release: 'shop@6.0.0', environment: 'production' };
    // A session updated ok → errored → crashed → exited, the crash sent twice: counted once, crashed.
    const now = sid();
    for (const status of ['ok', 'errored', 'crashed', 'crashed', 'exited']) {
      const response = await post(envelope(['session', session(now, status, { did: 'gus', attrs })]));
      assert.equal(response.status, 200);
    }
    // A session that started three days ago (inside Sentry's 5-day window), updated now: it counts
    // in its own hour, so a one-day range leaves it out and a 14-day range holds it.
    const started = new Date(Date.now() - 3 * 24 * 3600_000).toISOString();
    const late = sid();
    for (const status of ['ok', 'abnormal', 'abnormal']) {
      const response = await post(envelope(['session', session(late, status, { did: 'hal', started, attrs })]));
      assert.equal(response.status, 200);
    }
    const db = server.db;
    const raw = async (since: string) => {
      const rows = await db.all<{ status: string; n: number }>(
        `SELECT status, COUNT(*) AS n FROM release_sessions WHERE project_id = ? AND release = '6.0.0' AND hour >= ?
         GROUP BY status`,
        [p.projectId, since],
      );
      const sessions = { total: 0, healthy: 0, errored: 0, unhandled: 0, abnormal: 0, crashed: 0 } as Record<
        string,
        number
      >;
      for (const row of rows) {
        sessions[row.status] = Number(row.n);
        sessions['total']! += Number(row.n);
      }
      const users = await db.get<{ total: number; crashed: number }>(
        `SELECT COUNT(*) AS total, COUNT(CASE WHEN crash_hour >= ? THEN 1 END) AS crashed FROM release_users
         WHERE project_id = ? AND release = '6.0.0' AND last_hour >= ?`,
        [since, p.projectId, since],
      );
      return { sessions, users: { total: Number(users!.total), crashed: Number(users!.crashed) } };
    };
    for (const days of [14, 1]) {
      const list = await p.member.get(`/projects/${p.projectId}/release-health`, { query: { days } });
      assert.equal(list.status, 200, list.text);
      const found = list.body.releases.find((r: any) => r.version === '6.0.0');
      const expected = await raw(list.body.since);
      assert.deepEqual({ sessions: found.sessions, users: found.users }, expected, `days=${days}`);
      assert.equal(found.sessions.total, days === 14 ? 5 : 4);
      assert.equal(found.sessions.crashed, 2);
      assert.equal(found.sessions.abnormal, days === 14 ? 1 : 0);
      const page = await p.member.get(`/projects/${p.projectId}/releases/6.0.0/overview`, { query: { days } });
      assert.equal(page.status, 200, page.text);
      assert.deepEqual({ sessions: page.body.health.sessions, users: page.body.health.users }, expected);
    }
    // Every key's running totals are the sums of its hour rows (the earlier tests' releases too).
    const totals = await db.all(
      `SELECT release, sdk_environment, first_hour, last_hour, healthy, errored, unhandled, abnormal, crashed, users, crashed_users
       FROM release_health_totals WHERE project_id = ? ORDER BY release, sdk_environment`,
      [p.projectId],
    );
    const sums = await db.all(
      `SELECT release, sdk_environment, MIN(hour) AS first_hour, MAX(hour) AS last_hour, SUM(healthy) AS healthy,
         SUM(errored) AS errored, SUM(unhandled) AS unhandled, SUM(abnormal) AS abnormal, SUM(crashed) AS crashed,
         SUM(last_users) AS users, SUM(last_crashed_users) AS crashed_users
       FROM release_session_hours WHERE project_id = ? GROUP BY release, sdk_environment ORDER BY release, sdk_environment`,
      [p.projectId],
    );
    const plain = (rows: any[]) =>
      rows.map((row) =>
        Object.fromEntries(Object.entries(row).map(([k, v]) => [k, typeof v === 'string' ? v : Number(v)])),
      );
    assert.ok(totals.length >= 5);
    assert.deepEqual(plain(totals), plain(sums));
  });

  it('keeps projects apart and answers 404 to an outsider', async () => {
    const other = await managedProject(server);
    const list = await other.member.get(`/projects/${other.projectId}/release-health`);
    assert.equal(list.status, 200);
    assert.deepEqual(list.body.releases, []);
    assert.equal(list.body.latest, null);
    const outsider = await p.outsider.get(`/projects/${p.projectId}/release-health`);
    assert.equal(outsider.status, 404);
    const badDays = await p.member.get(`/projects/${p.projectId}/release-health`, { query: { days: 0 } });
    assert.equal(badDays.status, 400);
  });
});
