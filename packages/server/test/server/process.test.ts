import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createTestDatabase, startServerProcess, type ServerProcess, type TestDatabase } from '../support/server.ts';
import { DEFAULT_DEMO_API_KEY } from '../../src/config.ts';

const MAIN = fileURLToPath(new URL('../../src/main.ts', import.meta.url));

describe('the server process', () => {
  let database: TestDatabase;
  let server: ServerProcess;

  before(async () => {
    database = await createTestDatabase();
    server = await startServerProcess(database);
  });
  after(async () => {
    await server.stop();
    await database.drop();
  });

  it('prints the demo key and where to look on first start', () => {
    assert.match(server.output(), new RegExp(`Demo API key: +${DEFAULT_DEMO_API_KEY}`));
    assert.match(server.output(), /api\/public\/v1\/docs/);
  });

  it('answers health and readiness probes', async () => {
    const health = await fetch(`${server.origin}/healthz`);
    assert.equal(health.status, 200);
    assert.deepEqual(await health.json(), { status: 'ok' });
    const ready = await fetch(`${server.origin}/readyz`);
    assert.equal(ready.status, 200);
  });

  it('serves the OpenAPI 3.1 document and a readable reference page', async () => {
    const doc: any = await (await fetch(`${server.baseUrl}/openapi.json`)).json();
    assert.equal(doc.openapi, '3.1.0');
    for (const path of [
      '/features',
      '/features/{featureId}',
      '/roadmap',
      '/changelog',
      '/bugs',
      '/errors',
      '/logs',
      '/i18n-telemetry',
      '/site-config',
      '/translations',
      '/version-check',
      '/features/{featureId}/votes/{voterId}',
      '/features/{featureId}/comments',
    ]) {
      assert.ok(doc.paths[path], path);
    }
    assert.ok(doc.paths['/features'].post.security.length > 0);
    assert.deepEqual(doc.paths['/site-config'].get.security, []);
    const page = await fetch(`${server.baseUrl}/docs`, { redirect: 'follow' });
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /text\/html/);
    assert.match(await page.text(), /swagger/i);
  });

  it('writes JSON log lines that carry the request id, and never the key', async () => {
    const res = await fetch(`${server.baseUrl}/features`, {
      headers: { 'x-api-key': DEFAULT_DEMO_API_KEY, 'x-request-id': 'log-check-1' },
    });
    assert.equal(res.headers.get('x-request-id'), 'log-check-1');
    await new Promise((resolve) => setTimeout(resolve, 200));
    const lines = server
      .output()
      .split('\n')
      .filter((line) => line.includes('log-check-1'));
    assert.ok(lines.length >= 2, 'request and response lines');
    for (const line of lines) {
      const entry = JSON.parse(line);
      assert.equal(entry.reqId, 'log-check-1');
    }
    const jsonLines = server
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'));
    assert.ok(jsonLines.length > 3);
    for (const line of jsonLines) assert.ok(!line.includes(DEFAULT_DEMO_API_KEY), line);
  });

  it('redacts keys and tokens in the URLs it logs (query, path and credential-shaped values)', async () => {
    const secrets = {
      sentryKey: 'svc_live_sentrykeyinquery00000001',
      signInToken: 'signin-link-secret-4f9a',
      inviteToken: 'invite-secret-7c21',
      dashboardInvite: 'dash-invite-secret-93be',
      oauthCode: 'sp_ac_oauthcodesecret5d1e',
      unsubscribe: 'unsub-secret-aa01',
      bareKey: 'svc_test_bare0key0in0a0path0000',
    };
    const origin = server.origin;
    const urls = [
      `${origin}/api/1/envelope/?sentry_version=7&sentry_key=${secrets.sentryKey}`,
      `${origin}/b/demo/sign-in/link?token=${secrets.signInToken}&returnTo=%2F`,
      `${origin}/api/v1/invites/${secrets.inviteToken}`,
      `${origin}/app/invites/${secrets.dashboardInvite}`,
      `${origin}/oauth/callback?state=s1&code=${secrets.oauthCode}`,
      `${origin}/unsubscribe?token=${secrets.unsubscribe}`,
      `${origin}/nowhere/${secrets.bareKey}`,
    ];
    for (const url of urls) await (await fetch(url, { headers: { 'x-request-id': 'redact-check' } })).arrayBuffer();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const lines = server
      .output()
      .split('\n')
      .filter((line) => line.includes('redact-check'));
    assert.ok(lines.length >= urls.length * 2, 'request and response lines');
    const requestLines = lines.filter((line) => line.includes('incoming request'));
    assert.equal(requestLines.filter((line) => line.includes('[redacted]')).length, urls.length);
    for (const line of server
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'))) {
      for (const [name, secret] of Object.entries(secrets)) assert.ok(!line.includes(secret), `${name} in: ${line}`);
    }
  });
});

describe('configuration', () => {
  it('stops start-up with a clear message naming each bad setting', () => {
    const result = spawnSync(process.execPath, [MAIN], {
      env: {
        ...process.env,
        PORT: 'eighty',
        DATABASE_URL: 'mysql://db',
        LOG_LEVEL: 'loud',
        DEMO_ENABLED: 'perhaps',
        SQLITE_CHECKPOINT_PAGES: '5',
      },
      encoding: 'utf8',
      timeout: 20_000,
    });
    assert.equal(result.status, 78);
    assert.match(result.stderr, /Invalid configuration/);
    for (const name of ['PORT', 'DATABASE_URL', 'LOG_LEVEL', 'DEMO_ENABLED', 'SQLITE_CHECKPOINT_PAGES'])
      assert.match(result.stderr, new RegExp(name));
  });
});
