/**
 * Full export and restore (issue 36) as operators run them: `npm run export` of an instance with
 * ideas, votes, comments, changelog, tags, flags, messages, translations, releases, bugs, errors,
 * logs and people, then `npm run restore` into a new database of the OTHER kind (SQLite to
 * PostgreSQL and back), then a server on it answers every list of the management API and the
 * public API as the first did (with the re-issued key). Secrets are not in the archive; the old
 * key no longer works; a restore into a database in use is refused and changes nothing.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { unzipSync } from 'fflate';
import { createToken } from '../../src/resources/tokens/index.ts';
import { Api } from '../support/api.ts';
import { createTestDatabase, testDbKind, type TestDatabase } from '../support/database.ts';
import { managedProject, managementClient, type ManagedProject } from '../support/manage-fixtures.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const PACKAGE_DIR = fileURLToPath(new URL('../../', import.meta.url));

function run(script: string, database: TestDatabase, file: string) {
  const result = spawnSync(process.execPath, [`src/cli/${script}.ts`, file], {
    cwd: PACKAGE_DIR,
    env: { ...process.env, DATABASE_URL: database.url, DATA_DIR: database.dataDir, LOG_LEVEL: 'silent' },
    encoding: 'utf8',
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Lists that depend on the clock or on the key itself, compared apart or not at all. */
const SKIPPED = new Set(['/logs/tail', '/keys', '/site-config/preview']);
/** Lists that need a query. */
const QUERIES: Record<string, string> = { '/translations/export': '?locale=de' };

