/**
 * Webhook endpoints on private addresses (loopback, link-local, private ranges) are refused unless
 * WEBHOOKS_ALLOW_PRIVATE_TARGETS is set: at creation and again at delivery, through a real server.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { managedProject } from '../../support/manage-fixtures.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../support/webhook-receiver.ts';
import { createHook, deliveries, newFeature, until } from '../../support/webhook-hooks.ts';

describe('webhooks: private targets without WEBHOOKS_ALLOW_PRIVATE_TARGETS', () => {
  let server: TestServer;
  let receiver: WebhookReceiver;

  before(async () => {
    receiver = await startWebhookReceiver();
    server = await startTestServer({ env: { WEBHOOKS_POLL_MS: '20', WEBHOOKS_MAX_ATTEMPTS: '1' } });
  });
  after(async () => {
    await server.close();
    await receiver.close();
  });

  it('refuses loopback and private addresses when created, and at delivery after resolving the name', async () => {
    const p = await managedProject(server);
    const path = `/projects/${p.projectId}/webhooks`;
    for (const url of [
      `${receiver.origin}/ok/private`,
      'http://localhost:8080/hook',
      'http://10.1.2.3/hook',
      'http://192.168.0.10/hook',
      'http://169.254.169.254/latest/meta-data',
      'http://[::1]:8080/hook',
      'http://[fd00::1]/hook',
      'http://[::ffff:127.0.0.1]/hook',
      'http://224.0.0.1/hook',
    ]) {
      const response = await p.admin.post(path, { url, events: ['feature.created'] });
      assert.equal(response.status, 400, `${url}: ${response.text}`);
      assert.match(response.body.error, /private/);
    }
    // A name is checked at every delivery, after resolving it: an endpoint whose name resolves to
    // loopback now (its DNS changed after creation) is refused then.
    const port = new URL(receiver.origin).port;
    const created = await createHook(p, 'http://example.com/ok/private', ['feature.created']);
    await server.db.run('UPDATE webhook_endpoints SET url = ? WHERE id = ?', [
      `http://localhost:${port}/ok/private`,
      created.id,
    ]);
    const hookId = created.id;
    await newFeature(p.live);
    await until('the delivery fails', async () => (await deliveries(p, hookId))[0]?.['state'] === 'failed');
    const [row] = await deliveries(p, hookId);
    assert.match(row!['error'], /refused: .* resolves to (127\.0\.0\.1|::1)/);
    assert.equal(row!['statusCode'], null);
    assert.equal(receiver.to('/ok/private').length, 0, 'no request reached the private target');
  });
});
