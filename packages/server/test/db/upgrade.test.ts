/**
 * Upgrading a database that already holds data. Each test stops the migrations before one of
 * them, writes what a server of that time wrote, applies the rest and checks through HTTP that
 * the data still behaves.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import type { Database } from '../../src/db/database.ts';
import { loadMigrations, migrate } from '../../src/db/migrate.ts';
import { openDatabase } from '../../src/db/open.ts';
import { ALL_PUBLIC_SCOPES, createApiKey, createProject } from '../../src/resources/projects/index.ts';
import { hourOf, readHistory } from '../../src/resources/reports/store-history.ts';
import { errorFingerprint } from '../../src/resources/reports/store-error-writes.ts';
import { groupKey } from '../../src/resources/logs/group-key.ts';
import { listLinePage } from '../../src/resources/logs/store-line-reads.ts';
import { createTestDatabase, type TestDatabase, testDbKind } from '../support/database.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { Api } from '../support/api.ts';

/** The test database with every migration before `migrationId` applied, open. */
async function migratedUpTo(database: TestDatabase, migrationId: string): Promise<Database> {
  const db = openDatabase({ databaseUrl: database.url, dataDir: database.dataDir });
  const all = loadMigrations();
  const cut = all.findIndex((migration) => migration.id === migrationId);
  assert.ok(cut > 0, `migration ${migrationId} exists`);
  await migrate(db, all.slice(0, cut));
  return db;
}

/**
 * An upgrade suite's server: a new test database migrated up to before `migrationId`, `seed`
 * writing what a server of that time wrote, then a server started on it, which applies the rest.
 */
function upgradeSuite(migrationId: string, seed: (db: Database) => Promise<void>): { readonly server: TestServer } {
  const suite = {} as { server: TestServer; database: TestDatabase };
  before(async () => {
    suite.database = await createTestDatabase();
    const db = await migratedUpTo(suite.database, migrationId);
    await seed(db);
    await db.close();
    suite.server = await startTestServer({ database: suite.database });
  });
  after(async () => {
    await suite.server?.close();
    await suite.database?.drop();
  });
  return suite;
}

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