describe('export and restore, across databases', () => {
  const from = testDbKind();
  const to = from === 'sqlite' ? 'postgres' : 'sqlite';
  let home: string;
  let source: TestDatabase;
  let target: TestDatabase;
  let server: TestServer;
  let restored: TestServer | undefined;
  let p: ManagedProject;
  let ownerId: string;
  const answers = new Map<string, unknown>();
  let sourceClosed = false;
  let listPaths: string[];
  let featureIds: string[];

  before(async () => {
    home = mkdtempSync(join(tmpdir(), 'signpost-export-'));
    source = await createTestDatabase(from);
    target = await createTestDatabase(to);
    server = await startTestServer({ database: source, env: { WEBHOOKS_POLL_MS: '0', ERROR_ALERT_POLL_MS: '0' } });
    p = await managedProject(server);
    ownerId = (await server.db.get<{ owner_account_id: string }>('SELECT owner_account_id FROM teams WHERE id = ?', [
      p.teamId,
    ]))!.owner_account_id;
  });
  after(async () => {
    if (!sourceClosed) await server?.close();
    await restored?.close();
    await source?.drop();
    await target?.drop();
    rmSync(home, { recursive: true, force: true });
  });

  async function seed() {
    const base = `/projects/${p.projectId}`;
    const ideas = [];
    for (const [title, email] of [
      ['Dark mode', 'ann@example.test'],
      ['Calendar sync', null],
      ['Export to CSV, with “quotes” and ünïcode', 'bob@example.test'],
    ] as const) {
      const res = await p.live.post('/features', {
        title,
        description: `${title}: a longer description of it.`,
        ...(email ? { contactEmail: email } : {}),
      });
      assert.equal(res.status, 201, res.text);
      ideas.push(res.body.id as string);
    }
    for (const [idea, voter] of [
      [0, 'v1'],
      [0, 'v2'],
      [1, 'v1'],
    ] as const) {
      await p.live.put(`/features/${ideas[idea]}/votes/${voter}`);
    }
    await p.live.post(`/features/${ideas[0]}/comments`, { body: 'Yes, please!' });
    await p.admin.patch(`${base}/features/${ideas[1]}`, { status: 'planned' });
    await p.admin.post(`${base}/changelog`, { summary: 'Dark mode shipped', published: true });
    const tag = (await p.admin.post(`${base}/tags`, { name: 'Mobile' })).body.id;
    await p.admin.put(`${base}/features/${ideas[0]}/tags`, { tagIds: [tag] });
    await p.admin.put(`${base}/site-config/flags/new-checkout`, { enabled: true });
    await p.admin.post(`${base}/site-config/messages`, { type: 'info', text: 'Hello' });
    await p.admin.post(`${base}/translations/keys`, { key: 'a.b', defaultText: 'A', translations: { de: 'Ä' } });
    await p.admin.post(`${base}/releases`, { version: '1.0.0' });
    await p.live.post('/bugs', { title: 'Broken button', message: 'The button does nothing.' });
    await p.live.post('/errors', { title: 'TypeError', message: 'x is undefined in checkout' });
    await p.live.post('/logs', { logs: [{ level: 'error', message: 'Timeout talking to the bank' }] });
    return ideas;
  }

  async function answersOf(owner: Api, live: Api) {
    const result = new Map<string, unknown>();
    for (const path of listPaths) {
      const res = await owner.get(`/projects/${p.projectId}${path}${QUERIES[path] ?? ''}`);
      assert.equal(res.status, 200, `${path}: ${res.text}`);
      result.set(`management ${path}`, res.body);
    }
    for (const path of [
      '/features',
      '/roadmap',
      '/changelog',
      '/translations?locale=de',
      ...featureIds.flatMap((id) => [`/features/${id}`, `/features/${id}/comments`]),
    ]) {
      const res = await live.get(path);
      assert.equal(res.status, 200, `${path}: ${res.text}`);
      result.set(`public ${path}`, res.body);
    }
    const keys = await owner.get(`/projects/${p.projectId}/keys`);
    result.set(
      'key ids',
      keys.body.keys.map((k: { id: string; name: string; environment: string }) => [k.id, k.name, k.environment]),
    );
    return result;
  }

  it(`exports an instance on ${from} and restores it on ${to} with the same answers`, async () => {
    featureIds = await seed();
    const doc = (await p.owner.get('/openapi.json', { unchecked: true })).body;
    listPaths = Object.entries<Record<string, unknown>>(doc.paths)
      .filter(([path, item]) => item['get'] && /^\/projects\/\{projectId\}(\/[a-z-/]+)?$/.test(path))
      .map(([path]) => path.slice('/projects/{projectId}'.length))
      .filter((path) => !SKIPPED.has(path));
    for (const [key, value] of await answersOf(p.owner, p.live)) answers.set(key, value);
    await server.close();
    sourceClosed = true;

    const file = join(home, 'instance.zip');
    const exported = run('export', source, file);
    assert.equal(exported.code, 0, exported.stderr);
    const entries = unzipSync(readFileSync(file));
    const manifest = JSON.parse(new TextDecoder().decode(entries['manifest.json']));
    assert.equal(manifest.format, 'signpost-export/1');
    assert.match(manifest.schemaVersion, /^\d{12}_/);
    const text = Object.values(entries)
      .map((bytes) => new TextDecoder().decode(bytes))
      .join('\n');
    for (const secretTable of ['sessions', 'personal_access_tokens', 'board_sessions', 'instance_keys']) {
      assert.equal(entries[`tables/${secretTable}.jsonl`], undefined, secretTable);
    }
    assert.equal(text.includes(p.liveKey), false);
    assert.equal(
      manifest.tables.find((t: { name: string }) => t.name === 'api_keys').columns.includes('secret_hash'),
      false,
    );

    const restoredRun = run('restore', target, file);
    assert.equal(restoredRun.code, 0, restoredRun.stderr);
    const liveLine = restoredRun.stdout
      .split('\n')
      .find((line) => line.includes(p.projectId) && line.includes(' live '));
    assert.ok(liveLine, restoredRun.stdout);
    const newLiveKey = liveLine.trim().split(/\s+/).at(-1)!;
    assert.notEqual(newLiveKey, p.liveKey);

    restored = await startTestServer({ database: target, env: { WEBHOOKS_POLL_MS: '0', ERROR_ALERT_POLL_MS: '0' } });
    const { token } = await createToken(restored.db, ownerId, 'after restore', undefined);
    const owner = managementClient(restored, token);
    const live = new Api(restored.baseUrl, newLiveKey);
    const after = await answersOf(owner, live);
    for (const [key, value] of answers) assert.deepEqual(after.get(key), value, key);
    assert.equal((await new Api(restored.baseUrl, p.liveKey).get('/features')).status, 401, 'the old key is gone');

    // New writes go on where the old instance stopped.
    const idea = await live.post('/features', { title: 'After the move', description: 'Written on the new server.' });
    assert.equal(idea.status, 201, idea.text);
    assert.equal(
      (await live.post('/logs', { logs: [{ level: 'error', message: 'Timeout talking to the bank' }] })).status,
      200,
    );
    // …into the same log group (on SQLite, the key index is rebuilt from the restored groups).
    const logs = (await owner.get(`/projects/${p.projectId}/logs`)).body.logs;
    assert.deepEqual(
      logs.map((g: { message: string; occurrences: number }) => [g.message, g.occurrences]),
      [['Timeout talking to the bank', 2]],
    );
  });

  it('refuses to restore into a database in use, changing nothing', async () => {
    const again = run('restore', target, join(home, 'instance.zip'));
    assert.equal(again.code, 65, again.stdout);
    assert.match(again.stderr, /not empty/);
  });
});
