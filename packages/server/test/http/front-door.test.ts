/**
 * The front door answers repeats of the hot reads from the response memo, before Fastify. These
 * tests hold it to two promises: an answer from the memo is the answer Fastify gives (headers,
 * body, 304s, request ids), and the memo never answers where Fastify would answer differently
 * (after a write, for another key, for a key that lost its scope or was revoked, under a quota).
 * Both databases memoise (PostgreSQL through its change notifications, db/pg-listener.ts).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { startTestServer, type TestProject, type TestServer } from '../support/server.ts';
import { Api, type ApiResponse } from '../support/api.ts';
import { listeningForChanges } from '../support/change-listener.ts';
import { quotaPeriod } from '../../src/http/quota.ts';
import { addUsage } from '../../src/http/quota-store.ts';

/** A GET with header lines exactly as given (repeats and case kept), and an optional body. */
function rawGet(url: string, lines: string[], body?: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    // Given as a list, headers are sent as they are: Node adds no Host, which HTTP/1.1 requires.
    const outgoing = httpRequest(url, { method: 'GET', headers: ['Host', new URL(url).host, ...lines] }, (incoming) => {
      let text = '';
      incoming.setEncoding('utf8');
      incoming.on('data', (chunk: string) => (text += chunk));
      incoming.on('end', () => resolve({ status: incoming.statusCode!, text }));
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/** Headers that may differ between two answers to the same request. */
const PER_RESPONSE = new Set(['date', 'x-request-id', 'keep-alive', 'connection']);

function sameAnswer(first: ApiResponse, second: ApiResponse): void {
  assert.equal(second.status, first.status);
  assert.equal(second.text, first.text);
  const headers = (response: ApiResponse) =>
    [...response.headers.entries()].filter(([name]) => !PER_RESPONSE.has(name)).sort(([a], [b]) => a.localeCompare(b));
  assert.deepEqual(headers(second), headers(first));
  assert.match(second.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
  assert.notEqual(second.headers.get('x-request-id'), first.headers.get('x-request-id'));
}

describe('front door: repeated reads answered from the response memo', () => {
  let server: TestServer;
  let project: TestProject;
  let other: TestProject;
  let api: Api;
  let memoised: boolean;
  const hits = () => server.app.responseMemo.hits;
  /** Runs a request and says whether the memo answered it. */
  async function counted<T>(request: () => Promise<T>): Promise<{ response: T; fromMemo: boolean }> {
    const before = hits();
    const response = await request();
    return { response, fromMemo: hits() > before };
  }

  before(async () => {
    server = await startTestServer();
    // Both databases memoise: PostgreSQL once its change listener listens.
    await listeningForChanges(server.db);
    memoised = server.db.changeMarker !== undefined;
    project = await server.createProject();
    other = await server.createProject();
    api = new Api(server.baseUrl, project.liveKey);
    for (const title of ['First idea', 'Second idea']) {
      assert.equal(
        (await api.post('/features', { title, description: 'From the front door test.', type: 'feature' })).status,
        201,
      );
    }
  });
  after(() => server.close());

  const reads: [string, string, Record<string, string>][] = [
    ['GET /features', '/features', {}],
    ['GET /features with filters and paging', '/features', { type: 'feature', limit: '1', offset: '1' }],
    ['GET /translations', '/translations', { locale: 'de' }],
  ];
  for (const [name, path, query] of reads) {
    it(`${name}: the repeat is the same answer, from the memo`, async () => {
      const first = await counted(() => api.get(path, { query }));
      assert.equal(first.response.status, 200);
      const second = await counted(() => api.get(path, { query }));
      assert.equal(second.fromMemo, memoised);
      sameAnswer(first.response, second.response);
    });
  }

  it('GET /site-config: 200 and 304 repeats match, a caller-supplied request id is echoed', async () => {
    const query = { projectId: project.projectId };
    const first = await api.get('/site-config', { query, key: null });
    const second = await counted(() =>
      api.get('/site-config', { query, key: null, headers: { 'x-request-id': 'trace-1234' } }),
    );
    assert.equal(second.fromMemo, memoised);
    assert.equal(second.response.headers.get('x-request-id'), 'trace-1234');
    assert.equal(second.response.text, first.text);

    const etag = first.headers.get('etag')!;
    const notModified = await api.get('/site-config', { query, key: null, headers: { 'if-none-match': etag } });
    assert.equal(notModified.status, 304);
    const again = await counted(() =>
      api.get('/site-config', { query, key: null, headers: { 'if-none-match': `W/${etag}, "other"` } }),
    );
    assert.equal(again.fromMemo, memoised);
    sameAnswer(notModified, again.response);
    assert.equal(again.response.text, '');
    assert.equal(again.response.headers.get('content-type'), null);
    assert.equal(again.response.headers.get('content-length'), null);
  });

  it('a 304 seen first answers only 304s; a request with another tag gets the full body', async () => {
    const full = await api.get('/translations', { query: { locale: 'en' } });
    const etag = full.headers.get('etag')!;
    // A URL the memo has not seen yet: its first answer is a 304.
    const query = { locale: 'en', namespace: 'common' };
    const taggedFirst = await api.get('/translations', { query, headers: { 'if-none-match': '*' } });
    assert.equal(taggedFirst.status, 304);
    const untagged = await counted(() => api.get('/translations', { query }));
    assert.equal(untagged.fromMemo, false);
    assert.equal(untagged.response.status, 200);
    assert.equal(typeof untagged.response.body.hash, 'string');
    assert.ok(etag);
  });

  it('a write is seen at once: the kept list is not answered after a new feature', async () => {
    const before = await api.get('/features');
    await api.get('/features');
    assert.equal(
      (await api.post('/features', { title: 'Third idea', description: 'A later one.', type: 'feature' })).status,
      201,
    );
    const after = await counted(() => api.get('/features'));
    assert.equal(after.fromMemo, false);
    assert.equal(after.response.body.count, before.body.count + 1);
    assert.equal(after.response.body.features[0].title, 'Third idea');
  });

  it('telemetry leaves the kept answers warm: error reports, log lines, missing keys and quota flushes change nothing a memo reads', async () => {
    const kept = await api.get('/features');
    assert.equal((await counted(() => api.get('/features'))).fromMemo, memoised);
    const telemetry = [
      await api.post('/errors', { title: 'TypeError: x is undefined', message: 'From the front door test.' }),
      await api.post('/logs', { logs: [{ level: 'warn', message: 'A line from the front door test.' }] }),
      await api.post('/i18n-telemetry', { locale: 'de', missingKeys: ['front.door.key'] }),
    ];
    assert.deepEqual(
      telemetry.map((response) => response.status < 300),
      [true, true, true],
    );
    // What the quota meter's flush writes, now rather than at its next second.
    await addUsage(server.db, [{ projectId: other.projectId, period: quotaPeriod(new Date()), count: 1 }]);
    const after = await counted(() => api.get('/features'));
    assert.equal(after.fromMemo, memoised);
    sameAnswer(kept, after.response);
  });

  it("another project's key and the test key read their own data from the same URL", async () => {
    await api.get('/features');
    const mine = await api.get('/features');
    assert.ok(mine.body.count >= 3);
    const theirs = await counted(() => api.withKey(other.liveKey).get('/features'));
    assert.equal(theirs.fromMemo, false);
    assert.equal(theirs.response.body.count, 0);
    const testKey = await api.withKey(project.testKey).get('/features');
    assert.equal(testKey.body.count, 0);
  });

  it('keys are checked on every answer: missing, wrong secret, lacking scope, revoked', async () => {
    await api.get('/features');
    await api.get('/features');
    const missing = await counted(() => api.get('/features', { key: null }));
    assert.equal(missing.fromMemo, false);
    assert.equal(missing.response.status, 401);
    assert.equal(missing.response.body.error, 'Missing API key');

    const wrongSecret = project.liveKey.slice(0, -4) + (project.liveKey.endsWith('aaaa') ? 'bbbb' : 'aaaa');
    const wrong = await counted(() => api.get('/features', { key: wrongSecret }));
    assert.equal(wrong.fromMemo, false);
    assert.equal(wrong.response.status, 401);
    assert.equal(wrong.response.body.error, 'Invalid API key');
    // After a good request the key is compared with the one that matched; a longer or shorter
    // key with the same lookup part is still no key.
    for (const variant of [`${project.liveKey}a`, project.liveKey.slice(0, -1)]) {
      const other = await api.get('/features', { key: variant });
      assert.equal(other.status, 401, variant.length.toString());
      assert.equal(other.body.error, 'Invalid API key');
    }

    const scoped = await server.createProject({ scopes: ['features:read'] });
    const reader = api.withKey(scoped.liveKey);
    await reader.get('/features');
    assert.equal((await counted(() => reader.get('/features'))).fromMemo, memoised);
    // The same key loses its scope: the kept answer must not be given.
    await server.db.run('UPDATE api_keys SET scopes = ? WHERE project_id = ?', [
      JSON.stringify(['bugs:write']),
      scoped.projectId,
    ]);
    const forbidden = await counted(() => reader.get('/features'));
    assert.equal(forbidden.fromMemo, false);
    assert.equal(forbidden.response.status, 403);
    assert.equal(forbidden.response.body.error, 'This API key lacks the features:read permission');

    await api.get('/translations', { query: { locale: 'de' } });
    await server.db.run('UPDATE api_keys SET revoked_at = ? WHERE project_id = ?', [
      new Date().toISOString(),
      project.projectId,
    ]);
    const revoked = await counted(() => api.get('/translations', { query: { locale: 'de' } }));
    assert.equal(revoked.fromMemo, false);
    assert.equal(revoked.response.status, 401);
    await server.db.run('UPDATE api_keys SET revoked_at = NULL WHERE project_id = ?', [project.projectId]);
  });

  it('a project under a plan quota counts every read, those answered from the memo too, and is refused past it', async () => {
    const metered = await server.createProject({ monthlyQuota: 3 });
    const reader = api.withKey(metered.liveKey);
    const first = await reader.get('/features');
    const second = await counted(() => reader.get('/features'));
    assert.equal(second.fromMemo, memoised);
    assert.equal(first.headers.get('ratelimit-remaining'), '2');
    assert.equal(second.response.headers.get('ratelimit-remaining'), '1');
    assert.equal(second.response.headers.get('ratelimit-limit'), '3');
    assert.ok(Number(second.response.headers.get('ratelimit-reset')) > 0);
    const third = await counted(() => reader.get('/features'));
    assert.equal(third.fromMemo, memoised);
    assert.equal(third.response.headers.get('ratelimit-remaining'), '0');
    const over = await counted(() => reader.get('/features'));
    assert.equal(over.fromMemo, false);
    assert.equal(over.response.status, 429);
    assert.deepEqual(over.response.body, { error: 'Quota exceeded', code: 'TooManyRequests' });
    assert.ok(Number(over.response.headers.get('retry-after')) >= 1);
    assert.equal(over.response.headers.get('ratelimit-remaining'), '0');
  });

  it("header names in any case; repeated key or tag headers get the answer Node's joined value calls for; GET bodies take the full path", async () => {
    const url = `${server.baseUrl}/translations?locale=de`;
    const etag = (await api.get('/translations', { query: { locale: 'de' } })).headers.get('etag')!;
    await api.get('/translations', { query: { locale: 'de' }, headers: { 'if-none-match': etag } });

    const mixedCase = await counted(() => rawGet(url, ['X-Api-KEY', project.liveKey, 'IF-NONE-MATCH', etag]));
    assert.equal(mixedCase.fromMemo, memoised);
    assert.equal(mixedCase.response.status, 304);

    // Node joins repeated X-API-Key lines into one value, which is no key: Fastify's 401.
    const twoKeys = await counted(() => rawGet(url, ['x-api-key', project.liveKey, 'X-API-Key', project.liveKey]));
    assert.equal(twoKeys.fromMemo, false);
    assert.equal(twoKeys.response.status, 401);
    assert.equal(JSON.parse(twoKeys.response.text).error, 'Invalid API key');

    // Two If-None-Match lines are one list to Node; the tag in it still matches.
    const twoTags = await rawGet(url, [
      'x-api-key',
      project.liveKey,
      'If-None-Match',
      '"other"',
      'if-none-match',
      etag,
    ]);
    assert.equal(twoTags.status, 304);

    const withBody = await counted(() =>
      rawGet(url, ['x-api-key', project.liveKey, 'content-type', 'application/json', 'content-length', '2'], '{}'),
    );
    assert.equal(withBody.fromMemo, false);
    assert.ok(withBody.response.status < 500);
  });

  it('HEAD and requests with a body take the full path', async () => {
    await api.get('/features');
    const head = await counted(() =>
      fetch(`${server.baseUrl}/features`, { method: 'HEAD', headers: { 'x-api-key': project.liveKey } }),
    );
    assert.equal(head.fromMemo, false);
    assert.equal(head.response.status, 200);
  });
});
