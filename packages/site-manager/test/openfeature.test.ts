import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { sdkTestEnv } from '@signpost/test-support/env';
import { OpenFeature, ProviderEvents, ProviderStatus } from '@openfeature/web-sdk';
import { SignpostProvider } from '@signpost/site-manager/openfeature';
import { createErrorTracker } from '@signpost/error-tracker';
import { zstdDecompressSync } from 'node:zlib';

// Registered first, so OpenFeature stops polling before the server closes.
after(() => OpenFeature.close());
const { server } = await sdkTestEnv();

test('the OpenFeature web SDK answers Signpost flags from the cache and hears about changes', async () => {
  const p = await server.createProject();
  await server.db.run(
    "INSERT INTO feature_flags (id, project_id, key, enabled, created_at) VALUES ('of1', ?, 'new-checkout', 1, '2026-01-01T00:00:00Z')",
    [p.projectId],
  );
  await server.db.run('UPDATE projects SET config_version = config_version + 1 WHERE id = ?', [p.projectId]);
  const provider = new SignpostProvider({ baseUrl: server.baseUrl, projectId: p.projectId, refreshIntervalMs: 50 });
  await OpenFeature.setProviderAndWait('signpost-test', provider);
  const client = OpenFeature.getClient('signpost-test');
  assert.equal(client.providerStatus, ProviderStatus.READY);
  assert.equal(client.getBooleanValue('new-checkout', false), true);
  const details = client.getBooleanDetails('new-checkout', false);
  assert.deepEqual([details.variant, details.reason], ['on', 'STATIC']);
  const missing = client.getBooleanDetails('nope', true);
  assert.deepEqual([missing.value, missing.errorCode], [true, 'FLAG_NOT_FOUND']);
  assert.equal(client.getStringDetails('new-checkout', 'x').errorCode, 'TYPE_MISMATCH');

  const changed = new Promise<string[] | undefined>((resolve) =>
    client.addHandler(ProviderEvents.ConfigurationChanged, (event) => resolve(event?.flagsChanged)),
  );
  await server.db.run("UPDATE feature_flags SET enabled = 0 WHERE project_id = ? AND key = 'new-checkout'", [
    p.projectId,
  ]);
  await server.db.run('UPDATE projects SET config_version = config_version + 1 WHERE id = ?', [p.projectId]);
  assert.deepEqual(await changed, ['new-checkout']);
  assert.equal(client.getBooleanValue('new-checkout', true), false);
  await OpenFeature.clearProviders();
});

test('an unreachable server puts the provider in error; flags answer their defaults', async () => {
  const provider = new SignpostProvider({
    baseUrl: 'http://127.0.0.1:9/api/public/v1',
    projectId: 'demo',
    maxRetries: 0,
    refreshIntervalMs: 0,
    onError: () => {},
  });
  await OpenFeature.setProviderAndWait('signpost-down', provider).catch(() => {});
  const client = OpenFeature.getClient('signpost-down');
  assert.equal(client.providerStatus, ProviderStatus.ERROR);
  assert.equal(client.getBooleanValue('new-dashboard', true), true);
  await OpenFeature.clearProviders();
});

test('with errorTracker, the provider hands each evaluation to the tracker; its next error carries them', async () => {
  const p = await server.createProject();
  await server.db.run(
    "INSERT INTO feature_flags (id, project_id, key, enabled, created_at) VALUES ('of2', ?, 'new-payment', 1, '2026-01-01T00:00:00Z')",
    [p.projectId],
  );
  await server.db.run('UPDATE projects SET config_version = config_version + 1 WHERE id = ?', [p.projectId]);
  const tracker = createErrorTracker({ apiKey: p.liveKey, baseUrl: server.baseUrl });
  const provider = new SignpostProvider({
    baseUrl: server.baseUrl,
    projectId: p.projectId,
    refreshIntervalMs: 0,
    errorTracker: tracker,
  });
  await OpenFeature.setProviderAndWait('signpost-tracked', provider);
  const client = OpenFeature.getClient('signpost-tracked');
  assert.equal(client.getBooleanValue('new-payment', false), true);
  assert.equal(client.getBooleanValue('not-a-flag', false), false, 'a failed evaluation is not recorded');
  assert.ok((await tracker.captureException(new Error('payment failed with the flag on')))?.id);
  const row = await server.db.get<{ payload: string }>(
    `SELECT e.payload FROM error_events e JOIN error_groups g ON g.id = e.group_id WHERE g.project_id = ?`,
    [p.projectId],
  );
  const json = row!.payload.startsWith('j')
    ? row!.payload.slice(1)
    : zstdDecompressSync(Buffer.from(row!.payload.slice(1), 'base64')).toString('utf8');
  assert.deepEqual(JSON.parse(json).contexts.flags, { values: [{ flag: 'new-payment', result: true }] });
  await tracker.close();
  await OpenFeature.clearProviders();
});
