/**
 * SQLite's change marker (db/sqlite.ts): the server's own commits move it only when they may
 * change what a memo reads (db/memoised-writes.ts; front-door.test.ts holds that telemetry leaves
 * the memo warm), and any commit of another connection moves it, whatever it wrote: another
 * process, the `create-project` CLI or a tool writing the file directly. Those are seen by the
 * next request through HTTP.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../src/config.ts';
import type { Database } from '../../src/db/database.ts';
import { openDatabase } from '../../src/db/open.ts';
import { quotaPeriod } from '../../src/http/quota.ts';
import { Api } from '../support/api.ts';
import { testDbKind } from '../support/database.ts';
import { startTestServer, type TestProject, type TestServer } from '../support/server.ts';

const skip = testDbKind() === 'sqlite' ? false : 'SQLite only: PostgreSQL is held by pg-change-notification.test.ts';

describe('SQLite change marker: commits of another connection', { skip }, () => {
  let server: TestServer;
  let project: TestProject;
  let api: Api;
  /** A second handle on the server's file, as the CLI opens one. */
  let outside: Database;
  const hits = () => server.app.responseMemo.hits;

  before(async () => {
    server = await startTestServer();
    project = await server.createProject();
    api = new Api(server.baseUrl, project.liveKey);
    const created = await api.post('/features', {
      title: 'Before',
      description: 'Written by the server.',
      type: 'feature',
    });
    assert.equal(created.status, 201);
    outside = openDatabase(
      loadConfig({ DATABASE_URL: server.database.url, DATA_DIR: server.database.dataDir, LOG_LEVEL: 'silent' }),
    );
  });
  after(async () => {
    await outside?.close();
    await server?.close();
  });

  /** Reads the feature list twice (the second from the memo) and returns the first title. */
  async function warm(): Promise<string> {
    const first = await api.get('/features');
    const before = hits();
    assert.equal((await api.get('/features')).body.features[0].title, first.body.features[0].title);
    assert.equal(hits(), before + 1, 'the repeat came from the memo');
    return first.body.features[0].title;
  }

  it('a feature changed through another handle is read at once, not the kept list', async () => {
    assert.equal(await warm(), 'Before');
    await outside.run('UPDATE features SET title = ? WHERE project_id = ?', ['After', project.projectId]);
    const before = hits();
    const read = await api.get('/features');
    assert.equal(read.body.features[0].title, 'After');
    assert.equal(hits(), before, 'answered afresh');
  });

  it("another connection's write to a table no memo reads still empties the memo: which tables it wrote cannot be known", async () => {
    await warm();
    await outside.run('INSERT INTO quota_usage (project_id, period, used) VALUES (?, ?, 1)', [
      project.projectId,
      quotaPeriod(new Date()),
    ]);
    const before = hits();
    assert.equal((await api.get('/features')).status, 200);
    assert.equal(hits(), before, 'answered afresh');
  });
});
