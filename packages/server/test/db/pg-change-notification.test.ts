/**
 * Change notification on PostgreSQL (db/pg-listener.ts, db/memoised-writes.ts): a change made through
 * one server process is read through another within a bound, a lost listening connection makes
 * a process read through until it listens again, and the hot write paths send no notification.
 * The first two suites hold which writes notify and who reads the tables that do not; they need
 * no database and run on both.
 */
import { after, before, describe, it, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { Database } from '../../src/db/database.ts';
import { migrate } from '../../src/db/migrate.ts';
import { openDatabase } from '../../src/db/open.ts';
import { CHANGE_CHANNEL, LISTENER_APPLICATION_NAME } from '../../src/db/pg-listener.ts';
import { changesMemoisedData, UNMEMOISED_TABLES } from '../../src/db/memoised-writes.ts';
import { createAccount } from '../../src/resources/accounts/index.ts';
import { ALL_PUBLIC_SCOPES, createApiKey, createProject } from '../../src/resources/projects/index.ts';
import { createToken } from '../../src/resources/tokens/index.ts';
import { newId } from '../../src/kernel/ids.ts';
import { Api } from '../support/api.ts';
import { createTestDatabase, testDbKind, type TestDatabase } from '../support/database.ts';
import { startServerProcess, type ServerProcess } from '../support/server.ts';

/** The bound asserted for a change to reach another process: generous, a correctness property. */
const BOUND_MS = 2_000;

describe('which PostgreSQL writes notify', () => {
  it('reads and the hot unmemoised write paths do not', () => {
    for (const sql of [
      'SELECT id FROM features WHERE project_id = ?',
      'SELECT * FROM api_keys WHERE lookup = ? FOR UPDATE',
      '  with recent AS (SELECT id FROM features) SELECT * FROM recent',
      `INSERT INTO quota_usage (project_id, period, used) VALUES (?, ?, 1)
       ON CONFLICT (project_id, period) DO UPDATE SET used = quota_usage.used + 1 WHERE quota_usage.used < ? RETURNING used`,
      'DELETE FROM rate_limit_hits WHERE bucket = ? AND at <= ?',
      `INSERT INTO missing_translations (project_id, key) VALUES (?, ?)
       ON CONFLICT (project_id, key) DO UPDATE SET occurrences = missing_translations.occurrences + 1`,
      'UPDATE error_reports SET status = ? WHERE id = ?',
      'WITH head AS (INSERT INTO log_groups (id) VALUES (?) RETURNING id) UPDATE log_groups SET level = ? WHERE id = ?',
      // SQLite's log writes: repeats by rowid, and a sweep step of keys.
      `UPDATE log_groups SET occurrences = log_groups.occurrences + v.column2 FROM (VALUES (?, ?)) AS v
       WHERE log_groups.rowid = v.column1 RETURNING log_groups.rowid AS rid`,
      `INSERT INTO log_group_keys (key, group_rowid) VALUES (?, ?), (?, ?)
       ON CONFLICT (key) DO UPDATE SET group_rowid = excluded.group_rowid`,
      'UPDATE log_group_key_sweeps SET merged_through = ?',
    ]) {
      assert.equal(changesMemoisedData(sql), false, sql);
    }
  });

  it('every other write does, and so does anything it cannot read for certain', () => {
    for (const sql of [
      'UPDATE features SET status = ? WHERE id = ?',
      'update "api_keys" set revoked_at = ? where id = ?',
      'INSERT INTO votes (feature_id) VALUES (?) ON CONFLICT DO NOTHING',
      'DELETE FROM maintenance_settings WHERE project_id = ?',
      'WITH moved AS (UPDATE bug_reports SET feature_id = ? RETURNING id) UPDATE features SET vote_count = 0',
      'INSERT INTO bug_reports (id) SELECT id FROM features; UPDATE projects SET name = ?',
      'CREATE TABLE something (id TEXT)',
      '-- a comment first\nSELECT 1',
      'TRUNCATE error_reports, features',
    ]) {
      assert.equal(changesMemoisedData(sql), true, sql);
    }
  });
});

describe('who reads the tables whose writes do not notify', () => {
  // These modules serve management lists, MCP tools and the per-request limit checks; none is a
  // memoised read (the key memo, the feature list, site config, translations, board pages). A
  // new file naming one of these tables fails here: check that no memo reads it (if one does,
  // drop the table from UNMEMOISED_TABLES in db/memoised-writes.ts), then add the file.
  const KNOWN_READERS = [
    // The full export reads every table, straight to the archive (no memo).
    'src/db/archive.ts',
    'src/db/memoised-writes.ts',
    // Time partitions (issue 37): the settings' comments name the tables, the keeper runs DDL on
    // them and the resources' partition configs name their own (no memo reads any of them).
    'src/config.ts',
    'src/db/time-partitions.ts',
    'src/resources/release-health/partitions.ts',
    'src/resources/reports/partitions.ts',
    'src/resources/logs/partitions.ts',
    'src/http/quota.ts',
    'src/http/quota-store.ts',
    'src/http/rate-limit.ts',
    'src/resources/changelog/readers-store.ts',
    'src/resources/logs/group-key.ts',
    'src/resources/logs/store.ts',
    'src/resources/logs/store-count-reads.ts',
    'src/resources/logs/store-group-writes.ts',
    'src/resources/logs/store-line-reads.ts',
    'src/resources/logs/store-line-upkeep.ts',
    'src/resources/logs/store-lines.ts',
    'src/resources/logs/store-sqlite-keys.ts',
    // A release's overview (what broke) is a management read, never memoised.
    'src/resources/release-hub/read-model.ts',
    // Release health's intake, retention, charts and a person's sessions: writes, workers and
    // management reads (no memo).
    'src/resources/release-health/store.ts',
    'src/resources/release-health/store-checks.ts',
    'src/resources/release-health/store-erasure.ts',
    'src/resources/release-health/store-expiry.ts',
    'src/resources/release-health/store-hour-reads.ts',
    'src/resources/release-health/store-totals.ts',
    // The release ledger (the releases list and page: a management read, never memoised), and the
    // bench's bulk load of session aggregates (a write).
    'src/resources/release-health/read-model.ts',
    'src/resources/release-health/store-load.ts',
    // Judging health drops reads session hours (a worker, no memo).
    'src/resources/release-health/store-drops.ts',
    'src/resources/release-health/worker.ts',
    // The sightings worker asks which releases live events and sessions reported (no memo).
    'src/resources/releases/read-model.ts',
    'src/resources/reports/index.ts',
    'src/resources/reports/attention-read-model.ts',
    'src/resources/reports/store.ts',
    'src/resources/reports/store-alerts.ts',
    // Erasing a person rewrites their error events (a write, not a memo's read).
    'src/resources/reports/store-erasure.ts',
    // A flag's history shows the error rate around each change (management read).
    'src/resources/reports/store-error-rate.ts',
    'src/resources/reports/store-error-writes.ts',
    'src/resources/reports/store-feedback.ts',
    'src/resources/reports/store-group-reads.ts',
    'src/resources/reports/store-groups.ts',
    'src/resources/reports/store-history.ts',
    'src/resources/reports/store-report-table.ts',
    'src/resources/reports/store-triage.ts',
    'src/resources/translations/store-missing.ts',
    'src/resources/webhooks/delivery-worker.ts',
    'src/resources/webhooks/store.ts',
  ];
  const root = fileURLToPath(new URL('../..', import.meta.url));

  function sources(dir: string): string[] {
    return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return entry.name === 'migrations' ? [] : sources(path);
      return entry.name.endsWith('.ts') || entry.name.endsWith('.tsx') ? [path] : [];
    });
  }

  it('only the stores known not to feed a memo', () => {
    const readers = sources(join(root, 'src'))
      .filter((path) => {
        const text = readFileSync(path, 'utf8');
        return [...UNMEMOISED_TABLES].some((table) => new RegExp(`\\b${table}\\b`).test(text));
      })
      .map((path) => relative(root, path).replaceAll('\\', '/'))
      .sort();
    assert.deepEqual(
      readers.filter((path) => !KNOWN_READERS.includes(path)),
      [],
    );
  });
});

