/**
 * `release.health_dropped` (issue 33) end to end: the real @sentry/node reports sessions of two
 * releases; the newer one's crash-free sessions fall below the project's threshold and more than
 * its points below the previous release's, and a webhook receiver gets each drop once, signed
 * (verified with the `standardwebhooks` library), not again on later passes. The settings are the
 * management API's: members read, admins change, bad input is a 400 that changes nothing.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { type ManagedProject, managedProject } from '../../support/manage-fixtures.ts';
import { freePort } from '../../support/mcp.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { startWebhookReceiver, verified, type WebhookReceiver } from '../../support/webhook-receiver.ts';

const run = promisify(execFile);
const APP = fileURLToPath(new URL('../../fixtures/sentry/session-app.ts', import.meta.url));

describe('release.health_dropped', () => {
  let server: TestServer;
  let receiver: WebhookReceiver;
  let p: ManagedProject;
  let dsn: string;

  before(async () => {
    receiver = await startWebhookReceiver();
    const port = await freePort();
    server = await startTestServer({
      env: {
        PORT: String(port),
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true',
        WEBHOOKS_POLL_MS: '20',
        RELEASE_HEALTH_CHECK_INTERVAL_MS: '200',
      },
    });
    p = await managedProject(server);
    const key = await p.owner.post(`/projects/${p.projectId}/keys`, { environment: 'live', scopes: ['errors:write'] });
    assert.equal(key.status, 201, key.text);
    dsn = key.body.sentryDsn;
  });
  after(async () => {
    await server.close();
    await receiver.close();
  });

  const settingsPath = () => `/projects/${p.projectId}/release-health-settings`;

  it('has the defaults, members read, admins change, bad input changes nothing', async () => {
    const read = await p.member.get(settingsPath());
    assert.equal(read.status, 200, read.text);
    assert.deepEqual(read.body, { crashFreeThreshold: 99, maxDropPoints: 5, minSessions: 10 });
    assert.equal((await p.member.patch(settingsPath(), { minSessions: 1 })).status, 403);
    assert.equal((await p.outsider.get(settingsPath())).status, 404);
    for (const bad of [{}, { crashFreeThreshold: 150 }, { minSessions: 0 }, { crashFreeThreshold: 99.123 }, { x: 1 }]) {
      const refused = await p.admin.patch(settingsPath(), bad);
      assert.equal(refused.status, 400, `${JSON.stringify(bad)}: ${refused.text}`);
    }
    assert.deepEqual((await p.member.get(settingsPath())).body, read.body);
    const changed = await p.admin.patch(settingsPath(), { minSessions: 2, maxDropPoints: 10.5 });
    assert.equal(changed.status, 200, changed.text);
    assert.deepEqual(changed.body, { crashFreeThreshold: 99, maxDropPoints: 10.5, minSessions: 2 });
  });

  it('tells each drop of a release once, signed', async () => {
    const hook = await p.admin.post(`/projects/${p.projectId}/webhooks`, {
      url: `${receiver.origin}/ok/health`,
      events: ['release.health_dropped'],
    });
    assert.equal(hook.status, 201, hook.text);
    const runs: [string, string, string][] = [
      ['shop@7.0.0', 'ada', 'ok'],
      ['shop@7.0.0', 'bob', 'ok'],
      ['shop@7.1.0', 'ada', 'ok'],
      ['shop@7.1.0', 'cyd', 'crash'],
    ];
    for (const [release, user, mode] of runs) {
      const result = await run(process.execPath, [APP, dsn, release, user, mode], { timeout: 60_000 }).catch(
        (error: { stdout?: string }) => error,
      );
      if (mode !== 'crash') assert.equal(result.stdout?.trim(), 'flushed');
    }
    const got = await receiver.waitFor('/ok/health', 2);
    const bodies = got.map((request) => verified(hook.body.secret, request));
    assert.deepEqual(bodies.map((b) => b.type).sort(), ['release.health_dropped', 'release.health_dropped']);
    const byReason = new Map(bodies.map((b) => [b.data.reason, b.data]));
    assert.deepEqual([...byReason.keys()].sort(), ['previous', 'threshold']);
    const data = byReason.get('threshold');
    assert.equal(data.projectId, p.projectId);
    assert.equal(data.environment, 'live');
    assert.deepEqual(data.release, { version: '7.1.0' });
    assert.equal(data.crashFreeSessions, 0.5);
    assert.equal(data.sessions, 2);
    assert.equal(data.threshold, 0.99);
    assert.deepEqual(data.previous, { version: '7.0.0', crashFreeSessions: 1 });
    assert.match(data.url, /\/releases\/7\.1\.0$/);
    // Later passes find the same drop: nothing more is told.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    assert.equal(receiver.to('/ok/health').length, 2);
  });
});