describe('upgrade: SQLite keeps log keys apart from the rows (202612030100)', {
  skip: testDbKind() !== 'sqlite' && 'the migration is SQLite’s alone',
}, () => {
  let key: string;
  const api = () => new Api(upgraded.server.baseUrl, key);
  const lines = Array.from({ length: 3 }, (_, i) => ({
    level: 'warn' as const,
    message: `Before ${i}`,
    fingerprint: `before-${i}`,
  }));

  const upgraded = upgradeSuite('202612030100_log_key_index', async (db) => {
    await createProject(db, { id: 'keyed', name: 'Keyed', slug: 'keyed', monthlyQuota: null });
    key = (await createApiKey(db, 'keyed', 'live', ALL_PUBLIC_SCOPES)).key;
    // Groups as the earlier server wrote them: one row each, found through the unique key index.
    const at = new Date(Date.now() - 60_000).toISOString();
    for (const [i, line] of lines.entries())
      await db.run(
        `INSERT INTO log_groups (id, project_id, environment, fingerprint, fingerprint_key, level, message, occurrences,
           first_seen_at, last_seen_at) VALUES (?, 'keyed', 'live', ?, ?, 'warn', ?, 4, ?, ?)`,
        [`log_before_${i}`, line.fingerprint, groupKey('keyed', 'live', line.fingerprint), line.message, at, at],
      );
  });

  it('moves every key to log_group_keys, pointing at its row, and drops the unique index', async () => {
    const db = upgraded.server.db;
    const keys = await db.all<{ id: string; key: number }>(
      `SELECT g.id, k.key FROM log_group_keys k JOIN log_groups g ON g.rowid = k.group_rowid AND g.fingerprint_key = k.key
       WHERE g.project_id = 'keyed' ORDER BY g.id`,
    );
    assert.deepEqual(
      keys.map((row) => [row.id, Number(row.key)]),
      lines.map((line, i) => [`log_before_${i}`, groupKey('keyed', 'live', line.fingerprint)]),
    );
    const swept = await db.get<{ through: number; top: number }>(
      'SELECT merged_through AS through, (SELECT max(rowid) FROM log_groups) AS top FROM log_group_key_sweeps',
    );
    assert.equal(Number(swept!.through), Number(swept!.top));
    assert.equal(await db.get("SELECT 1 AS found FROM sqlite_master WHERE name = 'log_groups_key'"), undefined);
  });

  it('counts the groups from before on their rows, and appends new ones', async () => {
    const newcomer = { level: 'info' as const, message: 'After', fingerprint: 'after-0' };
    assert.equal((await api().post('/logs', { logs: [...lines, lines[0]!, newcomer] })).status, 200);
    const rows = await upgraded.server.db.all<{ fingerprint: string; occurrences: number }>(
      "SELECT fingerprint, occurrences FROM log_groups WHERE project_id = 'keyed' ORDER BY fingerprint",
    );
    assert.deepEqual(
      rows.map((row) => [row.fingerprint, Number(row.occurrences)]),
      [
        ['after-0', 1],
        ['before-0', 6],
        ['before-1', 5],
        ['before-2', 5],
      ],
    );
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

describe('upgrade: PostgreSQL searches a stored per-project document (202701010100)', () => {
  let key: string;
  const api = () => new Api(upgraded.server.baseUrl, key);

  const upgraded = upgradeSuite('202701010100_search_document', async (db) => {
    for (const id of ['searched', 'elsewhere']) {
      await createProject(db, { id, name: id, slug: id, monthlyQuota: null });
      // Ideas as the earlier server wrote them: no search document yet (PostgreSQL computes it
      // for the rows already there when the column is added).
      await db.run(
        `INSERT INTO features (id, project_id, environment, title, description, type, status, created_at, updated_at)
         VALUES (?, ?, 'live', 'Checkout in one step', 'Pay without leaving the cart.', 'feature', 'open', ?, ?)`,
        [`feat_${id}`, id, '2026-11-01T00:00:00.000Z', '2026-11-01T00:00:00.000Z'],
      );
    }
    key = (await createApiKey(db, 'searched', 'live', ALL_PUBLIC_SCOPES)).key;
  });

  it('finds the ideas from before the upgrade, typos included, and only the project’s own', async () => {
    for (const title of ['checkout', 'chekout flow']) {
      const found = await api().get('/suggestions', { query: { title } });
      assert.equal(found.status, 200, found.text);
      assert.deepEqual(
        (found.body.ideas as { id: string }[]).map((idea) => idea.id),
        ['feat_searched'],
        title,
      );
    }
  });

  it('finds an idea written after it the same way', async () => {
    const created = await api().post('/features', {
      title: 'Checkout with a saved card',
      description: 'Pay faster with a card kept on file.',
    });
    assert.equal(created.status, 201, created.text);
    const found = await api().get('/suggestions', { query: { title: 'saved checkout' } });
    assert.equal(found.status, 200, found.text);
    // Both words in its title: it ranks above the idea from before, which has one of them.
    assert.deepEqual(
      (found.body.ideas as { id: string }[]).map((idea) => idea.id),
      [created.body.id, 'feat_searched'],
    );
  });
});

describe('upgrade: log lines found through spans, not a per-line group index (202701120100)', () => {
  const at = (second: number) => new Date(Date.parse('2026-11-20T00:00:00.000Z') + second * 1000).toISOString();
  // Lines as the earlier server wrote them: two groups' lines interleaved, their times not in id order.
  const lines: [group: string, second: number][] = [
    ['a', 5],
    ['a', 1],
    ['b', 3],
    ['a', 7],
    ['b', 2],
    ['b', 6],
    ['a', 4],
  ];

  const upgraded = upgradeSuite('202701120100_log_line_spans', async (db) => {
    await createProject(db, { id: 'spanned', name: 'Spanned', slug: 'spanned', monthlyQuota: null });
    for (const group of ['a', 'b'])
      await db.run(
        `INSERT INTO log_groups (id, project_id, environment, fingerprint, fingerprint_key, level, message, occurrences,
           first_seen_at, last_seen_at) VALUES (?, 'spanned', 'live', ?, ?, 'info', ?, 4, ?, ?)`,
        [`log_${group}`, group, groupKey('spanned', 'live', group), `Group ${group}`, at(0), at(10)],
      );
    for (const [i, [group, second]] of lines.entries())
      await db.run(
        `INSERT INTO log_lines (group_id, project_id, environment, ts, level, data)
         VALUES (?, 'spanned', 'live', ?, 'info', ?)`,
        [`log_${group}`, at(second), JSON.stringify({ i })],
      );
  });

  it('gives every run of one group’s lines a span and drops the group index', async () => {
    const db = upgraded.server.db;
    const spans = await db.all<{ group_id: string; n: number | string }>(
      "SELECT group_id, n FROM log_line_spans WHERE project_id = 'spanned' ORDER BY group_id, first_id",
    );
    assert.deepEqual(
      spans.map((span) => [span.group_id, Number(span.n)]),
      [
        ['log_a', 2],
        ['log_a', 1],
        ['log_a', 1],
        ['log_b', 1],
        ['log_b', 2],
      ],
    );
    const index =
      db.dialect === 'sqlite'
        ? await db.get("SELECT 1 AS found FROM sqlite_master WHERE name = 'log_lines_by_group'")
        : await db.get("SELECT 1 AS found FROM pg_indexes WHERE indexname = 'log_lines_by_group'");
    assert.equal(index, undefined);
  });

  it("pages each group's lines from before newest first, by their own time", async () => {
    const db = upgraded.server.db;
    for (const [group, expected] of [
      ['log_a', [3, 0, 6, 1]],
      ['log_b', [5, 2, 4]],
    ] as const) {
      const seen: number[] = [];
      let cursor: { ts: string; id: string } | undefined;
      for (;;) {
        const page = await listLinePage<{ ts: string; id: number | string; data: string | Record<string, number> }>(
          db,
          'spanned',
          { groupId: group },
          2,
          cursor,
        );
        for (const row of page.rows) seen.push((typeof row.data === 'string' ? JSON.parse(row.data) : row.data).i);
        if (!page.hasMore) break;
        const last = page.rows.at(-1)!;
        cursor = page.next ?? { ts: last.ts, id: String(last.id) };
      }
      assert.deepEqual(seen, expected, group);
    }
  });
});
