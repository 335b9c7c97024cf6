import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/server.ts';
import type { Api } from '../support/api.ts';
import { ALL_KEY_SCOPES, createApiKey } from '../../src/resources/projects/index.ts';
import { managedProject, type ManagedProject } from '../support/manage-fixtures.ts';
import { managementApi } from '../support/management.ts';
import { callTool, connectMcp, postMcp, textOf } from '../support/mcp.ts';
import { startPublicProject } from '../support/public-project.ts';

const WRITE_PATHS = ['/features', '/bugs', '/errors', '/logs', '/i18n-telemetry'];

async function rowCounts(server: TestServer): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of [
    'features',
    'bug_reports',
    'error_reports',
    'log_groups',
    'missing_translations',
    'comments',
    'votes',
  ]) {
    counts[table] = Number((await server.db.get<any>(`SELECT COUNT(*) AS n FROM ${table}`))!.n);
  }
  return counts;
}

describe('bad input', () => {
  let server: TestServer;
  let api: Api;
  let featureId: string;

  before(async () => {
    ({ server, api } = await startPublicProject());
    featureId = (await api.post('/features', { title: 'Target item', description: 'A target for bad input.' })).body.id;
  });
  after(() => server.close());

  it('answers malformed JSON with 400, a wrong content type with 415, a body over 1 MiB with 413', async () => {
    const before = await rowCounts(server);
    for (const path of WRITE_PATHS) {
      const malformed = await api.post(path, undefined, {
        rawBody: '{"title": "x",',
        headers: { 'content-type': 'application/json' },
      });
      assert.equal(malformed.status, 400, path);
      assert.deepEqual(malformed.body, { error: 'Malformed JSON body', code: 'BadRequest' });
      const empty = await api.post(path, undefined, { rawBody: '', headers: { 'content-type': 'application/json' } });
      assert.equal(empty.status, 400, path);
      const text = await api.post(path, undefined, { rawBody: 'title=x', headers: { 'content-type': 'text/plain' } });
      assert.equal(text.status, 415, path);
      assert.match(text.body.error, /content type/i);
      const form = await api.post(path, undefined, {
        rawBody: 'a=b',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      assert.equal(form.status, 415, path);
      const huge = await api.post(path, { title: 'x'.repeat(1024 * 1024 + 10), description: 'y' });
      assert.equal(huge.status, 413, path);
      assert.equal(typeof huge.body.error, 'string');
    }
    assert.deepEqual(await rowCounts(server), before);
  });

  it('refuses __proto__ and constructor.prototype keys without touching anything', async () => {
    const before = await rowCounts(server);
    for (const raw of [
      '{"title":"Prototype test","description":"A pollution attempt.","__proto__":{"internal":true}}',
      '{"title":"Prototype test","description":"A pollution attempt.","constructor":{"prototype":{"polluted":1}}}',
      '{"logs":[{"level":"info","message":"x","data":{"__proto__":{"admin":true}}}]}',
    ]) {
      const res = await api.post('/features', undefined, {
        rawBody: raw,
        headers: { 'content-type': 'application/json' },
      });
      assert.equal(res.status, 400, raw);
    }
    assert.equal(({} as any).polluted, undefined);
    assert.equal(({} as any).internal, undefined);
    assert.deepEqual(await rowCounts(server), before);
  });

  it('rejects wrong JSON shapes and types on every write endpoint with details, storing nothing', async () => {
    const before = await rowCounts(server);
    const bodies: unknown[] = [
      [],
      'a string',
      42,
      null,
      true,
      { title: 12345, description: ['x'], message: { a: 1 }, logs: {}, locale: 5, missingKeys: 'k' },
      { title: '\u0000'.repeat(3), message: null },
    ];
    for (const path of WRITE_PATHS) {
      for (const body of bodies) {
        const res = await api.post(path, undefined, {
          rawBody: JSON.stringify(body),
          headers: { 'content-type': 'application/json' },
        });
        assert.equal(res.status, 400, `${path} ${JSON.stringify(body)}`);
        assert.equal(typeof res.body.error, 'string');
      }
    }
    assert.deepEqual(await rowCounts(server), before);
  });

  it('survives huge and odd strings in paths, queries and headers without a 5xx', async () => {
    const requests = [
      api.get(`/features/${'x'.repeat(5000)}`, { unchecked: true }),
      api.get('/features', { query: { limit: '9'.repeat(400) } }),
      api.get('/features', { query: { offset: '1e309' } }),
      api.get('/features', { query: { status: 'open\u0000' } }),
      api.get('/roadmap', { query: { status: 'x,'.repeat(500) } }),
      api.get('/translations', { query: { locale: 'x'.repeat(1000) } }),
      api.get('/translations', { query: { locale: '../../etc/passwd' } }),
      api.get('/site-config', { key: null, query: { projectId: "' OR 1=1 --" } }),
      api.get('/version-check', { key: null, query: { projectId: 'demo', currentVersion: 'v'.repeat(300) } }),
      api.get('/version-check', { key: null, query: { projectId: 'demo', currentVersion: '1.0.0-' } }),
      api.get('/features', { key: `svc_live_${'a'.repeat(10_000)}` }),
      api.get('/features', { key: "svc_live_' OR '1'='1" }),
      api.put(`/features/${featureId}/votes/${encodeURIComponent('../../x')}`),
      api.patch(`/features/${featureId}`, { status: 'done', internal: null }),
      api.post(`/features/${featureId}/comments`, { body: '\ud800 lone surrogate and <script>alert(1)</script>' }),
    ];
    for (const res of await Promise.all(requests)) {
      assert.ok(res.status < 500, `${res.status} ${res.text.slice(0, 200)}`);
      assert.ok(res.headers.get('x-request-id'));
      if (res.status >= 400) assert.equal(typeof JSON.parse(res.text).error, 'string');
    }
    assert.equal((await api.get('/site-config', { key: null, query: { projectId: "' OR 1=1 --" } })).status, 404);
    assert.equal((await api.get('/features', { query: { offset: '1e309' } })).status, 400);
    // A huge but whole limit is clamped like any other limit over the maximum.
    assert.equal((await api.get('/features', { query: { limit: '9'.repeat(400) } })).body.limit, 100);
  });

  it('answers limit Infinity, 1e400 and other non-integers with 400, and clamps a whole limit over the maximum', async () => {
    for (const limit of ['Infinity', '-Infinity', '1e400', '1e2', 'NaN', '0.5', '0x10', ' 5', '', '0', '-1']) {
      const res = await api.get('/features', { query: { limit } });
      assert.equal(res.status, 400, `limit=${limit}: ${res.text}`);
      assert.deepEqual(
        res.body.details.map((d: any) => d.field),
        ['limit'],
        limit,
      );
    }
    for (const offset of ['-1', '1e400', 'Infinity', '1'.repeat(400)]) {
      assert.equal(
        (await api.get(`/features/${featureId}/comments`, { query: { offset } })).status,
        400,
        `offset=${offset}`,
      );
    }
    assert.equal((await api.get('/changelog', { query: { limit: 'Infinity' } })).status, 400);
    assert.equal((await api.get('/features', { query: { limit: '100000' } })).body.limit, 100);
  });

  it('answers an id no item can have (4,000 characters, NUL, undecodable) with the 404 of a missing item', async () => {
    for (const id of ['x'.repeat(4000), 'abc%00def', '%00', 'a%zz', '%E0%A4%A']) {
      for (const res of [
        await api.get(`/features/${id}`, { unchecked: true }),
        await api.patch(`/features/${id}`, { status: 'done' }, { unchecked: true }),
        await api.get(`/features/${id}/comments`, { unchecked: true }),
        await api.put(`/features/${id}/votes/voter-1`, undefined, { unchecked: true }),
      ]) {
        assert.equal(res.status, 404, `${id.slice(0, 20)}: ${res.status} ${res.text}`);
        assert.deepEqual(JSON.parse(res.text), { error: 'Not found', code: 'NotFound' });
      }
    }
    // An id in the query that names an item: the same 404.
    for (const projectId of ['demo\u0000', 'x'.repeat(4000)]) {
      assert.equal((await api.get('/site-config', { key: null, query: { projectId }, unchecked: true })).status, 404);
      assert.equal(
        (await api.get('/version-check', { key: null, query: { projectId, currentVersion: '1.0.0' }, unchecked: true }))
          .status,
        404,
      );
    }
    // The name a PUT sets is the caller's input, not an item to find: a bad one stays a 400.
    assert.equal((await api.put(`/features/${featureId}/votes/${'v'.repeat(201)}`)).status, 400);
  });

  it('answers unknown routes and methods with a JSON 404 and keeps the request id a caller sends', async () => {
    const res = await api.get('/nope', { unchecked: true, headers: { 'x-request-id': 'trace-123' } });
    assert.equal(res.status, 404);
    assert.deepEqual(res.body, { error: 'Not found', code: 'NotFound' });
    assert.equal(res.headers.get('x-request-id'), 'trace-123');
    const generated = await api.get('/features', { headers: { 'x-request-id': 'bad id with spaces' } });
    assert.notEqual(generated.headers.get('x-request-id'), 'bad id with spaces');
  });

  it('ignores unknown body fields', async () => {
    const res = await api.post('/features', {
      title: 'Unknown fields',
      description: 'Extra fields are ignored.',
      color: 'red',
      votes: 99,
    });
    assert.equal(res.status, 201);
    assert.equal(res.body.voteCount, 0);
    assert.equal(res.body.color, undefined);
  });
});

/** `{"a":{"a":…{}}}`: `levels` objects, one inside the other, as JSON text (JSON.stringify would overflow). */
function nestedText(levels: number): string {
  return `${'{"a":'.repeat(levels - 1)}{}${'}'.repeat(levels - 1)}`;
}

/** `body` as JSON text with `value` nested `levels` deep where it says DEEP. */
function withNested(
  body: (value: unknown) => unknown,
  levels: number,
): { rawBody: string; headers: Record<string, string> } {
  return {
    rawBody: JSON.stringify(body('DEEP')).replace('"DEEP"', nestedText(levels)),
    headers: { 'content-type': 'application/json' },
  };
}

const FEATURE = { title: 'Nesting test', description: 'A feature with deep metadata.' };
const BUG = { title: 'Nesting bug', message: 'A bug report with deep metadata.' };
const crumb = (data: unknown) => ({ timestamp: new Date().toISOString(), type: 'custom', message: 'step', data });

describe('bad input: deep nesting, U+0000 and huge numbers reach no database (decisions.md, Errors)', () => {
  let server: TestServer;
  let project: ManagedProject;

  before(async () => {
    server = await startTestServer();
    project = await managedProject(server);
  });
  after(() => server.close());

  const FREE_FORM: [string, (value: unknown) => unknown, string][] = [
    ['/features', (value) => ({ ...FEATURE, metadata: value }), 'metadata'],
    ['/bugs', (value) => ({ ...BUG, metadata: value }), 'metadata'],
    ['/errors', (value) => ({ ...BUG, metadata: value }), 'metadata'],
    ['/errors', (value) => ({ ...BUG, device: value }), 'device'],
    ['/errors', (value) => ({ ...BUG, network: value }), 'network'],
    ['/errors', (value) => ({ ...BUG, app: value }), 'app'],
    ['/errors', (value) => ({ ...BUG, breadcrumbs: [crumb({}), crumb(value)] }), 'breadcrumbs.1.data'],
    [
      '/logs',
      (value) => ({
        logs: [
          { level: 'info', message: 'fine' },
          { level: 'info', message: 'deep', data: value },
        ],
      }),
      'logs.1.data',
    ],
  ];

  it('refuses a free-form value nested deeper than 32 levels with 400 naming the field, and stores nothing', async () => {
    const before = await rowCounts(server);
    for (const [path, body, field] of FREE_FORM) {
      for (const levels of [33, 40, 5000]) {
        const res = await project.live.post(path, undefined, withNested(body, levels));
        assert.equal(res.status, 400, `${path} ${field} ${levels}: ${res.text.slice(0, 200)}`);
        assert.deepEqual(
          res.body.details,
          [{ field, message: 'must not nest deeper than 32 levels' }],
          `${path} ${levels}`,
        );
      }
    }
    for (const raw of ['['.repeat(5000) + ']'.repeat(5000), `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`]) {
      const res = await project.live.post('/logs', undefined, {
        rawBody: raw,
        headers: { 'content-type': 'application/json' },
      });
      assert.equal(res.status, 400);
      assert.equal(res.body.details[0].field, '(body)');
    }
    assert.deepEqual(await rowCounts(server), before);
    for (const [path, body, field] of FREE_FORM) {
      const res = await project.live.post(path, undefined, withNested(body, 32));
      assert.ok(res.status === 200 || res.status === 201, `${path} ${field} at 32 levels: ${res.text.slice(0, 200)}`);
    }
  });

  it('refuses deep nesting in management bodies: the maintenance whitelist and a translation file', async () => {
    const path = `/projects/${project.projectId}`;
    const whitelist = await project.owner.patch(
      `${path}/site-config/maintenance`,
      undefined,
      withNested((value) => ({ whitelist: value }), 5000),
    );
    assert.equal(whitelist.status, 400, whitelist.text.slice(0, 200));
    assert.equal(whitelist.body.details[0].field, 'whitelist');
    const file = await project.owner.post(
      `${path}/translations/import?locale=de`,
      undefined,
      withNested((value) => value, 5000),
    );
    assert.equal(file.status, 400, file.text.slice(0, 200));
    assert.equal(file.body.details[0].field, '(body)');
    assert.equal((await project.owner.get(`${path}/translations/keys`)).body.keys.length, 0);
  });

  it('refuses U+0000 in body text and keys (400 naming the field), in query text (400) and in ids (404)', async () => {
    const before = await rowCounts(server);
    const cases: [string, unknown, string][] = [
      ['/features', { ...FEATURE, title: 'Nul\u0000title' }, 'title'],
      ['/features', { ...FEATURE, metadata: { 'a\u0000b': 1 } }, 'metadata.a\\u0000b'],
      ['/bugs', { ...BUG, metadata: { list: ['ok', 'x\u0000'] } }, 'metadata.list.1'],
      ['/logs', { logs: [{ level: 'info', message: 'fine', data: { text: '\u0000' } }] }, 'logs.0.data.text'],
      ['/i18n-telemetry', { locale: 'de', missingKeys: ['ok', 'k\u0000'] }, 'missingKeys.1'],
    ];
    for (const [path, body, field] of cases) {
      const res = await project.live.post(path, body);
      assert.equal(res.status, 400, `${path} ${field}: ${res.text}`);
      assert.equal(res.body.details[0].field, field);
      assert.match(res.body.error, /U\+0000/);
    }
    assert.deepEqual(await rowCounts(server), before);
    const query = await project.live.get('/features', { query: { status: 'open\u0000' } });
    assert.equal(query.status, 400);
    assert.deepEqual(query.body.details, [{ field: 'status', message: 'must not contain the character U+0000' }]);
    const key = await project.owner.post(`/projects/${project.projectId}/translations/keys`, {
      key: 'nul.check',
      defaultText: 'Hello',
    });
    assert.equal(key.status, 201, key.text);
    for (const locale of ['de%00', 'en-', 'x'.repeat(4000)]) {
      const res = await project.owner.delete(
        `/projects/${project.projectId}/translations/keys/nul.check/values/${locale}`,
        { unchecked: true },
      );
      assert.equal(res.status, 404, `${locale.slice(0, 10)}: ${res.text}`);
    }
    const search = await project.owner.get(`/projects/${project.projectId}/features`, { query: { q: 'a\u0000' } });
    assert.equal(search.status, 400);
    assert.equal(search.body.details[0].field, 'q');
    for (const res of [
      await project.live.get('/features/feat_x%00y', { unchecked: true }),
      await project.owner.get(`/projects/${project.projectId}/features/feat%00`, { unchecked: true }),
      await project.owner.get('/projects/%00', { unchecked: true }),
      await project.owner.get(`/projects/${project.projectId}/changelog`, {
        query: { featureId: '\u0000' },
        unchecked: true,
      }),
    ]) {
      assert.equal(res.status, 404, res.text);
      assert.deepEqual(JSON.parse(res.text), { error: 'Not found', code: 'NotFound' });
    }
    const signIn = await managementApi(server.origin).post('/auth/sign-in', {
      email: 'a\u0000@example.com',
      password: 'whatever it is',
    });
    assert.equal(signIn.status, 400);
    assert.equal(signIn.body.details[0].field, 'email');
  });

  it('refuses integers beyond 2^53 and numbers beyond the double range in bodies with 400', async () => {
    for (const raw of [
      '{"name":"Big","monthlyQuota":9223372036854775808}',
      '{"name":"Big","monthlyQuota":1e308}',
      '{"name":"Big","monthlyQuota":1e400}',
    ]) {
      const res = await project.owner.post('/projects', undefined, {
        rawBody: raw,
        headers: { 'content-type': 'application/json' },
      });
      assert.equal(res.status, 400, `${raw}: ${res.text}`);
      assert.equal(res.body.details[0].field, 'monthlyQuota');
    }
    const downlink = await project.live.post('/errors', undefined, {
      rawBody: `{"title":"Huge number","message":"A number beyond doubles.","network":{"downlink":1e400}}`,
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(downlink.status, 400);
    assert.equal(downlink.body.details[0].field, 'network.downlink');
  });

  it('refuses a leap second (23:59:60), which the date-time format allows but no Date holds, with 400', async () => {
    const at = '2026-06-30T23:59:60Z';
    const log = await project.live.post('/logs', { logs: [{ level: 'info', message: 'leap', timestamp: at }] });
    assert.equal(log.status, 400, log.text);
    assert.equal(log.body.details[0].field, 'logs.0.timestamp');
    const error = await project.live.post('/errors', { ...BUG, breadcrumbs: [{ ...crumb({}), timestamp: at }] });
    assert.equal(error.status, 400, error.text);
    assert.equal(error.body.details[0].field, 'breadcrumbs.0.timestamp');
  });

  it('answers NUL and deep nesting in MCP tool arguments with a tool error naming the argument', async () => {
    const key = (await createApiKey(server.db, project.projectId, 'live', ALL_KEY_SCOPES)).key;
    const mcp = await connectMcp(server.origin, { key });
    const features = async () =>
      Number(
        (await server.db.get<any>('SELECT COUNT(*) AS n FROM features WHERE project_id = ?', [project.projectId]))!.n,
      );
    const before = await features();
    try {
      const base = { projectId: project.projectId, title: 'From MCP', description: 'A feature made over MCP.' };
      const nul = await callTool(mcp.client, 'create_feature', { ...base, title: 'Nul\u0000title' });
      assert.equal(nul.isError, true);
      assert.match(textOf(nul), /title must not contain the character U\+0000/);
      const deep = await callTool(mcp.client, 'create_feature', { ...base, context: JSON.parse(nestedText(40)) });
      assert.equal(deep.isError, true);
      assert.match(textOf(deep), /context must not nest deeper than 32 levels/);
      const keys = await callTool(mcp.client, 'upsert_translation_keys', {
        projectId: project.projectId,
        keys: [{ key: 'k\u0000', defaultText: 'x' }],
      });
      assert.equal(keys.isError, true);
      assert.match(textOf(keys), /keys\.0\.key must not contain/);
      // Deeper than the client can serialise: the same answer, sent as raw JSON-RPC.
      const raw = await postMcp(
        server.origin,
        'DEEP',
        { authorization: `Bearer ${key}` },
        JSON.stringify({
          jsonrpc: '2.0',
          id: 7,
          method: 'tools/call',
          params: { name: 'create_feature', arguments: { ...base, title: 'DEEP' } },
        }).replace('"DEEP"', nestedText(5000)),
      );
      assert.equal(raw.status, 200);
      const answer = (await raw.json()) as any;
      assert.equal(answer.result.isError, true);
      assert.match(answer.result.content[0].text, /title must not nest deeper than 32 levels/);
      assert.equal(await features(), before);
    } finally {
      await mcp.close();
    }
  });
});
