/**
 * SQLite's disk full under a write load (issue 37): writes answer 503 with Retry-After (never a
 * 500), reads keep working, nothing is corrupt (`PRAGMA integrity_check`), no acknowledged write
 * is lost, and writes resume by themselves when space returns. The data directory is a small
 * tmpfs mounted for the test (root only; skipped elsewhere), filled up with a file of zeros; the
 * server runs as its own process, so a crash shows as an exit.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { Database } from '../../src/db/database.ts';
import { openDatabase } from '../../src/db/open.ts';
import { ALL_PUBLIC_SCOPES, createApiKey, createProject } from '../../src/resources/projects/index.ts';
import { newId } from '../../src/kernel/ids.ts';
import { testDbKind, type TestDatabase } from '../support/database.ts';
import { startServerProcess, type ServerProcess } from '../support/server.ts';
import { acknowledged, assertNoServerFault, type Outcome, postBug } from '../support/write-outcomes.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A 48 MB tmpfs of our own, or the reason there cannot be one here. */
function mountSmallDisk(): { dir: string } | { skip: string } {
  if (testDbKind() !== 'sqlite') return { skip: 'a SQLite fault (SIGNPOST_TEST_DB=sqlite)' };
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return { skip: 'mounting a tmpfs needs root on Linux' };
  const dir = mkdtempSync(join(tmpdir(), 'signpost-full-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=48m', 'tmpfs', dir], { stdio: 'ignore' });
    return { dir };
  } catch {
    rmSync(dir, { recursive: true, force: true });
    return { skip: 'this machine does not allow mounting a tmpfs' };
  }
}

/** Writes zeros until the disk refuses: ENOSPC is the point. */
function fillDisk(path: string): void {
  const chunk = Buffer.alloc(1024 * 1024);
  const fd = openSync(path, 'w');
  try {
    for (;;) writeSync(fd, chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
    // The last partial megabyte: down to the byte.
    try {
      for (;;) writeSync(fd, chunk, 0, 512);
    } catch {}
  } finally {
    closeSync(fd);
  }
}

const disk = mountSmallDisk();

describe('SQLite with its disk full', { skip: 'skip' in disk ? disk.skip : false }, () => {
  const dir = 'dir' in disk ? disk.dir : '';
  const filler = join(dir, 'filler');
  let server: ServerProcess;
  let admin: Database;
  let key: string;
  const database: TestDatabase = {
    kind: 'sqlite',
    url: `sqlite:${join(dir, 'signpost.db')}`,
    dataDir: dir,
    drop: async () => {},
  };

  before(async () => {
    server = await startServerProcess(database);
    admin = openDatabase({ databaseUrl: database.url, dataDir: dir });
    const projectId = newId('proj');
    await createProject(admin, { id: projectId, name: 'Disk full', slug: projectId, monthlyQuota: null });
    key = (await createApiKey(admin, projectId, 'live', ALL_PUBLIC_SCOPES)).key;
    await admin.close();
  });

  after(async () => {
    const code = await server?.stop('SIGTERM');
    try {
      execFileSync('umount', ['-l', dir], { stdio: 'ignore' });
    } catch {}
    rmSync(dir, { recursive: true, force: true });
    assert.equal(code, 0, `the server shuts down cleanly:\n${server?.output().slice(-2000)}`);
  });

  // Long enough that a few hundred of them outgrow what the WAL can reuse.
  const post = (title: string) =>
    postBug(server.baseUrl, key, title, `Written while the disk is full. ${'x'.repeat(4000)}`);

  it('writes answer 503 while the disk is full, reads keep working, writes resume when space returns', async () => {
    const outcomes: Outcome[] = [];
    for (let i = 0; i < 20; i++) outcomes.push(await post(`Before the disk fills ${i}`));
    fillDisk(filler);
    const whileFull: Outcome[] = [];
    for (let i = 0; i < 400; i++) {
      const outcome = await post(`While the disk is full ${i}`);
      whileFull.push(outcome);
      if (whileFull.filter((o) => o.status === 503).length >= 20) break;
    }
    const reads = await Promise.all([
      fetch(`${server.baseUrl}/features`, { headers: { 'x-api-key': key } }),
      fetch(`${server.origin}/readyz`),
    ]);
    unlinkSync(filler);
    await sleep(200);
    const afterwards: Outcome[] = [];
    for (let i = 0; i < 20; i++) afterwards.push(await post(`After space returned ${i}`));

    assert.equal(server.child.exitCode, null, 'the process is still up');
    assertNoServerFault([...outcomes, ...whileFull, ...afterwards]);
    assert.ok(
      whileFull.some((o) => o.status === 503),
      'writes were refused while the disk was full',
    );
    assert.deepEqual(
      reads.map((response) => response.status),
      [200, 200],
      'reads keep working',
    );
    assert.ok(
      afterwards.every((o) => o.status === 201),
      `writes resume: ${afterwards.map((o) => o.status)}`,
    );

    const ids = acknowledged([...outcomes, ...whileFull, ...afterwards]);
    const file = new DatabaseSync(join(dir, 'signpost.db'), { readOnly: true });
    try {
      assert.equal(file.prepare('PRAGMA integrity_check').get()?.['integrity_check'], 'ok', 'nothing is corrupt');
      const placeholders = ids.map(() => '?').join(',');
      const found = file.prepare(`SELECT count(*) AS n FROM bug_reports WHERE id IN (${placeholders})`).get(...ids);
      assert.equal(found?.['n'], ids.length, 'no acknowledged write is lost');
    } finally {
      file.close();
    }
  });
});
