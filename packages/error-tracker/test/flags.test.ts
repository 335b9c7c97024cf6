/**
 * Flags on error events (issue 33): the tracker's flag buffer (newest last, a re-evaluation moves
 * to the end, at most 100) and its OpenFeature hook, with the published OFREP provider and
 * `@openfeature/server-sdk` evaluating real Signpost flags; the captured error carries them and
 * Signpost shows them on the event.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { zstdDecompressSync } from 'node:zlib';
import { OFREPProvider } from '@openfeature/ofrep-provider';
import { OpenFeature } from '@openfeature/server-sdk';
import { sdkTestEnv } from '@signpost/test-support/env';
import { createErrorTracker, MAX_FLAGS, openFeatureHook } from '@signpost/error-tracker';

after(() => OpenFeature.close());
const { server } = await sdkTestEnv();

/** The flags of the event a report's group kept, as the management API's event page shows them. */
async function storedFlags(projectId: string, title: string): Promise<unknown> {
  const row = await server.db.get<{ payload: string }>(
    `SELECT e.payload FROM error_events e JOIN error_groups g ON g.id = e.group_id
      WHERE g.project_id = ? AND g.title = ? ORDER BY e.ordinal DESC LIMIT 1`,
    [projectId, title],
  );
  assert.ok(row, `an event of ${title}`);
  // Stored as 'j' and the JSON, or 'z' and the JSON zstd-compressed in base64 (larger events).
  const json = row.payload.startsWith('j')
    ? row.payload.slice(1)
    : zstdDecompressSync(Buffer.from(row.payload.slice(1), 'base64')).toString('utf8');
  return (JSON.parse(json) as { contexts?: { flags?: unknown } }).contexts?.flags;
}

describe('feature flags on error events', () => {
  test('addFeatureFlag keeps the last evaluations, newest last, and the report carries them', async () => {
    const p = await server.createProject();
    const tracker = createErrorTracker({ apiKey: p.liveKey, baseUrl: server.baseUrl });
    tracker.addFeatureFlag('new-checkout', true);
    tracker.addFeatureFlag('theme', 'dark');
    tracker.addFeatureFlag('new-checkout', false);
    const result = await tracker.captureException(new Error('checkout exploded with flags'));
    assert.ok(result?.id);
    assert.deepEqual(await storedFlags(p.projectId, 'Error: checkout exploded with flags'), {
      values: [
        { flag: 'theme', result: 'dark' },
        { flag: 'new-checkout', result: false },
      ],
    });

    for (let i = 0; i < MAX_FLAGS + 5; i++) tracker.addFeatureFlag(`f${i}`, i);
    const second = await tracker.captureException(new Error('too many flags to keep them all'));
    assert.ok(second?.id, JSON.stringify(tracker.stats));
    // The same throw site: the same group, whose newest event this is.
    const kept = (await storedFlags(p.projectId, 'Error: checkout exploded with flags')) as {
      values: { flag: string }[];
    };
    assert.equal(kept.values.length, MAX_FLAGS);
    assert.equal(kept.values[0]!.flag, 'f5');
    assert.equal(kept.values.at(-1)!.flag, `f${MAX_FLAGS + 4}`);
    await tracker.close();
  });

  test('the OpenFeature hook records what the OFREP provider evaluated before the error', async () => {
    const p = await server.createProject();
    await server.db.run(
      "INSERT INTO feature_flags (id, project_id, key, enabled, created_at) VALUES ('ofh1', ?, 'new-payment', 1, '2026-01-01T00:00:00Z')",
      [p.projectId],
    );
    await server.db.run('UPDATE projects SET config_version = config_version + 1 WHERE id = ?', [p.projectId]);
    const tracker = createErrorTracker({ apiKey: p.liveKey, baseUrl: server.baseUrl });
    await OpenFeature.setProviderAndWait(
      'error-tracker-hook',
      new OFREPProvider({ baseUrl: server.origin, headers: [['X-API-Key', p.liveKey]] }),
    );
    const client = OpenFeature.getClient('error-tracker-hook');
    client.addHooks(openFeatureHook(tracker));
    assert.equal(await client.getBooleanValue('new-payment', false, { targetingKey: 'user-1' }), true);
    assert.equal(await client.getBooleanValue('missing-flag', false, { targetingKey: 'user-1' }), false);
    await tracker.captureException(new Error('payment failed after the flag'));
    // A failed evaluation (no such flag) ran the error hooks, not `after`: only real answers are kept.
    assert.deepEqual(await storedFlags(p.projectId, 'Error: payment failed after the flag'), {
      values: [{ flag: 'new-payment', result: true }],
    });
    await tracker.close();
  });
});
