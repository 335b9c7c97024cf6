/**
 * `WORKERS=2`: two server processes behind one port on the suite's database (issue 37). Both
 * serve; a per-key limit stays exact across them (it lives in the database, not in a process);
 * a worker that dies is replaced without the port going away; SIGTERM stops them all cleanly.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import type { Database } from '../../src/db/database.ts';
import { openDatabase } from '../../src/db/open.ts';
import { ALL_PUBLIC_SCOPES, createApiKey, createProject } from '../../src/resources/projects/index.ts';
import { newId } from '../../src/kernel/ids.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { startServerProcess, type ServerProcess } from '../support/server.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The ids of a process's children, from /proc (Linux; the suite runs there). */
function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // Fields after the command name, which is in parentheses and may hold spaces.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const [state, parent] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // A worker killed but not yet reaped (state Z) is gone already.
      if (Number(parent) === pid && state !== 'Z') children.push(Number(entry));
    } catch {}
  }
  return children;
}

async function untilWorkers(pid: number, count: number, boundMs = 60_000): Promise<number[]> {
  const deadline = Date.now() + boundMs;
  for (;;) {
    const children = childrenOf(pid);
    if (children.length === count) return children;
    if (Date.now() > deadline) throw new Error(`expected ${count} workers, found ${children.length}`);
    await sleep(100);
  }
}

describe('WORKERS=2: two processes behind one port', { skip: process.platform !== 'linux' && 'reads /proc' }, () => {
  let database: TestDatabase;
  let server: ServerProcess;
  let admin: Database;
  let projectId: string;

  before(async () => {
    database = await createTestDatabase();
    server = await startServerProcess(database, { WORKERS: '2' });
    admin = openDatabase({ databaseUrl: database.url, dataDir: database.dataDir });
    projectId = newId('proj');
    await createProject(admin, { id: projectId, name: 'Workers', slug: projectId, monthlyQuota: null });
  });

  after(async () => {
    const code = await server?.stop('SIGTERM');
    await admin?.close();
    await database?.drop();
    assert.equal(code, 0, `the primary and its workers stop cleanly:\n${server?.output().slice(-2000)}`);
  });

  /** Until `count` workers have logged that they listen (the first one's line started the test). */
  async function untilListening(count: number, boundMs = 60_000): Promise<void> {
    const deadline = Date.now() + boundMs;
    while (server.output().split('Signpost is listening').length - 1 < count) {
      if (Date.now() > deadline) throw new Error(`fewer than ${count} workers listen`);
      await sleep(100);
    }
  }

  it('runs two workers that both answer on the one port', async () => {
    await untilWorkers(server.child.pid!, 2);
    await untilListening(2);
    // Round robin over fresh connections: both workers' request ids show in the log.
    const key = (await createApiKey(admin, projectId, 'live', ALL_PUBLIC_SCOPES)).key;
    for (let i = 0; i < 20; i++) {
      const response = await fetch(`${server.baseUrl}/features`, {
        headers: { 'x-api-key': key, connection: 'close' },
      });
      assert.equal(response.status, 200);
    }
    const pids = new Set(
      server
        .output()
        .split('\n')
        .filter((line) => line.includes('"url":"/api/public/v1/features"'))
        .map((line) => JSON.parse(line).pid as number),
    );
    assert.equal(pids.size, 2, 'requests reached both workers');
  });

  it("keeps POST /features's limit of 50 per key exact across the workers", async () => {
    const key = (await createApiKey(admin, projectId, 'live', ALL_PUBLIC_SCOPES)).key;
    const statuses = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        fetch(`${server.baseUrl}/features`, {
          method: 'POST',
          headers: { 'x-api-key': key, 'content-type': 'application/json', connection: 'close' },
          body: JSON.stringify({ title: `Across workers ${i}`, description: 'Counted once, wherever it lands.' }),
        }).then((response) => response.status),
      ),
    );
    assert.equal(statuses.filter((status) => status === 201).length, 50);
    assert.equal(statuses.filter((status) => status === 429).length, 10);
  });

  it('replaces a worker that dies, and the port keeps answering', async () => {
    const [first] = await untilWorkers(server.child.pid!, 2);
    process.kill(first!, 'SIGKILL');
    // A connection already queued on the dead worker's socket is reset by the kernel (an error
    // at once, which a client retries), never left hanging: every attempt ends within the bound.
    let answered = 0;
    for (let attempt = 0; attempt < 10 && answered < 5; attempt++) {
      try {
        const response = await fetch(`${server.origin}/readyz`, {
          headers: { connection: 'close' },
          signal: AbortSignal.timeout(10_000),
        });
        assert.equal(response.status, 200);
        answered++;
      } catch (error) {
        if ((error as Error).name === 'TimeoutError') throw new Error('a request hung on the dead worker');
      }
    }
    assert.equal(answered, 5, 'the port answers meanwhile');
    const replaced = await untilWorkers(server.child.pid!, 2);
    await untilListening(3);
    assert.ok(!replaced.includes(first!), 'a new worker took its place');
    assert.match(server.output(), /worker exited; starting another/);
  });
});
