/**
 * PostgreSQL failing under a write load (issue 37): the network to it cut and restored, and its
 * backends killed. Requests during the fault answer 503 with Retry-After (never a 500), the
 * process stays up, /readyz says what is happening, the server recovers by itself once the
 * database is back, and no write it acknowledged is lost. The server runs as its own process, so
 * a crash shows as an exit, and reaches PostgreSQL through a TCP proxy the test can cut (the
 * suite's other files share the PostgreSQL server, which is never restarted here).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import type { Database } from '../../src/db/database.ts';
import { migrate } from '../../src/db/migrate.ts';
import { openDatabase } from '../../src/db/open.ts';
import { ALL_PUBLIC_SCOPES, createApiKey, createProject } from '../../src/resources/projects/index.ts';
import { newId } from '../../src/kernel/ids.ts';
import { createTestDatabase, testDbKind, type TestDatabase } from '../support/database.ts';
import { startServerProcess, type ServerProcess } from '../support/server.ts';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.ts';
import { acknowledged, assertNoServerFault, type Outcome, postBug } from '../support/write-outcomes.ts';

const skip = testDbKind() === 'postgres' ? false : 'needs PostgreSQL (SIGNPOST_TEST_DB=postgres)';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Writers that post bug reports until stopped, each waiting for its answer before the next (bug
 * reports: POST /features has the spec's limit of 50 per 5 minutes; distinct titles, so no
 * report is folded into another by deduplication).
 */
function writeLoad(baseUrl: string, key: string, writers: number) {
  const outcomes: Outcome[] = [];
  let running = true;
  let sequence = 0;
  const load = Math.random().toString(36).slice(2, 8);
  const writer = async () => {
    while (running) {
      const title = `Fault load ${load} bug ${sequence++}`;
      outcomes.push(await postBug(baseUrl, key, title, 'Written while the database fails.'));
    }
  };
  const done = Promise.all(Array.from({ length: writers }, writer));
  return {
    outcomes,
    stop: async () => {
      running = false;
      await done;
    },
  };
}

async function readiness(origin: string): Promise<number> {
  try {
    return (await fetch(`${origin}/readyz`)).status;
  } catch {
    return 0;
  }
}

/** Polls /readyz until it answers 200; a bound for a hang, not a speed check. */
async function untilReady(origin: string, boundMs = 30_000): Promise<void> {
  const deadline = Date.now() + boundMs;
  while (Date.now() < deadline) {
    if ((await readiness(origin)) === 200) return;
    await sleep(100);
  }
  throw new Error(
    `the server did not become ready again: ${await fetch(`${origin}/readyz`)
      .then((r) => r.text())
      .catch(String)}`,
  );
}

describe('PostgreSQL failing under write load', { skip }, () => {
  let database: TestDatabase;
  let proxy: TcpProxy;
  let server: ServerProcess;
  let admin: Database;
  let key: string;

  before(async () => {
    database = await createTestDatabase('postgres');
    proxy = await startTcpProxy({ host: '127.0.0.1', port: Number(new URL(database.url).port || 5432) });
    const throughProxy = new URL(database.url);
    throughProxy.port = String(proxy.port);
    server = await startServerProcess({ ...database, url: throughProxy.toString() });
    admin = openDatabase({ databaseUrl: database.url, dataDir: database.dataDir });
    await migrate(admin);
    const projectId = newId('proj');
    await createProject(admin, { id: projectId, name: 'Faults', slug: projectId, monthlyQuota: null });
    key = (await createApiKey(admin, projectId, 'live', ALL_PUBLIC_SCOPES)).key;
  });

  after(async () => {
    const code = await server?.stop('SIGTERM');
    await proxy?.close();
    await admin?.close();
    await database?.drop();
    assert.equal(code, 0, `the server shuts down cleanly after the faults:\n${server?.output().slice(-3000)}`);
  });

  /** Every report the server acknowledged is in the database. */
  async function assertAcknowledgedKept(outcomes: Outcome[]) {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const ids = acknowledged(outcomes);
      assert.ok(ids.length > 0);
      const found = await client.query('SELECT count(*)::int AS n FROM bug_reports WHERE id = ANY($1)', [ids]);
      assert.equal(found.rows[0].n, ids.length, 'no acknowledged write is lost');
    } finally {
      await client.end();
    }
  }

  it('the network to the database cut and restored: 503 with Retry-After meanwhile, then recovery', async () => {
    const load = writeLoad(server.baseUrl, key, 4);
    await sleep(500);
    await proxy.cut();
    await sleep(300);
    const readyDuringOutage = await readiness(server.origin);
    await sleep(1_200);
    const duringOutage = load.outcomes.length;
    await proxy.restore();
    await untilReady(server.origin);
    await sleep(500);
    await load.stop();

    assert.equal(readyDuringOutage, 503, '/readyz reports the database as unavailable');
    assert.equal(server.child.exitCode, null, 'the process is still up');
    assertNoServerFault(load.outcomes);
    assert.ok(
      load.outcomes.some((outcome) => outcome.status === 503),
      'writes during the outage were answered 503',
    );
    assert.ok(
      load.outcomes.slice(duringOutage).some((outcome) => outcome.status === 201),
      'writes succeed again after the database is back',
    );
    await assertAcknowledgedKept(load.outcomes);
  });

  it('its backends killed during the load: no 5xx, and no acknowledged write lost', async () => {
    const load = writeLoad(server.baseUrl, key, 4);
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      for (let round = 0; round < 5; round++) {
        await sleep(200);
        await client.query(
          'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
        );
      }
    } finally {
      await client.end();
    }
    await untilReady(server.origin);
    const before = load.outcomes.length;
    await sleep(500);
    await load.stop();

    assert.equal(server.child.exitCode, null, 'the process is still up');
    assertNoServerFault(load.outcomes);
    assert.ok(
      load.outcomes.slice(before).some((outcome) => outcome.status === 201),
      'writes succeed again',
    );
    await assertAcknowledgedKept(load.outcomes);
  });
});
