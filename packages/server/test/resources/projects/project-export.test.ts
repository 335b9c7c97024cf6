/**
 * A project's export (issue 36) through the management API: a streamed zip of the project's rows
 * only (another project's ideas are not in it), without secrets or its team; admins only. The
 * archive restores into a new database (`npm run restore`), where the project's public API
 * answers as before with its re-issued key.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { unzipSync } from 'fflate';
import { Api } from '../../support/api.ts';
import { createTestDatabase, type TestDatabase } from '../../support/database.ts';
import { managedProject, managementBaseUrl, type ManagedProject } from '../../support/manage-fixtures.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';

const PACKAGE_DIR = fileURLToPath(new URL('../../../', import.meta.url));

describe("a project's export", () => {
  let server: TestServer;
  let restored: TestServer | undefined;
  let target: TestDatabase;
  let p: ManagedProject;
  let other: ManagedProject;
  let home: string;

  before(async () => {
    home = mkdtempSync(join(tmpdir(), 'signpost-project-export-'));
    server = await startTestServer({ env: { WEBHOOKS_POLL_MS: '0' } });
    target = await createTestDatabase();
    p = await managedProject(server);
    other = await managedProject(server);
  });
  after(async () => {
    await server?.close();
    await restored?.close();
    await target?.drop();
    rmSync(home, { recursive: true, force: true });
  });

  it('streams the project as a zip to admins, and it restores into a new database', async () => {
    const mine = (await p.live.post('/features', { title: 'Dark mode', description: 'For the night owls.' })).body;
    await p.live.put(`/features/${mine.id}/votes/v1`);
    await p.live.post(`/features/${mine.id}/comments`, { body: 'Yes please' });
    const theirs = (await other.live.post('/features', { title: 'Not mine', description: 'Another project.' })).body;

    const url = `${managementBaseUrl(server)}/projects/${p.projectId}/export`;
    assert.equal((await p.member.post(`/projects/${p.projectId}/export`, {})).status, 403);
    assert.equal((await p.outsider.post(`/projects/${p.projectId}/export`, {})).status, 404);
    const res = await fetch(url, {
      method: 'POST',
      headers: { ...p.admin.headers, 'content-type': 'application/json' },
      body: '{}',
    });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/zip');
    assert.match(res.headers.get('content-disposition') ?? '', /attachment; filename=".+\.zip"/);
    const bytes = new Uint8Array(await res.arrayBuffer());
    const entries = unzipSync(bytes);
    const manifest = JSON.parse(new TextDecoder().decode(entries['manifest.json']));
    assert.equal(manifest.projectId, p.projectId);
    const text = (name: string) => new TextDecoder().decode(entries[`tables/${name}.jsonl`] ?? new Uint8Array());
    assert.ok(text('features').includes(mine.id));
    assert.equal(text('features').includes(theirs.id), false, "another project's idea");
    assert.ok(text('votes').includes('v1'));
    assert.equal(text('projects').includes(other.projectId), false);
    assert.equal(entries['tables/accounts.jsonl'], undefined, 'no accounts in a project archive');
    assert.equal(entries['tables/sessions.jsonl'], undefined);

    const file = join(home, 'project.zip');
    writeFileSync(file, bytes);
    const run = spawnSync(process.execPath, ['src/cli/restore.ts', file], {
      cwd: PACKAGE_DIR,
      env: { ...process.env, DATABASE_URL: target.url, DATA_DIR: target.dataDir, LOG_LEVEL: 'silent' },
      encoding: 'utf8',
    });
    assert.equal(run.status, 0, run.stderr);
    const line = run.stdout.split('\n').find((l) => l.includes(p.projectId) && l.includes(' live '));
    assert.ok(line, run.stdout);
    restored = await startTestServer({ database: target });
    const live = new Api(restored.baseUrl, line.trim().split(/\s+/).at(-1)!);
    for (const path of ['/features', `/features/${mine.id}`, `/features/${mine.id}/comments`]) {
      assert.deepEqual((await live.get(path)).body, (await p.live.get(path)).body, path);
    }
  });
});
