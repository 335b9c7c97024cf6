/**
 * OFREP 0.3 over HTTP (issue 17): the flags' new fields through the management API, single and
 * bulk evaluation with the live and test keys, the protocol's error codes, ETag and 304, CORS, the
 * quota's 429, and keys of another project.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { managedProjectSuite } from '../support/manage-fixtures.ts';

const suite = managedProjectSuite();

async function ofrep(path: string, key: string | null, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${suite.server.origin}/ofrep/v1/evaluate/flags${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      ...headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

const flagsPath = () => `/projects/${suite.projectId}/site-config/flags`;

describe('OFREP evaluation', () => {
  test('management API: typed values per environment, rollout and rules, with 400s on bad input', async () => {
    const created = await suite.admin.put(`${flagsPath()}/banner-text`, {
      enabled: true,
      type: 'string',
      value: 'Hello',
      environmentValues: { test: 'Hello from test' },
      offValue: 'Off',
      rules: [{ attribute: 'email', operator: 'ends_with', value: '@example.com', serve: 'Hello, colleague' }],
    });
    assert.equal(created.status, 201);
    assert.equal(created.body.type, 'string');
    assert.equal(created.body.value, 'Hello');
    assert.deepEqual(created.body.environmentValues, { test: 'Hello from test' });
    assert.equal(created.body.rules.length, 1);
    assert.equal(created.body.rolloutPercentage, null);

    const rollout = await suite.admin.put(`${flagsPath()}/new-checkout`, {
      enabled: true,
      rolloutPercentage: 30,
      rules: [{ attribute: 'appVersion', operator: 'semver_gte', value: '2.0.0', serve: true }],
    });
    assert.equal(rollout.status, 201);
    assert.equal(rollout.body.value, true);
    // Fields left out keep their setting.
    const toggled = await suite.admin.put(`${flagsPath()}/new-checkout`, { enabled: true, rolloutPercentage: 30 });
    assert.equal(toggled.status, 200);
    assert.equal(toggled.body.rules.length, 1);
    await suite.admin.put(`${flagsPath()}/limits`, { enabled: true, type: 'object', value: { max: 5 } });
    await suite.admin.put(`${flagsPath()}/old-flag`, { enabled: false });

    for (const body of [
      { enabled: true, type: 'number', value: 'five' },
      { enabled: true, type: 'string' },
      { enabled: true, rolloutPercentage: 101 },
      { enabled: true, rules: [{ attribute: 'appVersion', operator: 'semver_gte', value: 'not a version' }] },
      { enabled: true, rules: [{ attribute: 'email', operator: 'matches', value: 'x' }] },
      { enabled: true, type: 'object', value: [1, 2] },
    ]) {
      const refused = await suite.admin.put(`${flagsPath()}/bad-flag`, body);
      assert.equal(refused.status, 400, JSON.stringify(body));
    }
    // A member may read but not write.
    assert.equal((await suite.member.put(`${flagsPath()}/x`, { enabled: true })).status, 403);

    // GET /site-config keeps its shape: featureFlags are id, projectId, key, enabled.
    const config = await suite.anonymous.get('/site-config', { query: { projectId: suite.projectId } });
    assert.equal(config.status, 200);
    const checkout = config.body.featureFlags.find((f: { key: string }) => f.key === 'new-checkout');
    assert.deepEqual(Object.keys(checkout).sort(), ['enabled', 'id', 'key', 'projectId']);
    assert.equal(checkout.enabled, true);
  });

  test('single flag: value per key environment, rule match, rollout, disabled, errors', async () => {
    const live = await ofrep('/banner-text', suite.liveKey, { context: { targetingKey: 'u1' } });
    assert.equal(live.status, 200);
    assert.deepEqual(live.body, { key: 'banner-text', value: 'Hello', reason: 'DEFAULT', variant: 'on', metadata: {} });
    const test = await ofrep('/banner-text', suite.testKey, { context: { targetingKey: 'u1' } });
    assert.equal(test.body.value, 'Hello from test');
    const matched = await ofrep('/banner-text', suite.liveKey, { context: { email: 'Ana@Example.com' } });
    assert.deepEqual(
      [matched.body.value, matched.body.reason, matched.body.variant],
      ['Hello, colleague', 'TARGETING_MATCH', 'rule-1'],
    );
    const limits = await ofrep('/limits', suite.liveKey, { context: {} });
    assert.deepEqual([limits.body.value, limits.body.reason], [{ max: 5 }, 'STATIC']);
    const disabled = await ofrep('/old-flag', suite.liveKey, {});
    assert.deepEqual([disabled.body.value, disabled.body.reason, disabled.body.variant], [false, 'DISABLED', 'off']);
    const split = await ofrep('/new-checkout', suite.liveKey, { context: { targetingKey: 'user-7' } });
    assert.equal(split.body.reason, 'SPLIT');
    const noKey = await ofrep('/new-checkout', suite.liveKey, { context: {} });
    assert.deepEqual([noKey.body.value, noKey.body.reason], [false, 'DEFAULT']);
    const newApp = await ofrep('/new-checkout', suite.liveKey, { context: { appVersion: '2.1.0' } });
    assert.deepEqual([newApp.body.value, newApp.body.reason], [true, 'TARGETING_MATCH']);

    const missing = await ofrep('/nope', suite.liveKey, { context: {} });
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.body, { key: 'nope', errorCode: 'FLAG_NOT_FOUND', errorDetails: 'No flag nope' });
    const parse = await ofrep('/banner-text', suite.liveKey, '{"context":');
    assert.equal(parse.status, 400);
    assert.equal(parse.body.errorCode, 'PARSE_ERROR');
    const invalid = await ofrep('/banner-text', suite.liveKey, { context: { targetingKey: 42 } });
    assert.deepEqual(
      [invalid.status, invalid.body.errorCode, invalid.body.key],
      [400, 'INVALID_CONTEXT', 'banner-text'],
    );
    const notObject = await ofrep('/banner-text', suite.liveKey, { context: 'x' });
    assert.equal(notObject.body.errorCode, 'INVALID_CONTEXT');
  });

  test('keys: none or bad is 401, X-API-Key works, a key without public:read is 403, another project sees nothing', async () => {
    assert.equal((await ofrep('/banner-text', null, {})).status, 401);
    assert.equal((await ofrep('/banner-text', 'svc_live_nonsense', {})).status, 401);
    const byHeader = await ofrep('/banner-text', null, {}, { 'x-api-key': suite.liveKey });
    assert.equal(byHeader.status, 200);
    const writer = await suite.server.createProject({ scopes: ['errors:write'] });
    assert.equal((await ofrep('', writer.liveKey, {})).status, 403);
    const other = await suite.server.createProject();
    const theirs = await ofrep('/banner-text', other.liveKey, {});
    assert.equal(theirs.status, 404);
    const theirBulk = await ofrep('', other.liveKey, {});
    assert.deepEqual(theirBulk.body, { flags: [] });
  });

  test('bulk: every flag, ETag by configuration and context, 304, then 200 after a change', async () => {
    const context = { context: { targetingKey: 'user-1', email: 'a@example.org' } };
    const first = await ofrep('', suite.liveKey, context);
    assert.equal(first.status, 200);
    assert.deepEqual(
      first.body.flags.map((f: { key: string }) => f.key),
      ['banner-text', 'limits', 'new-checkout', 'old-flag'],
    );
    const etag = first.headers.get('etag')!;
    assert.match(etag, /^"[0-9a-f]{32}"$/);
    assert.equal(first.headers.get('cache-control'), 'no-cache');
    assert.equal(first.headers.get('access-control-allow-origin'), '*');
    assert.match(first.headers.get('access-control-expose-headers')!, /ETag/);

    for (let i = 0; i < 3; i++) {
      // The first repeats go through Fastify and fill the caches; later ones take the fast path.
      const again = await ofrep('', suite.liveKey, context, { 'if-none-match': etag });
      assert.equal(again.status, 304);
      assert.equal(again.body, undefined);
      assert.equal(again.headers.get('etag'), etag);
      assert.equal(again.headers.get('access-control-allow-origin'), '*');
      assert.match(again.headers.get('access-control-expose-headers')!, /ETag/);
    }
    assert.ok(suite.server.app.ofrep.fastHits >= 1, 'repeated polls are answered before Fastify');
    // Another context, the test key, or a changed flag: a new ETag.
    const otherContext = await ofrep(
      '',
      suite.liveKey,
      { context: { targetingKey: 'user-2' } },
      { 'if-none-match': etag },
    );
    assert.equal(otherContext.status, 200);
    assert.notEqual(otherContext.headers.get('etag'), etag);
    const testKey = await ofrep('', suite.testKey, context, { 'if-none-match': etag });
    assert.equal(testKey.status, 200);
    await suite.admin.put(`${flagsPath()}/old-flag`, { enabled: true });
    const changed = await ofrep('', suite.liveKey, context, { 'if-none-match': etag });
    assert.equal(changed.status, 200);
    assert.notEqual(changed.headers.get('etag'), etag);
    const oldFlag = changed.body.flags.find((f: { key: string }) => f.key === 'old-flag');
    assert.deepEqual([oldFlag.value, oldFlag.reason], [true, 'STATIC']);
    // A bad body on the fast path still gets its protocol error.
    const bad = await ofrep('', suite.liveKey, '{"context": 5}', { 'if-none-match': etag });
    assert.deepEqual([bad.status, bad.body.errorCode], [400, 'INVALID_CONTEXT']);
  });

  test('CORS preflight allows the headers OFREP providers send', async () => {
    const response = await fetch(`${suite.server.origin}/ofrep/v1/evaluate/flags`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example.com',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type,if-none-match,x-api-key',
      },
    });
    assert.equal(response.status, 204);
    assert.equal(response.headers.get('access-control-allow-origin'), '*');
    const allowed = response.headers.get('access-control-allow-headers')!.toLowerCase();
    for (const header of ['authorization', 'x-api-key', 'content-type', 'if-none-match'])
      assert.ok(allowed.includes(header));
  });

  test('the plan quota answers 429 with Retry-After', async () => {
    const metered = await suite.server.createProject({ monthlyQuota: 1 });
    assert.equal((await ofrep('', metered.liveKey, {})).status, 200);
    const refused = await ofrep('', metered.liveKey, {});
    assert.equal(refused.status, 429);
    assert.ok(Number(refused.headers.get('retry-after')) >= 1);
  });
});
