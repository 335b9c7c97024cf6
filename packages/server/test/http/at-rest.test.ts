/**
 * Memory given back at rest (src/http/at-rest.ts): after MEMORY_REST_SECONDS without a request,
 * the memos are emptied and the database releases its caches (SQLite: page caches shrunk, idle
 * read workers ended). Held here through the real server on both databases: a rest happens only
 * after a quiet period, never while requests keep coming; after it, the memo answers nothing
 * until it has seen an answer again, and every answer (public and management, whose SQLite
 * reads start a read worker again) is the one given before. On SQLite the log group keys held in
 * memory move to their table at rest (resources/logs/store-sqlite-keys.ts), and repeats after it
 * still find their groups.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import { readOffThread } from '../../src/db/read-context.ts';
import { SqliteDatabase } from '../../src/db/sqlite.ts';
import { Api } from '../support/api.ts';
import { listeningForChanges } from '../support/change-listener.ts';
import { type SignedIn, signUp } from '../support/management.ts';
import { startTestServer, type TestProject, type TestServer } from '../support/server.ts';

describe('at rest: memory released after a quiet period', () => {
  let server: TestServer;
  let project: TestProject;
  let api: Api;
  let user: SignedIn;
  const rests = () => server.app.restWatch.rests;
  const hits = () => server.app.responseMemo.hits;

  // Generous: on a loaded machine (CI runs three lanes on two cores) a quiet second comes late.
  // A failure says which way it failed: requests kept coming (from whom: the server's own log), or
  // a rest began and did not end (whatever it awaits: the memos' releases, Database.rest).
  async function restedOnce(after: number, timeoutMs = 60_000): Promise<void> {
    const until = Date.now() + timeoutMs;
    const requestsBefore = server.app.restWatch.requests;
    while (rests() <= after) {
      const { requests, resting } = server.app.restWatch;
      assert.ok(
        Date.now() < until,
        `the server did not rest: ${requests - requestsBefore} requests came while waiting; ${resting ? 'a rest began and has not ended' : 'no rest under way'}`,
      );
      await delay(100);
    }
  }

  before(async () => {
    server = await startTestServer({ env: { MEMORY_REST_SECONDS: '1' } });
    await listeningForChanges(server.db);
    project = await server.createProject();
    api = new Api(server.baseUrl, project.liveKey);
    assert.equal(
      (await api.post('/features', { title: 'Resting idea', description: 'From the rest test.', type: 'feature' }))
        .status,
      201,
    );
    user = await signUp(server.origin);
  });
  after(() => server.close());

  it("runs a background job's off-loop reads on the loop while it rests; the next request wakes the workers", async (t) => {
    const db = server.db;
    if (!(db instanceof SqliteDatabase)) return t.skip('SQLite only: PostgreSQL reads in no thread of ours');
    assert.equal((await user.api.get('/projects')).status, 200);
    assert.ok(db.workerThreads.threads >= 1, 'a management read runs in a worker');
    await restedOnce(rests());
    assert.deepEqual(db.workerThreads, { threads: 0, inFlight: 0 }, 'the rest ended the workers');
    // As the log lines' upkeep reads, every minute, with nobody asking anything.
    const [row] = await readOffThread(() => db.all<{ n: number }>('SELECT COUNT(*) AS n FROM projects'));
    assert.ok(Number(row?.n) >= 1);
    assert.equal(db.workerThreads.threads, 0, 'a background read at rest started a worker');
    assert.equal((await user.api.get('/projects')).status, 200);
    assert.ok(db.workerThreads.threads >= 1, 'after the rest, a management read runs in a worker again');
  });

  it('does not rest while requests keep coming, and rests once they stop', async () => {
    // Rest first (after the set-up's requests), so the count starts from a quiet server.
    await restedOnce(rests());
    const before = rests();
    const until = Date.now() + 2_500;
    while (Date.now() < until) {
      assert.equal((await api.get('/features')).status, 200);
      await delay(150);
    }
    assert.equal(rests(), before, 'rested while requests were coming in');
    await restedOnce(before);
    assert.equal(rests(), before + 1);
  });

  it('after a rest the memo starts empty and every answer is the one given before', async () => {
    const listed = await user.api.get('/projects');
    assert.equal(listed.status, 200, listed.text);
    const first = await api.get('/features');
    assert.equal(first.status, 200);
    const memoised = server.db.changeMarker !== undefined;
    const repeat = hits();
    assert.equal((await api.get('/features')).text, first.text);
    assert.equal(hits() > repeat, memoised, 'the repeat before the rest comes from the memo');

    await restedOnce(rests());
    const afterRest = hits();
    const again = await api.get('/features');
    assert.equal(again.status, 200);
    assert.equal(again.text, first.text);
    assert.equal(hits(), afterRest, 'the memo answered after it was emptied');
    assert.equal((await api.get('/features')).text, first.text);
    assert.equal(hits() > afterRest, memoised, 'the memo fills again');
    const listedAgain = await user.api.get('/projects');
    assert.equal(listedAgain.status, 200, listedAgain.text);
    assert.equal(listedAgain.text, listed.text);
  });

  it('moves the log group keys held in memory to their table, and repeats still find their groups', async () => {
    const logs = (from: number) =>
      Array.from({ length: 100 }, (_, i) => ({
        level: 'info',
        message: `Rest ${from + i}`,
        fingerprint: `rest-${from + i}`,
      }));
    const restsBefore = rests();
    for (const from of [0, 100, 200]) assert.equal((await api.post('/logs', { logs: logs(from) })).status, 200);
    const swept = async () =>
      Number(
        (
          await server.db.get<{ n: number }>(
            `SELECT count(*) AS n FROM log_group_keys WHERE group_rowid IN
               (SELECT rowid FROM log_groups WHERE project_id = ? AND fingerprint LIKE 'rest-%')`,
            [project.projectId],
          )
        )?.n,
      );
    const sqlite = server.db.dialect === 'sqlite';
    // Unless a slow machine let a quiet second pass already.
    if (sqlite && rests() === restsBefore) assert.equal(await swept(), 0, 'new keys are held in memory until a sweep');

    await restedOnce(restsBefore);
    if (sqlite) assert.equal(await swept(), 300, 'every key in the table after the rest');
    for (const from of [0, 100, 200]) assert.equal((await api.post('/logs', { logs: logs(from) })).status, 200);
    const groups = await server.db.all<{ occurrences: number }>(
      `SELECT occurrences FROM log_groups WHERE project_id = ? AND fingerprint LIKE 'rest-%'`,
      [project.projectId],
    );
    assert.equal(groups.length, 300, 'a repeat after the rest made a group of its own');
    assert.ok(groups.every((group) => Number(group.occurrences) === 2));
  });
});
