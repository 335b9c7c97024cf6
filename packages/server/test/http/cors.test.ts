/**
 * The public API is called by browser SDKs from any origin, with keys in headers. Every answer,
 * errors included, must let scripts read it and the headers SDKs use; preflights must allow the
 * methods and headers the SDKs send.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestProject, type TestServer } from '../support/server.ts';
import { Api } from '../support/api.ts';

const EXPOSED = 'ETag, Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, X-Request-Id';

describe('CORS on the public API', () => {
  let server: TestServer;
  let project: TestProject;
  let api: Api;

  before(async () => {
    server = await startTestServer();
    project = await server.createProject({ monthlyQuota: 1000 });
    api = new Api(server.baseUrl, project.liveKey, { origin: 'https://app.example' });
  });
  after(() => server.close());

  const readable = (headers: Headers) => {
    assert.equal(headers.get('access-control-allow-origin'), '*');
    assert.equal(headers.get('access-control-expose-headers'), EXPOSED);
  };

  it('every answer is readable from any origin: reads, writes, 304s and errors', async () => {
    const list = await api.get('/features');
    assert.equal(list.status, 200);
    readable(list.headers);
    assert.ok(list.headers.get('ratelimit-remaining'));

    const created = await api.post('/errors', { title: 'CORS check', message: 'From a browser' });
    assert.equal(created.status, 201);
    readable(created.headers);

    const config = await api.get('/site-config', { query: { projectId: project.projectId }, key: null });
    const notModified = await api.get('/site-config', {
      query: { projectId: project.projectId },
      key: null,
      headers: { 'if-none-match': config.headers.get('etag')! },
    });
    assert.equal(notModified.status, 304);
    readable(notModified.headers);

    const unauthorised = await api.get('/features', { key: null });
    assert.equal(unauthorised.status, 401);
    readable(unauthorised.headers);
    const invalid = await api.post('/errors', { title: 42 });
    assert.equal(invalid.status, 400);
    readable(invalid.headers);
  });

  it('a preflight allows the methods and headers the SDKs send, for a day, without a key', async () => {
    const response = await fetch(`${server.baseUrl}/errors`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'x-api-key, content-type',
      },
    });
    assert.equal(response.status, 204);
    readable(response.headers);
    assert.equal(response.headers.get('access-control-allow-methods'), 'GET, POST, PUT, PATCH, DELETE');
    const allowed = response.headers.get('access-control-allow-headers')!.toLowerCase().split(', ');
    for (const header of ['authorization', 'x-api-key', 'content-type', 'if-none-match', 'x-request-id'])
      assert.ok(allowed.includes(header), header);
    assert.equal(response.headers.get('access-control-max-age'), '86400');
    assert.equal(response.headers.get('content-length'), '0');
    assert.equal(await response.text(), '');
  });

  it('an OPTIONS request that is not a preflight is a 400 with a JSON error', async () => {
    const response = await fetch(`${server.baseUrl}/features`, { method: 'OPTIONS' });
    assert.equal(response.status, 400);
    readable(response.headers);
    assert.deepEqual(await response.json(), {
      error: 'A preflight request needs Origin and Access-Control-Request-Method headers',
      code: 'BadRequest',
    });
  });
});
