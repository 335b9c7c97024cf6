/**
 * Upgrading a database that already holds error reports: each suite stops the migrations before
 * one of them, writes what a server of that time wrote, applies the rest and checks through HTTP
 * that the data still behaves (test/support/upgrade-suite.ts).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { ALL_PUBLIC_SCOPES, createApiKey, createProject } from '../../src/resources/projects/index.ts';
import { hourOf, readHistory } from '../../src/resources/reports/store-history.ts';
import { errorFingerprint } from '../../src/resources/reports/store-error-writes.ts';
import { Api } from '../support/api.ts';
import { upgradeSuite } from '../support/upgrade-suite.ts';

describe('upgrade: report fingerprints cut to 128 bits (202611230000)', () => {
  let key: string;
  const title = 'TypeError in checkout';
  const errorType = 'TypeError';

  const upgraded = upgradeSuite('202611230000_short_dedup_fingerprints', async (db) => {
    await createProject(db, { id: 'upgraded', name: 'Upgraded', slug: 'upgraded', monthlyQuota: null });
    key = (await createApiKey(db, 'upgraded', 'live', ALL_PUBLIC_SCOPES)).key;
    // What the earlier server stored for one error report: the record and its dedup head, whose
    // fingerprint was the whole SHA-256 of the same fields.
    const at = new Date(Date.now() - 10 * 60 * 1000).toISOString();
    const fullFingerprint = createHash('sha256').update(`\u0001${title}\u0002\u0001${errorType}\u0002`).digest('hex');
    await db.run(
      `INSERT INTO error_reports (id, project_id, environment, title, message, error_type, severity, occurrences, first_seen_at, last_seen_at)
       VALUES ('error_before_upgrade', 'upgraded', 'live', ?, 'before', ?, 'high', 3, ?, ?)`,
      [title, errorType, at, at],
    );
    await db.run(
      `INSERT INTO dedup_heads (project_id, environment, kind, fingerprint, record_id, first_seen_at)
       VALUES ('upgraded', 'live', 'error', ?, 'error_before_upgrade', ?)`,
      [fullFingerprint, at],
    );
  });

  it('a repeat after the upgrade is counted on the record from before it', async () => {
    const api = new Api(upgraded.server.baseUrl, key);
    const repeat = await api.post('/errors', { title, message: 'Seen again after the upgrade', errorType });
    assert.equal(repeat.status, 200);
    assert.deepEqual(repeat.body, {
      id: 'error_before_upgrade',
      message: 'Error already reported; occurrence counted',
      duplicate: true,
    });
    const row = await upgraded.server.db.get<{ occurrences: number }>(
      'SELECT occurrences FROM error_reports WHERE id = ?',
      ['error_before_upgrade'],
    );
    assert.equal(Number(row!.occurrences), 4);
    const other = await api.post('/errors', {
      title: 'Another error',
      message: 'A different error altogether',
      errorType,
    });
    assert.equal(other.status, 201);
  });
});

describe('upgrade: dedup heads folded into the report records (202611231300)', () => {
  let key: string;
  const fingerprint = (...parts: string[]) =>
    createHash('sha256')
      .update(parts.map((part) => `\u0001${part}\u0002`).join(''))
      .digest('hex')
      .slice(0, 32);

  const upgraded = upgradeSuite('202611231300_dedup_on_records', async (db) => {
    await createProject(db, { id: 'folded', name: 'Folded', slug: 'folded', monthlyQuota: null });
    key = (await createApiKey(db, 'folded', 'live', ALL_PUBLIC_SCOPES)).key;
    const recent = new Date(Date.now() - 10 * 60 * 1000).toISOString();
    const stale = new Date(Date.now() - 2 * 60 * 60 * 1000).toISOString();
    // A bug inside its window, an error past it, and an older error record no head names any more.
    await db.run(
      `INSERT INTO bug_reports (id, project_id, environment, title, message, severity, occurrences, first_seen_at, last_seen_at)
       VALUES ('bug_before', 'folded', 'live', 'Checkout button', 'The checkout button does nothing.', 'high', 2, ?, ?)`,
      [recent, recent],
    );
    for (const [id, at] of [
      ['error_older', stale],
      ['error_before', stale],
    ] as const) {
      await db.run(
        `INSERT INTO error_reports (id, project_id, environment, title, message, error_type, severity, occurrences, first_seen_at, last_seen_at)
         VALUES (?, 'folded', 'live', 'TypeError in cart', 'before the upgrade', 'TypeError', 'high', 5, ?, ?)`,
        [id, at, at],
      );
    }
    const head = `INSERT INTO dedup_heads (project_id, environment, kind, fingerprint, record_id, first_seen_at) VALUES ('folded', 'live', ?, ?, ?, ?)`;
    await db.run(head, [
      'bug',
      fingerprint('Checkout button', 'The checkout button does nothing.'),
      'bug_before',
      recent,
    ]);
    await db.run(head, ['error', fingerprint('TypeError in cart', 'TypeError'), 'error_before', stale]);
  });

  it('a repeat inside the window is counted on the record from before the upgrade', async () => {
    const api = new Api(upgraded.server.baseUrl, key);
    const repeat = await api.post('/bugs', { title: 'Checkout button', message: 'The checkout button does nothing.' });
    assert.equal(repeat.status, 200);
    assert.equal(repeat.body.id, 'bug_before');
    const row = await upgraded.server.db.get<{ occurrences: number }>(
      'SELECT occurrences FROM bug_reports WHERE id = ?',
      ['bug_before'],
    );
    assert.equal(Number(row!.occurrences), 3);
  });

  it('a repeat past the window opens a new record, which then collects the repeats', async () => {
    const api = new Api(upgraded.server.baseUrl, key);
    const error = { title: 'TypeError in cart', message: 'Seen again after the upgrade', errorType: 'TypeError' };
    const first = await api.post('/errors', error);
    assert.equal(first.status, 201);
    assert.ok(!['error_before', 'error_older'].includes(first.body.id));
    const again = await api.post('/errors', error);
    assert.equal(again.status, 200);
    assert.equal(again.body.id, first.body.id);
    const rows = await upgraded.server.db.all<{ id: string; occurrences: number }>(
      "SELECT id, occurrences FROM error_reports WHERE project_id = 'folded' ORDER BY id",
    );
    assert.deepEqual(
      rows.map((row) => [row.id, Number(row.occurrences)]).sort(),
      [
        [first.body.id, 2],
        ['error_before', 5],
        ['error_older', 5],
      ].sort(),
    );
  });
});

describe('upgrade: one index over an error group (202612010200)', () => {
  let key: string;
  const error = { title: 'RangeError in export', message: 'before the upgrade', errorType: 'RangeError' };

  const upgraded = upgradeSuite('202612010200_error_group_index', async (db) => {
    await createProject(db, { id: 'slotted', name: 'Slotted', slug: 'slotted', monthlyQuota: null });
    key = (await createApiKey(db, 'slotted', 'live', ALL_PUBLIC_SCOPES)).key;
    // One group as the earlier server left it: a record closed when its window had passed, and the
    // open record that followed it, inside its window.
    const stale = new Date(Date.now() - 3 * 60 * 60 * 1000).toISOString();
    const recent = new Date(Date.now() - 10 * 60 * 1000).toISOString();
    const fingerprint = errorFingerprint(error);
    for (const [id, open, at, occurrences] of [
      ['error_closed', 0, stale, 7],
      ['error_open', 1, recent, 2],
    ] as const) {
      await db.run(
        `INSERT INTO error_reports (id, project_id, environment, fingerprint, dedup_open, title, message, error_type, severity, occurrences, first_seen_at, last_seen_at)
         VALUES (?, 'slotted', 'live', ?, ?, ?, ?, ?, 'high', ?, ?, ?)`,
        [id, fingerprint, open, error.title, error.message, error.errorType, occurrences, at, at],
      );
    }
  });

  it('a repeat is counted on the open record from before the upgrade, not on the closed one', async () => {
    const again = await new Api(upgraded.server.baseUrl, key).post('/errors', error);
    assert.equal(again.status, 200);
    assert.equal(again.body.id, 'error_open');
    const rows = await upgraded.server.db.all<{ id: string; occurrences: number; dedup_slot: string }>(
      "SELECT id, occurrences, dedup_slot FROM error_reports WHERE project_id = 'slotted' ORDER BY id",
    );
    assert.deepEqual(
      rows.map((row) => [row.id, Number(row.occurrences), row.dedup_slot]),
      [
        ['error_closed', 7, 'error_closed'],
        ['error_open', 3, ''],
      ],
    );
  });

  it('the index admits one open record per group, and any number of closed ones', async () => {
    const insert = (id: string, slot: string) =>
      upgraded.server.db.run(
        `INSERT INTO error_reports (id, project_id, environment, fingerprint, dedup_open, dedup_slot, title, message, severity, occurrences, first_seen_at, last_seen_at)
         VALUES (?, 'slotted', 'live', ?, ?, ?, 'x', 'x', 'low', 1, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`,
        [id, errorFingerprint(error), slot === '' ? 1 : 0, slot],
      );
    await assert.rejects(insert('error_second_open', ''), /unique|UNIQUE/);
    await insert('error_closed_too', 'error_closed_too');
  });
});

describe('upgrade: error records count their own hours (202612020100)', () => {
  let key: string;
  const api = () => new Api(upgraded.server.baseUrl, key);
  const error = { title: 'SyntaxError in import', message: 'before the upgrade', errorType: 'SyntaxError' };
  const fingerprint = errorFingerprint(error);
  const group = { projectId: 'hourly', environment: 'live', fingerprint };

  const upgraded = upgradeSuite('202612020100_error_hour_counts', async (db) => {
    await createProject(db, { id: 'hourly', name: 'Hourly', slug: 'hourly', monthlyQuota: null });
    key = (await createApiKey(db, 'hourly', 'live', ALL_PUBLIC_SCOPES)).key;
    // One group as the earlier server left it: a closed record of 7 reports three hours ago and
    // the open one of 4 ten minutes ago, each counted in the hourly table.
    const stale = new Date(Date.now() - 3 * 60 * 60 * 1000);
    const recent = new Date(Date.now() - 10 * 60 * 1000);
    for (const [id, at, occurrences] of [
      ['error_h_closed', stale, 7],
      ['error_h_open', recent, 4],
    ] as const) {
      const open = id === 'error_h_open';
      await db.run(
        `INSERT INTO error_reports (id, project_id, environment, fingerprint, dedup_open, dedup_slot, title, message, error_type, severity, occurrences, first_seen_at, last_seen_at)
         VALUES (?, 'hourly', 'live', ?, ?, ?, ?, ?, ?, 'high', ?, ?, ?)`,
        [
          id,
          fingerprint,
          open ? 1 : 0,
          open ? '' : id,
          error.title,
          error.message,
          error.errorType,
          occurrences,
          at.toISOString(),
          at.toISOString(),
        ],
      );
      await db.run(
        `INSERT INTO error_occurrences_hourly (project_id, environment, fingerprint, hour, count) VALUES ('hourly', 'live', ?, ?, ?)`,
        [fingerprint, hourOf(at), occurrences],
      );
    }
  });

  it('a repeat on a record from before is counted in the hourly table; the history adds up', async () => {
    const again = await api().post('/errors', error);
    assert.equal(again.body.id, 'error_h_open');
    const record = await upgraded.server.db.get<{ occurrences: number; last_hour_occurrences: number | null }>(
      "SELECT occurrences, last_hour_occurrences FROM error_reports WHERE id = 'error_h_open'",
    );
    assert.equal(Number(record!.occurrences), 5);
    assert.equal(record!.last_hour_occurrences, null);
    const hourly = await upgraded.server.db.get<{ n: number }>(
      "SELECT SUM(count) AS n FROM error_occurrences_hourly WHERE project_id = 'hourly'",
    );
    assert.equal(Number(hourly!.n), 12);
    assert.equal((await readHistory(upgraded.server.db, group, '24h', new Date())).total, 12);
  });

  it('a group new after the upgrade counts on its record, not in the hourly table', async () => {
    const fresh = { ...error, title: 'SyntaxError after the upgrade' };
    const first = await api().post('/errors', fresh);
    assert.equal(first.status, 201);
    await api().post('/errors', fresh);
    const record = await upgraded.server.db.get<{ last_hour_occurrences: number | null }>(
      'SELECT last_hour_occurrences FROM error_reports WHERE id = ?',
      [first.body.id],
    );
    assert.equal(Number(record!.last_hour_occurrences), 2);
    const freshGroup = { ...group, fingerprint: errorFingerprint(fresh) };
    const hourly = await upgraded.server.db.get<{ n: number }>(
      'SELECT COUNT(*) AS n FROM error_occurrences_hourly WHERE fingerprint = ?',
      [freshGroup.fingerprint],
    );
    assert.equal(Number(hourly!.n), 0);
    assert.equal((await readHistory(upgraded.server.db, freshGroup, '24h', new Date())).total, 2);
  });
});

describe('upgrade: error records collected in error groups (202612100100)', () => {
  const error = { title: 'RangeError in cart', message: 'before the groups', errorType: 'RangeError' };
  const fingerprint = errorFingerprint(error);

  const upgraded = upgradeSuite('202612100100_error_groups', async (db) => {
    await createProject(db, { id: 'grouped', name: 'Grouped', slug: 'grouped', monthlyQuota: null });
    // One fingerprint's closed record of 7 and open record of 4 (staging), and a record of its own.
    const stale = new Date(Date.now() - 3 * 60 * 60 * 1000).toISOString();
    const recent = new Date(Date.now() - 10 * 60 * 1000).toISOString();
    for (const [id, print, at, occurrences, status] of [
      ['error_g_closed', fingerprint, stale, 7, 'resolved'],
      ['error_g_open', fingerprint, recent, 4, 'regressed'],
      ['error_g_alone', 'other-fingerprint', recent, 1, 'open'],
    ] as const) {
      await db.run(
        `INSERT INTO error_reports (id, project_id, environment, fingerprint, dedup_open, dedup_slot, title, message, error_type, severity, app, app_version, status, occurrences, first_seen_at, last_seen_at)
         VALUES (?, 'grouped', 'live', ?, ?, ?, ?, ?, ?, 'high', ?, '1.2.0', ?, ?, ?, ?)`,
        [
          id,
          print,
          id === 'error_g_closed' ? 0 : 1,
          id === 'error_g_closed' ? id : '',
          error.title,
          error.message,
          error.errorType,
          JSON.stringify({ environment: 'staging' }),
          status,
          occurrences,
          at,
          at,
        ],
      );
    }
  });

  it('makes one group per fingerprint with the sum of its counts and its newest status', async () => {
    const db = upgraded.server.db;
    const groups = await db.all<{ id: string; events: number; status: string; sdk_environment: string }>(
      "SELECT id, events, status, sdk_environment FROM error_groups WHERE project_id = 'grouped' ORDER BY events DESC",
    );
    assert.deepEqual(
      groups.map((g) => [Number(g.events), g.status, g.sdk_environment]),
      [
        [11, 'regressed', 'staging'],
        [1, 'open', 'staging'],
      ],
    );
    const records = await db.all<{ id: string; group_id: string }>(
      "SELECT id, group_id FROM error_reports WHERE project_id = 'grouped' ORDER BY id",
    );
    const groupOf = Object.fromEntries(records.map((r) => [r.id, r.group_id]));
    assert.equal(groupOf['error_g_closed'], groups[0]!.id);
    assert.equal(groupOf['error_g_open'], groups[0]!.id);
    assert.equal(groupOf['error_g_alone'], groups[1]!.id);
  });
});