const skip = testDbKind() === 'postgres' ? false : 'PostgreSQL only: SQLite needs no notifications';

/** Polls `check` until it holds; returns the milliseconds it took, failing past `limitMs`. */
async function within(limitMs: number, what: string, check: () => Promise<boolean>): Promise<number> {
  const started = performance.now();
  while (!(await check())) {
    const elapsed = performance.now() - started;
    assert.ok(elapsed < limitMs, `${what}: not seen within ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  return performance.now() - started;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('change notification through two server processes on one PostgreSQL database', { skip }, () => {
  let database: TestDatabase;
  let db: Database;
  /** A plain connection: its writes send no notification, as a tool bypassing Signpost would. */
  let direct: pg.Client;
  const processes: ServerProcess[] = [];
  let a: ServerProcess;
  let b: ServerProcess;
  let projectId: string;
  let key: { id: string; key: string };
  /** A second key of the project, for after the first is revoked. */
  let otherKey: string;
  let manageA: Api;
  let publicA: Api;
  let publicB: Api;
  let featureId: string;

  /**
   * The backend pids of the listening connections of a server process: its last statement is
   * the LISTEN, or the heartbeat's `SELECT 1`, which only runs once LISTEN is in place (a slow
   * run reaches the 5 s heartbeat; looking for LISTEN alone then found no listener).
   */
  async function listenerPids(proc: ServerProcess): Promise<number[]> {
    const { rows } = await direct.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity
        WHERE datname = current_database() AND application_name = $1
          AND (query ILIKE 'LISTEN%' OR query = 'SELECT 1')`,
      [`${LISTENER_APPLICATION_NAME}/${proc.child.pid}`],
    );
    return rows.map((row) => row.pid);
  }

  async function featureOnB(api = publicB): Promise<{ status: string; title: string } | undefined> {
    const response = await api.get('/features');
    assert.equal(response.status, 200, response.text);
    return (response.body.features as { id: string; status: string; title: string }[]).find(
      (feature) => feature.id === featureId,
    );
  }

  /**
   * A title change sent with a notification, once B shows it and a moment more, and read once
   * more: B may read the new row before its notification arrives (a read-through caused by an
   * earlier one), so the pause lets every notification committed so far reach B, and the last
   * read memoises under the marker they left. A test may then hold B's memo to that answer.
   * Returns the title.
   */
  async function settle(api = publicB): Promise<string> {
    const title = `Settled ${newId('t')}`;
    await direct.query('BEGIN');
    await direct.query('UPDATE features SET title = $1 WHERE id = $2', [title, featureId]);
    await direct.query(`NOTIFY ${CHANGE_CHANNEL}, 'test'`);
    await direct.query('COMMIT');
    await within(BOUND_MS, 'the settling change in B', async () => (await featureOnB(api))?.title === title);
    await sleep(200);
    // Memoised again under the marker that notification left.
    assert.equal((await featureOnB(api))?.title, title);
    return title;
  }

  before(async () => {
    database = await createTestDatabase('postgres');
    a = await startServerProcess(database);
    processes.push(a);
    b = await startServerProcess(database);
    processes.push(b);
    db = openDatabase({ databaseUrl: database.url, dataDir: database.dataDir });
    await migrate(db);
    direct = new pg.Client({ connectionString: database.url });
    await direct.connect();

    projectId = newId('proj');
    await createProject(db, { id: projectId, name: 'Notify', slug: projectId, monthlyQuota: null });
    key = await createApiKey(db, projectId, 'live', ALL_PUBLIC_SCOPES);
    otherKey = (await createApiKey(db, projectId, 'live', ALL_PUBLIC_SCOPES)).key;
    const owner = await db.transaction((tx) =>
      createAccount(tx, {
        email: `owner-${newId('x')}@example.com`,
        name: 'Owner',
        passwordHash: null,
        verified: true,
      }),
    );
    const { token } = await createToken(db, owner.id, 'notify test', undefined);
    const team = (await db.get<{ id: string }>('SELECT id FROM teams WHERE owner_account_id = ?', [owner.id]))!;
    await db.run('UPDATE projects SET team_id = ? WHERE id = ?', [team.id, projectId]);
    manageA = new Api(`${a.origin}/api/v1`, null, { authorization: `Bearer ${token}` });
    publicA = new Api(a.baseUrl, key.key);
    publicB = new Api(b.baseUrl, key.key);

    const created = await publicA.post('/features', {
      title: 'Seen everywhere',
      description: 'A feature for the change notification test.',
      type: 'feature',
    });
    assert.equal(created.status, 201, created.text);
    featureId = created.body.id;
    const opened = await manageA.patch(`/projects/${projectId}/features/${featureId}`, { status: 'open' });
    assert.equal(opened.status, 200, opened.text);

    // Each process starts listening on its first memoised read.
    await publicA.get('/features');
    await publicB.get('/features');
    for (const proc of processes) {
      await within(60_000, 'the listener connects', async () => (await listenerPids(proc)).length === 1);
    }
    await within(BOUND_MS, 'the feature in B', async () => (await featureOnB())?.status === 'open');
  });

  after(async () => {
    await Promise.all(processes.map((proc) => proc.stop('SIGTERM')));
    await direct?.end();
    await db?.close();
    await database?.drop();
  });

  it('B memoises: a change made without a notification is not seen, one with it is', async (t: TestContext) => {
    const title = await settle();
    await direct.query('UPDATE features SET title = $1 WHERE id = $2', ['Changed quietly', featureId]);
    assert.equal((await featureOnB())?.title, title, 'B answers from its memo');
    await direct.query(`NOTIFY ${CHANGE_CHANNEL}, 'test'`);
    const delay = await within(
      BOUND_MS,
      'the title in B',
      async () => (await featureOnB())?.title === 'Changed quietly',
    );
    t.diagnostic(`notified change seen by B after ${delay.toFixed(1)} ms`);
  });

  it('a feature status changed through A is read through B within the bound', async (t: TestContext) => {
    assert.equal((await featureOnB())?.status, 'open');
    const changed = await manageA.patch(`/projects/${projectId}/features/${featureId}`, { status: 'planned' });
    assert.equal(changed.status, 200, changed.text);
    const delay = await within(BOUND_MS, 'the status in B', async () => (await featureOnB())?.status === 'planned');
    t.diagnostic(`feature status change seen by B after ${delay.toFixed(1)} ms`);
  });

  it('a site-config change made through A is read through B within the bound', async (t: TestContext) => {
    const anonymousB = new Api(b.baseUrl, null);
    const maintenanceOnB = async () => {
      const response = await anonymousB.get('/site-config', { query: { projectId } });
      assert.equal(response.status, 200, response.text);
      return response.body.maintenance.enabled as boolean;
    };
    assert.equal(await maintenanceOnB(), false);
    assert.equal(await maintenanceOnB(), false);
    const changed = await manageA.patch(`/projects/${projectId}/site-config/maintenance`, { enabled: true });
    assert.equal(changed.status, 200, changed.text);
    const delay = await within(BOUND_MS, 'maintenance in B', maintenanceOnB);
    t.diagnostic(`site-config change seen by B after ${delay.toFixed(1)} ms`);
  });

  it('the hot write paths send no notification; a feature write sends one', async () => {
    const metered = newId('proj');
    await createProject(db, { id: metered, name: 'Metered', slug: metered, monthlyQuota: 1_000 });
    const meteredKey = await createApiKey(db, metered, 'live', ALL_PUBLIC_SCOPES);
    const heard: string[] = [];
    const listener = new pg.Client({ connectionString: database.url });
    await listener.connect();
    listener.on('notification', (message) => heard.push(message.payload ?? ''));
    await listener.query(`LISTEN ${CHANGE_CHANNEL}`);
    try {
      const publicOfA = (api: Api) => [
        () => api.post('/errors', { title: 'Hot error', message: 'Something failed', errorType: 'TypeError' }),
        () => api.post('/errors', { title: 'Hot error', message: 'Something failed', errorType: 'TypeError' }),
        () => api.post('/errors', { title: `New error ${newId('e')}`, message: 'Something else failed' }),
        () => api.post('/bugs', { title: 'Bug title', message: 'A bug message here' }),
        () => api.post('/logs', { logs: [{ level: 'info', message: 'a log line' }] }),
        () => api.post('/i18n-telemetry', { locale: 'de', missingKeys: ['missing.key'] }),
      ];
      for (const call of publicOfA(publicA)) assert.ok((await call()).status < 300);
      // A metered project's reads write its quota counter.
      const meteredRead = await new Api(a.baseUrl, meteredKey.key).get('/features');
      assert.equal(meteredRead.status, 200, meteredRead.text);
      // Notifications arrive in commit order: the fence comes after anything the writes sent.
      await direct.query(`NOTIFY ${CHANGE_CHANNEL}, 'fence'`);
      await within(BOUND_MS, 'the fence', async () => heard.includes('fence'));
      assert.deepEqual(heard, ['fence']);

      const changed = await manageA.patch(`/projects/${projectId}/features/${featureId}`, { status: 'open' });
      assert.equal(changed.status, 200, changed.text);
      await within(BOUND_MS, 'the feature change', async () => heard.length > 1);
    } finally {
      await listener.end();
    }
  });

  it('a key revoked through A is refused by B within the bound', async (t: TestContext) => {
    assert.equal((await publicB.get('/features')).status, 200);
    assert.equal((await publicB.get('/features')).status, 200);
    const revoked = await manageA.delete(`/projects/${projectId}/keys/${key.id}`);
    assert.equal(revoked.status, 200, revoked.text);
    assert.equal((await publicA.get('/features')).status, 401, 'A refuses it at once');
    const delay = await within(
      BOUND_MS,
      'the revocation in B',
      async () => (await publicB.get('/features')).status === 401,
    );
    t.diagnostic(`key revocation effective in B after ${delay.toFixed(1)} ms`);
  });

  it('a lost listening connection: B reads through, then listens and memoises again', async (t: TestContext) => {
    const readerB = new Api(b.baseUrl, otherKey);
    const title = await settle(readerB);
    await direct.query('UPDATE features SET title = $1 WHERE id = $2', ['Changed while deaf', featureId]);
    assert.equal((await featureOnB(readerB))?.title, title, 'B answers from its memo');

    const [killed] = await listenerPids(b);
    assert.ok(killed);
    await direct.query('SELECT pg_terminate_backend($1)', [killed]);
    // Nothing notified this change: B sees it because it stopped trusting its memo.
    const delay = await within(
      BOUND_MS,
      'the quiet change in B',
      async () => (await featureOnB(readerB))?.title === 'Changed while deaf',
    );
    t.diagnostic(`B read through ${delay.toFixed(1)} ms after its listener was killed`);

    const relisten = await within(10_000, 'B listening again', async () => {
      const pids = await listenerPids(b);
      return pids.length === 1 && pids[0] !== killed;
    });
    t.diagnostic(`B listened again after ${relisten.toFixed(1)} ms`);
    const settled = await settle(readerB);
    await direct.query('UPDATE features SET title = $1 WHERE id = $2', ['Quiet again', featureId]);
    assert.equal((await featureOnB(readerB))?.title, settled, 'B memoises again');
    await direct.query(`NOTIFY ${CHANGE_CHANNEL}, 'test'`);
    await within(
      BOUND_MS,
      'the notified change in B',
      async () => (await featureOnB(readerB))?.title === 'Quiet again',
    );
  });

  it('shutting down closes the listening connection with the database', async () => {
    assert.equal((await listenerPids(b)).length, 1);
    assert.equal(await b.stop('SIGTERM'), 0);
    // The backend goes once the process has closed its side; poll for that, bounded.
    await within(10_000, "B's listener gone", async () => (await listenerPids(b)).length === 0);
  });
});
