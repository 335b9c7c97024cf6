import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { createApiKey } from '../../src/resources/projects/index.ts';
import { upsertKeys } from '../../src/resources/translations/index.ts';
import type { Database, Queryable } from '../../src/db/database.ts';
import { Api } from '../support/api.ts';
import { callTool, connectMcp, startMcpTestServer, textOf, type Connected } from '../support/mcp.ts';
import type { TestProject, TestServer } from '../support/server.ts';

const MCP_SCOPES = ['features:read', 'features:write', 'public:read', 'translations:read', 'translations:write'];
const feature = (projectId: string, extra: Record<string, unknown> = {}) => ({
  projectId,
  title: 'Dark mode',
  description: 'Please add a dark theme to the dashboard.',
  ...extra,
});

describe('hosted MCP tools (API key)', () => {
  let server: TestServer;
  let project: TestProject;
  let other: TestProject;
  let live: Connected;
  let client: Client;
  let api: Api;

  before(async () => {
    server = await startMcpTestServer();
    project = await server.createProject({ scopes: MCP_SCOPES });
    other = await server.createProject({ scopes: MCP_SCOPES });
    live = await connectMcp(server.origin, { key: project.liveKey });
    client = live.client;
    api = new Api(server.baseUrl, project.liveKey);
  });
  after(async () => {
    await live.close();
    await server.close();
  });

  it("lists the spec's four tools and the area tools, each with an input and an output schema", async () => {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((tool) => tool.name).sort(), [
      'audit',
      'changelog',
      'create_feature',
      'errors',
      'feedback',
      'list_translation_keys',
      'logs',
      'releases',
      'send_feedback',
      'site_config',
      'translations_status',
      'update_feature_status',
      'upsert_translation_keys',
    ]);
    for (const tool of tools) {
      assert.equal(tool.inputSchema.type, 'object');
      assert.equal(tool.outputSchema?.type, 'object', `${tool.name} has an output schema`);
    }
    const create = tools.find((tool) => tool.name === 'create_feature')!;
    assert.deepEqual(create.inputSchema.required?.sort(), ['description', 'projectId', 'title']);
    const title = (create.inputSchema.properties as any).title;
    assert.equal(title.minLength, 4);
    assert.equal(title.maxLength, 120);
  });

  describe('create_feature', () => {
    it('creates a public feature on a customer project, with structured content', async () => {
      const result = await callTool(client, 'create_feature', feature(project.projectId));
      assert.equal(result.isError, undefined);
      const created = result.structuredContent as any;
      assert.equal(created.projectId, project.projectId);
      assert.equal(created.type, 'feature');
      assert.equal(created.status, 'open');
      assert.equal(created.internal, false);
      assert.match(textOf(result), new RegExp(created.id));
      const read = await api.get(`/features/${created.id}`);
      assert.equal(read.status, 200);
    });

    it('stores bug and error as bug/new', async () => {
      for (const type of ['bug', 'error']) {
        const created = (await callTool(client, 'create_feature', feature(project.projectId, { type })))
          .structuredContent as any;
        assert.equal(created.type, 'bug');
        assert.equal(created.status, 'new');
      }
    });

    it('lets an explicit internal win on a customer project', async () => {
      const created = (await callTool(client, 'create_feature', feature(project.projectId, { internal: true })))
        .structuredContent as any;
      assert.equal(created.internal, true);
      assert.equal((await api.get(`/features/${created.id}`)).status, 404);
    });

    it('defaults to internal on the platform project, and an explicit false wins', async () => {
      const key = await createApiKey(server.db, server.platformProjectId, 'live', MCP_SCOPES);
      const platform = await connectMcp(server.origin, { key: key.key });
      try {
        for (const type of ['feature', 'bug']) {
          const created = (
            await callTool(platform.client, 'create_feature', feature(server.platformProjectId, { type }))
          ).structuredContent as any;
          assert.equal(created.internal, true, type);
        }
        const shown = (
          await callTool(platform.client, 'create_feature', feature(server.platformProjectId, { internal: false }))
        ).structuredContent as any;
        assert.equal(shown.internal, false);
      } finally {
        await platform.close();
      }
    });

    it('rejects invalid input with a tool error that says what to fix', async () => {
      const cases: [Record<string, unknown>, RegExp][] = [
        [{ type: 'idea' }, /Invalid type\. Allowed values: bug, feature, error/],
        [{ title: 'abc' }, /title must be at least 4 characters/],
        [{ title: 'x'.repeat(121) }, /title must be at most 120 characters/],
        [{ description: 'too short' }, /description must be at least 12 characters/],
        [{ description: 'x'.repeat(1001) }, /description must be at most 1000 characters/],
        [{ internal: 'yes' }, /internal must be true or false/],
        [{ title: undefined }, /title is required/],
      ];
      for (const [change, message] of cases) {
        const result = await callTool(client, 'create_feature', feature(project.projectId, change));
        assert.equal(result.isError, true, JSON.stringify(change));
        assert.match(textOf(result), message);
      }
    });

    it('answers a project out of reach exactly like one that does not exist', async () => {
      const unreachable = await callTool(client, 'create_feature', feature(other.projectId));
      const missing = await callTool(client, 'create_feature', feature('proj_does_not_exist'));
      assert.equal(unreachable.isError, true);
      assert.equal(missing.isError, true);
      assert.equal(
        textOf(unreachable).replace(other.projectId, '<id>'),
        textOf(missing).replace('proj_does_not_exist', '<id>'),
      );
      assert.match(textOf(missing), /not found/);
      const rows = await server.db.all('SELECT id FROM features WHERE project_id = ?', [other.projectId]);
      assert.equal(rows.length, 0);
    });

    it('writes live features with a live key and test features with a test key', async () => {
      const testConn = await connectMcp(server.origin, { key: project.testKey });
      try {
        const viaTest = (await callTool(testConn.client, 'create_feature', feature(project.projectId)))
          .structuredContent as any;
        const viaLive = (await callTool(client, 'create_feature', feature(project.projectId))).structuredContent as any;
        const env = async (id: string) =>
          (await server.db.get<{ environment: string }>('SELECT environment FROM features WHERE id = ?', [id]))!
            .environment;
        assert.equal(await env(viaTest.id), 'test');
        assert.equal(await env(viaLive.id), 'live');
        assert.equal((await api.get(`/features/${viaTest.id}`)).status, 404);
      } finally {
        await testConn.close();
      }
    });
  });

  describe('update_feature_status', () => {
    it('changes the status and leaves visibility alone when internal is omitted', async () => {
      const created = (await callTool(client, 'create_feature', feature(project.projectId))).structuredContent as any;
      const result = await callTool(client, 'update_feature_status', { featureId: created.id, status: 'planned' });
      const updated = result.structuredContent as any;
      assert.equal(updated.status, 'planned');
      assert.equal(updated.internal, false);
      assert.equal((await api.get(`/features/${created.id}`)).body.status, 'planned');
    });

    it('hides with internal true and shows again with internal false, in any status', async () => {
      const created = (await callTool(client, 'create_feature', feature(project.projectId))).structuredContent as any;
      const hidden = (
        await callTool(client, 'update_feature_status', {
          featureId: created.id,
          status: 'in-progress',
          internal: true,
        })
      ).structuredContent as any;
      assert.equal(hidden.internal, true);
      assert.equal((await api.get(`/features/${created.id}`)).status, 404);
      const still = (await callTool(client, 'update_feature_status', { featureId: created.id, status: 'in-review' }))
        .structuredContent as any;
      assert.equal(still.internal, true);
      const shown = (
        await callTool(client, 'update_feature_status', { featureId: created.id, status: 'done', internal: false })
      ).structuredContent as any;
      assert.equal(shown.internal, false);
      assert.equal(shown.status, 'done');
      assert.equal((await api.get(`/features/${created.id}`)).status, 200);
    });

    it('accepts each of the eight statuses and stores developer notes', async () => {
      const created = (await callTool(client, 'create_feature', feature(project.projectId))).structuredContent as any;
      for (const status of ['new', 'open', 'planned', 'in-progress', 'in-review', 'accepted', 'done', 'declined']) {
        const result = await callTool(client, 'update_feature_status', { featureId: created.id, status });
        assert.equal((result.structuredContent as any).status, status);
      }
      const noted = (
        await callTool(client, 'update_feature_status', {
          featureId: created.id,
          status: 'done',
          developerNotes: 'Shipped in 2.1',
        })
      ).structuredContent as any;
      assert.equal(noted.developerNotes, 'Shipped in 2.1');
    });

    it('rejects an unknown status and an unknown or unreachable feature', async () => {
      const created = (await callTool(client, 'create_feature', feature(project.projectId))).structuredContent as any;
      const badStatus = await callTool(client, 'update_feature_status', { featureId: created.id, status: 'shipped' });
      assert.equal(badStatus.isError, true);
      assert.match(textOf(badStatus), /status must be one of: new, open, planned/);

      const otherConn = await connectMcp(server.origin, { key: other.liveKey });
      try {
        const foreign = (await callTool(otherConn.client, 'create_feature', feature(other.projectId)))
          .structuredContent as any;
        const unreachable = await callTool(client, 'update_feature_status', { featureId: foreign.id, status: 'done' });
        const missing = await callTool(client, 'update_feature_status', { featureId: 'feat_missing', status: 'done' });
        assert.equal(unreachable.isError, true);
        assert.equal(textOf(unreachable).replace(foreign.id, '<id>'), textOf(missing).replace('feat_missing', '<id>'));
        const row = await server.db.get<{ status: string }>('SELECT status FROM features WHERE id = ?', [foreign.id]);
        assert.equal(row!.status, 'open');
      } finally {
        await otherConn.close();
      }
    });

    it('does not reach a live feature with a test key', async () => {
      const created = (await callTool(client, 'create_feature', feature(project.projectId))).structuredContent as any;
      const testConn = await connectMcp(server.origin, { key: project.testKey });
      try {
        const result = await callTool(testConn.client, 'update_feature_status', {
          featureId: created.id,
          status: 'done',
        });
        assert.equal(result.isError, true);
        assert.match(textOf(result), /not found/);
      } finally {
        await testConn.close();
      }
    });
  });

  describe('upsert_translation_keys and list_translation_keys', () => {
    let translations: TestProject;
    let t: Connected;
    before(async () => {
      translations = await server.createProject({ scopes: MCP_SCOPES });
      t = await connectMcp(server.origin, { key: translations.liveKey });
    });
    after(() => t.close());
    const upsert = (args: Record<string, unknown>) =>
      callTool(t.client, 'upsert_translation_keys', { projectId: translations.projectId, ...args });
    const list = (args: Record<string, unknown> = {}) =>
      callTool(t.client, 'list_translation_keys', { projectId: translations.projectId, ...args });

    it('creates missing keys, fills in existing ones and merges locales', async () => {
      const first = (
        await upsert({
          keys: [
            {
              key: 'checkout.pay',
              defaultText: 'Pay now',
              namespace: 'checkout',
              translations: { de: 'Jetzt zahlen' },
            },
            { key: 'checkout.cancel', defaultText: 'Cancel', namespace: 'checkout' },
          ],
        })
      ).structuredContent as any;
      assert.deepEqual(first.created, ['checkout.pay', 'checkout.cancel']);
      assert.deepEqual(first.updated, []);
      assert.deepEqual(first.unchanged, []);
      assert.deepEqual(first.unsupportedLocales, []);

      const second = (
        await upsert({
          keys: [
            // Existing values are kept; only the missing category and the new locale fill in.
            {
              key: 'checkout.pay',
              defaultText: 'Pay!',
              namespace: 'other',
              category: 'buttons',
              translations: { de: 'Zahlen!', 'fr-fr': 'Payer' },
            },
            { key: 'checkout.cancel', defaultText: 'Cancel', namespace: 'checkout' },
            { key: 'home.title', defaultText: 'Welcome' },
          ],
        })
      ).structuredContent as any;
      assert.deepEqual(second.created, ['home.title']);
      assert.deepEqual(second.updated, ['checkout.pay']);
      assert.deepEqual(second.unchanged, ['checkout.cancel']);
      assert.deepEqual(second.unsupportedLocales, ['fr-FR']);

      const listed = (await list({ query: 'checkout.pay' })).structuredContent as any;
      assert.equal(listed.total, 1);
      assert.deepEqual(listed.keys[0], {
        key: 'checkout.pay',
        defaultText: 'Pay now',
        namespace: 'checkout',
        category: 'buttons',
        translations: { de: 'Jetzt zahlen', 'fr-FR': 'Payer' },
        updatedAt: listed.keys[0].updatedAt,
      });
      assert.equal(listed.defaultLocale, 'en');
      assert.deepEqual(listed.supportedLocales, ['en', 'de']);
    });

    it('replaces given values with overwrite and never drops other locales', async () => {
      await upsert({
        keys: [{ key: 'over.a', defaultText: 'One', category: 'c1', translations: { de: 'Eins', fr: 'Un' } }],
      });
      const result = (
        await upsert({
          overwrite: true,
          keys: [{ key: 'over.a', defaultText: 'One!', translations: { de: 'Eins!' } }],
        })
      ).structuredContent as any;
      assert.deepEqual(result.updated, ['over.a']);
      const key = ((await list({ query: 'over.a' })).structuredContent as any).keys[0];
      assert.equal(key.defaultText, 'One!');
      assert.equal(key.category, 'c1');
      assert.deepEqual(key.translations, { de: 'Eins!', fr: 'Un' });
      const same = (
        await upsert({ overwrite: true, keys: [{ key: 'over.a', defaultText: 'One!', translations: { de: 'Eins!' } }] })
      ).structuredContent as any;
      assert.deepEqual(same.unchanged, ['over.a']);
    });

    it('stores values of unsupported locales and reports them', async () => {
      const result = (
        await upsert({ keys: [{ key: 'locale.x', defaultText: 'X', translations: { ja: 'エックス', de: 'X' } }] })
      ).structuredContent as any;
      assert.deepEqual(result.unsupportedLocales, ['ja']);
      const key = ((await list({ query: 'locale.x' })).structuredContent as any).keys[0];
      assert.equal(key.translations.ja, 'エックス');
    });

    it('shows upserted text on GET /translations at once (the cache version is bumped)', async () => {
      const rest = new Api(server.baseUrl, translations.liveKey);
      await upsert({ keys: [{ key: 'cache.k', defaultText: 'Before', translations: { de: 'Vorher' } }] });
      const before = await rest.get('/translations', { query: { locale: 'de' } });
      assert.equal(before.body.translations['cache.k'], 'Vorher');
      await upsert({
        overwrite: true,
        keys: [{ key: 'cache.k', defaultText: 'Before', translations: { de: 'Nachher' } }],
      });
      const afterUpsert = await rest.get('/translations', { query: { locale: 'de' } });
      assert.equal(afterUpsert.body.translations['cache.k'], 'Nachher');
      assert.notEqual(afterUpsert.body.hash, before.body.hash);
    });

    it('rejects bad keys with tool errors naming the rule', async () => {
      const cases: [Record<string, unknown>, RegExp][] = [
        [
          { keys: [{ key: 'has space', defaultText: 'x' }] },
          /key may only contain letters, digits, dots, underscores and hyphens/,
        ],
        [{ keys: [{ key: 'k'.repeat(201), defaultText: 'x' }] }, /key must be at most 200 characters/],
        [{ keys: [{ key: 'ok', defaultText: 'x'.repeat(5001) }] }, /defaultText must be at most 5000 characters/],
        [{ keys: [{ key: 'ok' }] }, /defaultText is required/],
        [{ keys: [] }, /at least one key/],
        [
          { keys: Array.from({ length: 201 }, (_, i) => ({ key: `k${i}`, defaultText: 'x' })) },
          /at most 200 keys per call/,
        ],
        [
          { keys: [{ key: 'ok', defaultText: 'x', translations: { 'not a locale!': 'y' } }] },
          /not a BCP 47 locale code/,
        ],
        [
          {
            keys: [
              { key: 'dup', defaultText: 'x' },
              { key: 'dup', defaultText: 'y' },
            ],
          },
          /appears more than once/,
        ],
      ];
      for (const [args, message] of cases) {
        const result = await upsert(args);
        assert.equal(result.isError, true, JSON.stringify(args).slice(0, 80));
        assert.match(textOf(result), message);
      }
      const none = ((await list({ query: 'dup' })).structuredContent as any).total;
      assert.equal(none, 0);
    });

    it('accepts 200 keys in one call', async () => {
      const keys = Array.from({ length: 200 }, (_, i) => ({
        key: `bulk.k${String(i).padStart(3, '0')}`,
        defaultText: `Text ${i}`,
        namespace: 'bulk',
        translations: { de: `Text ${i} de` },
      }));
      const result = (await upsert({ keys })).structuredContent as any;
      assert.equal(result.created.length, 200);
    });

    it('filters by namespace, query and missing locale, and pages with a total', async () => {
      await upsert({
        keys: [
          { key: 'page.a', defaultText: 'Alpha', namespace: 'paging', translations: { de: 'Alpha' } },
          { key: 'page.b', defaultText: 'Beta', namespace: 'paging' },
          { key: 'page.c', defaultText: 'Gamma 100%', namespace: 'paging' },
        ],
      });
      const byNamespace = (await list({ namespace: 'paging' })).structuredContent as any;
      assert.deepEqual(
        byNamespace.keys.map((k: any) => k.key),
        ['page.a', 'page.b', 'page.c'],
      );
      assert.equal(byNamespace.total, 3);
      const missingDe = (await list({ namespace: 'paging', missingLocale: 'DE' })).structuredContent as any;
      assert.deepEqual(
        missingDe.keys.map((k: any) => k.key),
        ['page.b', 'page.c'],
      );
      const byText = (await list({ query: 'GAMMA' })).structuredContent as any;
      assert.deepEqual(
        byText.keys.map((k: any) => k.key),
        ['page.c'],
      );
      const literalPercent = (await list({ query: '100%' })).structuredContent as any;
      assert.deepEqual(
        literalPercent.keys.map((k: any) => k.key),
        ['page.c'],
      );
      const underscore = (await list({ query: 'page_' })).structuredContent as any;
      assert.equal(underscore.total, 0);
      const page = (await list({ namespace: 'paging', limit: 2, offset: 1 })).structuredContent as any;
      assert.deepEqual(
        page.keys.map((k: any) => k.key),
        ['page.b', 'page.c'],
      );
      assert.equal(page.total, 3);
      assert.equal(page.limit, 2);
      assert.equal(page.offset, 1);
      const clamped = (await list({ namespace: 'bulk', limit: 1000 })).structuredContent as any;
      assert.equal(clamped.limit, 200);
      assert.equal(clamped.keys.length, 200);
      const bad = await list({ limit: 0 });
      assert.equal(bad.isError, true);
      assert.match(textOf(bad), /limit must be an integer from 1 to 200/);
      const badLocale = await list({ missingLocale: '!!' });
      assert.equal(badLocale.isError, true);
    });

    it('answers a project out of reach like a missing one', async () => {
      const unreachable = await callTool(t.client, 'list_translation_keys', { projectId: project.projectId });
      const missing = await callTool(t.client, 'list_translation_keys', { projectId: 'nope' });
      assert.equal(unreachable.isError, true);
      assert.equal(textOf(unreachable).replace(project.projectId, '<id>'), textOf(missing).replace('nope', '<id>'));
      const write = await callTool(t.client, 'upsert_translation_keys', {
        projectId: project.projectId,
        keys: [{ key: 'x', defaultText: 'y' }],
      });
      assert.equal(write.isError, true);
      assert.equal(
        await server.db.get('SELECT id FROM translation_keys WHERE project_id = ?', [project.projectId]),
        undefined,
      );
    });

    it('runs one call in one transaction: a failure part-way stores nothing', async () => {
      let writes = 0;
      const failing = (tx: Queryable): Queryable => ({
        all: (sql, params) => {
          if (/^\s*INSERT/i.test(sql) && ++writes === 3) throw new Error('disk full');
          return tx.all(sql, params);
        },
        get: (sql, params) => tx.get(sql, params),
        run: (sql, params) => tx.run(sql, params),
      });
      const db: Database = Object.create(server.db, {
        transaction: {
          value: <T>(fn: (tx: Queryable) => Promise<T>) => server.db.transaction((tx) => fn(failing(tx))),
        },
      });
      const keys = ['atomic.1', 'atomic.2', 'atomic.3'].map((key) => ({ key, defaultText: key }));
      await assert.rejects(upsertKeys(db, translations.projectId, keys, false), /disk full/);
      const stored = await server.db.all("SELECT key FROM translation_keys WHERE key LIKE 'atomic.%'");
      assert.deepEqual(stored, []);
    });
  });
});
