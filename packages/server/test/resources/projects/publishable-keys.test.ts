/**
 * Publishable keys (decisions.md, "Keys a browser may hold"): a key embedded in a web page may
 * submit, vote and comment, but never change existing items. Created and listed through the
 * management API, used over the public API; the demo key is one, also after an upgrade.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadMigrations, migrate } from '../../../src/db/migrate.ts';
import { openDatabase } from '../../../src/db/open.ts';
import { hashApiKey, lookupOf } from '../../../src/kernel/api-keys.ts';
import { Api } from '../../support/api.ts';
import { callTool, connectMcp, textOf } from '../../support/mcp.ts';
import { managedProject, type ManagedProject } from '../../support/manage-fixtures.ts';
import { createTestDatabase, startTestServer, type TestDatabase, type TestServer } from '../../support/server.ts';

const REFUSAL = { error: 'Publishable keys cannot modify features', code: 'Forbidden' };
const idea = { title: 'Calendar sync', description: 'Sync events with my calendar.', type: 'feature' };

describe('publishable keys', () => {
  let server: TestServer;
  let p: ManagedProject;
  let keysPath: string;

  before(async () => {
    server = await startTestServer();
    p = await managedProject(server);
    keysPath = `/projects/${p.projectId}/keys`;
  });
  after(() => server.close());

  async function newKey(body: Record<string, unknown>) {
    const created = await p.admin.post(keysPath, {
      environment: 'live',
      scopes: ['features:read', 'features:write'],
      ...body,
    });
    assert.equal(created.status, 201, created.text);
    return created.body as { key: string; apiKey: { id: string; publishable: boolean } };
  }

  it('are created on request, secret by default, and lists say which is which', async () => {
    const publishable = await newKey({ publishable: true, name: 'widget' });
    const secret = await newKey({ name: 'server' });
    const explicit = await newKey({ publishable: false });
    assert.equal(publishable.apiKey.publishable, true);
    assert.equal(secret.apiKey.publishable, false);
    assert.equal(explicit.apiKey.publishable, false);
    const listed = (await p.member.get(keysPath)).body.keys as Array<{ id: string; publishable: boolean }>;
    const byId = new Map(listed.map((k) => [k.id, k.publishable]));
    assert.equal(byId.get(publishable.apiKey.id), true);
    assert.equal(byId.get(secret.apiKey.id), false);
    assert.equal(byId.get(explicit.apiKey.id), false);
    assert.equal(
      (await p.admin.post(keysPath, { environment: 'live', scopes: ['features:read'], publishable: 'yes' })).status,
      400,
    );
  });

  it('submit, vote and comment; PATCH is 403 and changes nothing; a secret key still moderates', async () => {
    const widget = new Api(server.baseUrl, (await newKey({ publishable: true })).key);
    const created = await widget.post('/features', idea);
    assert.equal(created.status, 201);
    const id = created.body.id as string;
    assert.equal((await widget.put(`/features/${id}/votes/visitor-1`)).body.voteCount, 1);
    assert.equal((await widget.post(`/features/${id}/comments`, { body: 'Yes please' })).status, 201);
    assert.equal((await widget.get(`/features/${id}`)).status, 200);

    for (const change of [
      { status: 'declined' },
      { internal: true },
      { developerNotes: 'spam' },
      { status: 'bogus' },
    ]) {
      const refused = await widget.patch(`/features/${id}`, change);
      assert.equal(refused.status, 403);
      assert.deepEqual(refused.body, REFUSAL);
    }
    // Also on an item the key cannot see: the same refusal, revealing nothing.
    assert.deepEqual((await widget.patch('/features/feat_missing', { status: 'done' })).body, REFUSAL);
    const after = await p.live.get(`/features/${id}`);
    assert.equal(after.body.status, created.body.status);
    assert.equal(after.body.voteCount, 1);
    assert.equal(after.body.commentCount, 1);

    const moderated = await p.live.patch(`/features/${id}`, { status: 'planned', developerNotes: 'next sprint' });
    assert.equal(moderated.status, 200);
    assert.equal(moderated.body.status, 'planned');
    assert.equal(moderated.body.developerNotes, 'next sprint');
  });

  it('over MCP, a publishable key creates features but update_feature_status is refused', async () => {
    const key = (await newKey({ publishable: true })).key;
    const mcp = await connectMcp(server.origin, { key });
    try {
      const created = await callTool(mcp.client, 'create_feature', {
        projectId: p.projectId,
        title: 'From an agent',
        description: 'Made over MCP.',
      });
      assert.equal(created.isError, undefined, textOf(created));
      const id = (created.structuredContent as { id: string }).id;
      const refused = await callTool(mcp.client, 'update_feature_status', { featureId: id, status: 'declined' });
      assert.equal(refused.isError, true);
      assert.match(textOf(refused), /Publishable keys cannot modify features/);
      assert.notEqual((await p.live.get(`/features/${id}`)).body.status, 'declined');
    } finally {
      await mcp.close();
    }
  });

  it('the demo key is publishable', async () => {
    const demo = new Api(server.baseUrl, server.demoKey);
    const listed = await demo.get('/features');
    const id = listed.body.features[0].id as string;
    const refused = await demo.patch(`/features/${id}`, { status: 'declined' });
    assert.equal(refused.status, 403);
    assert.deepEqual(refused.body, REFUSAL);
    assert.equal((await demo.post('/features', idea)).status, 201);
  });
});

describe('upgrade: a demo key made before publishable keys existed (202611240100)', () => {
  let database: TestDatabase;
  let server: TestServer;
  // An older install's demo key; the server below is configured with another, so only the
  // migration can have marked this one.
  const oldDemoKey = 'svc_live_demo_olderinstalldemokey0001';
  let otherKey: string;

  before(async () => {
    database = await createTestDatabase();
    const db = openDatabase({ databaseUrl: database.url, dataDir: database.dataDir });
    const all = loadMigrations();
    await migrate(
      db,
      all.slice(
        0,
        all.findIndex((migration) => migration.id === '202611240100_publishable_keys'),
      ),
    );
    const now = new Date().toISOString();
    for (const id of ['demo', 'other']) {
      await db.run(
        `INSERT INTO projects (id, name, slug, default_locale, supported_locales, config_updated_at, created_at)
         VALUES (?, ?, ?, 'en', '["en"]', ?, ?)`,
        [id, id, id, now, now],
      );
      await db.run('INSERT INTO maintenance_settings (project_id) VALUES (?)', [id]);
    }
    otherKey = 'svc_live_otherprojectkey00000000001';
    const insertKey = `INSERT INTO api_keys (id, project_id, environment, lookup, secret_hash, scopes, name, created_at)
                       VALUES (?, ?, 'live', ?, ?, '["features:read","features:write"]', ?, ?)`;
    await db.run(insertKey, ['key_demo', 'demo', lookupOf(oldDemoKey), hashApiKey(oldDemoKey), 'Public demo key', now]);
    await db.run(insertKey, ['key_other', 'other', lookupOf(otherKey), hashApiKey(otherKey), 'server', now]);
    await db.close();
    server = await startTestServer({ database, env: { DEMO_API_KEY: 'svc_live_demo_anothernewerdemokey0001' } });
  });
  after(async () => {
    await server?.close();
    await database?.drop();
  });

  it('marks the demo key publishable and leaves other keys secret', async () => {
    const demo = new Api(server.baseUrl, oldDemoKey);
    const id = (await demo.post('/features', idea)).body.id as string;
    assert.deepEqual((await demo.patch(`/features/${id}`, { status: 'declined' })).body, REFUSAL);
    const other = new Api(server.baseUrl, otherKey);
    const mine = (await other.post('/features', idea)).body.id as string;
    assert.equal((await other.patch(`/features/${mine}`, { status: 'planned' })).status, 200);
  });
});
