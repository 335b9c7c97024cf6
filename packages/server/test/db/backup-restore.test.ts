/**
 * Backups as docs/self-hosting.md documents them, on the suite's database: `npm run backup --
 * <file>` (src/cli/backup.ts: SQLite's online backup API, or pg_dump) taken while a running server
 * process acknowledges a steady stream of writes over HTTP, then restored into a fresh database
 * the documented way (SQLite: the file as DATA_DIR/signpost.db, no -wal or -shm beside it;
 * PostgreSQL: pg_restore into a new database). Every write acknowledged before the backup began is
 * in the restored database, nothing there was never sent, and a server started on it serves.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { migratedProject, withDb } from '../support/database-project.ts';
import { startServerProcess, type ServerProcess } from '../support/server.ts';

const PACKAGE_DIR = fileURLToPath(new URL('../../', import.meta.url));
/** Concurrent writers: each sends its next write as soon as the last one is answered. */
const WRITERS = 4;

/** `npm run backup -- <file>` with the server's settings; resolves with its exit code and output. */
function runBackup(database: TestDatabase, file: string): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ['src/cli/backup.ts', file], {
    cwd: PACKAGE_DIR,
    env: { ...process.env, DATABASE_URL: database.url, DATA_DIR: database.dataDir, INIT_CWD: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, output })));
}

describe('backup under write load, and restore', () => {
  let source: TestDatabase;
  let restored: TestDatabase;
  let server: ServerProcess | undefined;
  let restoredServer: ServerProcess | undefined;
  const scratch = mkdtempSync(join(tmpdir(), 'signpost-backup-'));
  let projectId: string;
  let key: string;

  before(async () => {
    source = await createTestDatabase();
    restored = await createTestDatabase();
    ({ projectId, key } = await migratedProject(source, 'Backups'));
  });
  after(async () => {
    await server?.stop('SIGKILL');
    await restoredServer?.stop('SIGKILL');
    await source?.drop();
    await restored?.drop();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('keeps every write acknowledged before the backup began, and the restore serves', async (t) => {
    server = await startServerProcess(source);
    const running = server;
    /** Error ids in the order their 201 arrived, with the time it arrived. */
    const acknowledged: { id: string; title: string; at: number }[] = [];
    const failures: string[] = [];
    let sent = 0;
    let stop = false;
    const writer = async () => {
      while (!stop) {
        const title = `Backup load error ${sent++}`;
        try {
          const res = await fetch(`${running.baseUrl}/errors`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-api-key': key },
            body: JSON.stringify({ title, message: `${title}, distinct`, errorType: 'BackupLoad' }),
          });
          const body = (await res.json()) as { id: string };
          if (res.status === 201) acknowledged.push({ id: body.id, title, at: performance.now() });
          else failures.push(`${res.status} ${JSON.stringify(body)}`);
        } catch (error) {
          failures.push(String(error));
        }
      }
    };
    const writers = Array.from({ length: WRITERS }, writer);
    while (acknowledged.length < 200) await new Promise((resolve) => setTimeout(resolve, 20));

    const file = join(scratch, source.kind === 'sqlite' ? 'signpost-backup.db' : 'signpost-backup.dump');
    const began = performance.now();
    const ackedBefore = acknowledged.length;
    const backup = await runBackup(source, file);
    const ended = performance.now();
    const ackedDuring = acknowledged.filter((write) => write.at > began && write.at < ended).length;
    stop = true;
    await Promise.all(writers);
    assert.equal(backup.code, 0, backup.output);
    assert.deepEqual(
      failures,
      [],
      `server ${running.child.signalCode ?? running.child.exitCode ?? 'running'}: ${running.output().slice(-4000)}`,
    );
    assert.ok(ackedDuring > 0, 'writes went on being acknowledged while the backup ran');
    assert.equal(await server.stop('SIGTERM'), 0);
    server = undefined;

    // Restore, as docs/self-hosting.md says.
    if (restored.kind === 'sqlite') {
      const target = join(restored.dataDir, 'signpost.db');
      assert.ok(!existsSync(`${target}-wal`) && !existsSync(`${target}-shm`));
      // The backup is one file: nothing of it is in a log beside it.
      assert.ok(!existsSync(`${file}-wal`) && !existsSync(`${file}.partial`));
      copyFileSync(file, target);
    } else {
      const restore = spawnSync('pg_restore', ['--no-owner', `--dbname=${restored.url}`, file], { encoding: 'utf8' });
      assert.equal(restore.status, 0, restore.stderr);
    }

    const ids = await withDb(restored, async (db) => {
      const rows = await db.all<{ id: string; title: string }>(
        'SELECT id, title FROM error_reports WHERE project_id = ?',
        [projectId],
      );
      return new Map(rows.map((row) => [row.id, row.title]));
    });
    const before = acknowledged.slice(0, ackedBefore);
    const missing = before.filter((write) => ids.get(write.id) !== write.title);
    assert.deepEqual(missing, [], `${missing.length} of ${before.length} acknowledged writes missing`);
    // Nothing that was never sent, and no more than was sent when the backup ended.
    const everyTitle = new Set(acknowledged.map((write) => write.title));
    for (const title of ids.values()) assert.match(title, /^Backup load error \d+$/);
    assert.ok(ids.size <= sent);
    assert.ok(
      ids.size >= ackedBefore,
      `${ids.size} restored, ${ackedBefore} acknowledged before, ${ackedDuring} during, ${acknowledged.length} in all`,
    );
    assert.ok([...ids.values()].filter((title) => everyTitle.has(title)).length >= ackedBefore);

    t.diagnostic(
      `${source.kind}: backup took ${Math.round(ended - began)} ms; acknowledged ${ackedBefore} before it, ` +
        `${ackedDuring} while it ran, ${acknowledged.length} in all; ${ids.size} restored`,
    );

    // The restored database opens and serves: migrations find nothing to do, the key works.
    restoredServer = await startServerProcess(restored);
    assert.equal((await fetch(`${restoredServer.origin}/readyz`)).status, 200);
    const first = before[0]!;
    const again = await fetch(`${restoredServer.baseUrl}/errors`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key },
      body: JSON.stringify({ title: first.title, message: `${first.title}, distinct`, errorType: 'BackupLoad' }),
    });
    const body = (await again.json()) as { id: string; duplicate?: boolean };
    assert.equal(again.status, 200, JSON.stringify(body));
    assert.equal(body.id, first.id, 'the same error again is a duplicate of the restored record');
    const features = await fetch(`${restoredServer.baseUrl}/features`, { headers: { 'x-api-key': key } });
    assert.equal(features.status, 200);
  });
});
