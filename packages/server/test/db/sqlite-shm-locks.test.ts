/**
 * Another process opening the SQLite database while the server writes (`npm run backup`, the CLI,
 * a second server process) must find the wal-index owned. SQLite marks it owned with a POSIX
 * lock on the `-shm` file, and POSIX drops every lock a process holds on a file when the process
 * closes any descriptor of it: the checkpointer once opened and closed the `-shm` file to read its
 * header four times a second, so a process opening the database in between took the wal-index as
 * unowned and truncated it under the server's mapping (the server died of SIGBUS in
 * backup-restore.test.ts, 2 runs of 12 under load). Here a server process takes writes while this
 * process opens the database read-only again and again, as the backup does.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { createTestDatabase, type TestDatabase, testDbKind } from '../support/database.ts';
import { migratedProject } from '../support/database-project.ts';
import { startServerProcess, type ServerProcess } from '../support/server.ts';

const skip = testDbKind() === 'sqlite' ? false : 'SQLite only: PostgreSQL has no shared wal-index';
const WRITERS = 4;
const SECONDS = 4;

describe('the wal-index stays owned while other processes open the database', { skip }, () => {
  let database: TestDatabase;
  let server: ServerProcess | undefined;
  let key: string;

  before(async () => {
    database = await createTestDatabase();
    ({ key } = await migratedProject(database, 'Locks'));
  });
  after(async () => {
    await server?.stop('SIGKILL');
    await database?.drop();
  });

  it('keeps serving writes while another process opens and reads the database, again and again', async () => {
    // A checkpoint threshold a few commits reach, so the checkpointer looks at the WAL every tick.
    server = await startServerProcess(database, { SQLITE_CHECKPOINT_PAGES: '100' });
    const running = server;
    const failures: string[] = [];
    let acknowledged = 0;
    let stop = false;
    const writer = async (n: number) => {
      for (let i = 0; !stop; i++) {
        try {
          const res = await fetch(`${running.baseUrl}/errors`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-api-key': key },
            body: JSON.stringify({
              title: `Lock test ${n}-${i}`,
              message: `distinct ${n}-${i}`,
              errorType: 'LockTest',
            }),
          });
          await res.arrayBuffer();
          if (res.status === 201) acknowledged++;
          else failures.push(`status ${res.status}`);
        } catch (error) {
          failures.push(String(error));
          return;
        }
      }
    };
    const writers = Array.from({ length: WRITERS }, (_, n) => writer(n));
    let opens = 0;
    const end = Date.now() + SECONDS * 1000;
    while (Date.now() < end && failures.length === 0) {
      const reader = new DatabaseSync(join(database.dataDir, 'signpost.db'), { readOnly: true, timeout: 5000 });
      try {
        reader.prepare('SELECT COUNT(*) AS n FROM error_reports').get();
      } finally {
        reader.close();
      }
      opens++;
      await sleep(5);
    }
    stop = true;
    await Promise.all(writers);
    const exit = running.child.signalCode ?? running.child.exitCode ?? 'running';
    assert.deepEqual(failures, [], `server ${exit}: ${running.output().slice(-2000)}`);
    assert.equal(exit, 'running');
    assert.ok(acknowledged > 0 && opens > 0, `${acknowledged} writes, ${opens} opens`);
  });
});
