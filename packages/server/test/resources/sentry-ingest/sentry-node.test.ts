/**
 * The real @sentry/node, configured with nothing but the DSN Signpost gives, reports an
 * exception, a message and logs; the stored reports are read back through the management API.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { type ManagedProject, managedProject } from '../../support/manage-fixtures.ts';
import { freePort } from '../../support/mcp.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';

const run = promisify(execFile);
const APP = fileURLToPath(new URL('../../fixtures/sentry/node-app.ts', import.meta.url));

describe('Sentry ingest: @sentry/node', () => {
  let server: TestServer;
  let p: ManagedProject;
  before(async () => {
    // The DSN's host is the server's public URL: the address the test server listens on.
    const port = await freePort();
    server = await startTestServer({ env: { PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` } });
    p = await managedProject(server);
  });
  after(() => server.close());

  it('shows a ready DSN with each key, the whole one only when the key is created', async () => {
    const created = await p.owner.post(`/projects/${p.projectId}/keys`, {
      name: 'sentry',
      environment: 'live',
      scopes: ['errors:write', 'logs:write'],
    });
    assert.equal(created.status, 201, created.text);
    const number = (await server.db.get<{ ingest_number: number }>('SELECT ingest_number FROM projects WHERE id = ?', [
      p.projectId,
    ]))!.ingest_number;
    const host = `127.0.0.1:${new URL(server.origin).port}`;
    assert.equal(created.body.sentryDsn, `http://${created.body.key}@${host}/${number}`);
    const listed = await p.member.get(`/projects/${p.projectId}/keys`);
    assert.equal(listed.status, 200, listed.text);
    assert.ok(listed.body.keys.length >= 3);
    for (const key of listed.body.keys) assert.equal(key.sentryDsn, `http://<key>@${host}/${number}`);
    assert.doesNotMatch(listed.text, new RegExp(created.body.key));
  });

  it('stores what an unchanged @sentry/node sends to the DSN', async () => {
    const created = await p.owner.post(`/projects/${p.projectId}/keys`, {
      environment: 'live',
      scopes: ['errors:write', 'logs:write'],
    });
    const dsn: string = created.body.sentryDsn;
    const { stdout } = await run(process.execPath, [APP, dsn], { timeout: 60_000 });
    assert.equal(stdout.trim(), 'flushed');

    const errors = await p.owner.get(`/projects/${p.projectId}/errors`, { query: { environment: 'live' } });
    assert.equal(errors.status, 200, errors.text);
    const titles = errors.body.errors.map((e: any) => e.title).sort();
    assert.equal(titles.length, 2, errors.text);
    const thrown = errors.body.errors.find((e: any) => e.errorType === 'TypeError');
    assert.ok(thrown, errors.text);
    assert.match(thrown.title, /^TypeError: Cannot read properties of undefined \(reading 'amount'\)$/);
    assert.equal(thrown.severity, 'high');
    assert.equal(thrown.release, 'shop@1.4.2');

    const full = await p.owner.get(`/projects/${p.projectId}/errors/${thrown.id}`);
    assert.equal(full.status, 200, full.text);
    const lines = full.body.stackTrace.split('\n');
    assert.equal(lines[0], thrown.title);
    // Newest call first, as a JavaScript stack reads.
    assert.match(lines[1], /^ {4}at readTotal \(.*node-app\.ts:\d+:\d+\)$/);
    assert.match(lines[2], /^ {4}at checkout \(.*node-app\.ts:\d+:\d+\)$/);
    assert.equal(full.body.app.version, 'shop@1.4.2');
    assert.equal(full.body.app.environment, 'production');
    assert.equal(full.body.app.userId, 'user-42');
    assert.equal(full.body.app.userEmail, 'ada@example.com');
    const crumbs = full.body.breadcrumbs.map((b: any) => [b.type, b.message]);
    assert.deepEqual(
      crumbs.filter(([type]: string[]) => type !== 'console'),
      [
        ['click', 'Clicked "Save draft"'],
        ['http', 'GET /api/cart [500]'],
      ],
    );
    assert.ok(full.body.device.os, JSON.stringify(full.body.device));

    const message = errors.body.errors.find((e: any) => e.title === 'Payment provider slow to answer');
    assert.ok(message, errors.text);
    assert.equal(message.severity, 'medium');

    const logs = await p.owner.get(`/projects/${p.projectId}/logs`);
    assert.equal(logs.status, 200, logs.text);
    const byMessage = new Map(logs.body.logs.map((l: any) => [l.message, l]));
    const started: any = byMessage.get('Checkout started');
    assert.ok(started, logs.text);
    assert.equal(started.level, 'info');
    assert.equal(started.appVersion, 'shop@1.4.2');
    const failed: any = byMessage.get('Payment failed for order A-17');
    assert.ok(failed, logs.text);
    assert.equal(failed.level, 'error');
  });
});
