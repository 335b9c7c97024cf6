/**
 * The published server-side OFREP provider (`@openfeature/ofrep-provider`) with
 * `@openfeature/server-sdk`, unchanged, pointed at Signpost: single evaluations with a
 * targetingKey and context, a sticky and roughly proportional rollout, a rule match, a missing
 * flag answering the code default, a bad key an error.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { OFREPProvider } from '@openfeature/ofrep-provider';
import { OpenFeature } from '@openfeature/server-sdk';
import { type ManagedProject, managedProject } from '../support/manage-fixtures.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

let server: TestServer;
let project: ManagedProject;

before(async () => {
  server = await startTestServer();
  project = await managedProject(server);
  const flags = `/projects/${project.projectId}/site-config/flags`;
  for (const [key, body] of Object.entries({
    'new-checkout': { enabled: true, rolloutPercentage: 30 },
    'support-chat': {
      enabled: true,
      type: 'string',
      value: 'bot',
      environmentValues: { test: 'sandbox-bot' },
      rules: [
        { attribute: 'email', operator: 'ends_with', value: '@acme.com', serve: 'human' },
        { attribute: 'appVersion', operator: 'semver_gte', value: '3.0.0', serve: 'bot-v3' },
      ],
    },
    'page-size': { enabled: true, type: 'number', value: 25 },
    'retired-text': { enabled: false, type: 'string', value: 'new text' },
  })) {
    assert.equal((await project.admin.put(`${flags}/${key}`, body)).status, 201);
  }
});
after(async () => {
  await OpenFeature.close();
  await server.close();
});

async function clientWith(domain: string, key: string) {
  const provider = new OFREPProvider({ baseUrl: server.origin, headers: [['Authorization', `Bearer ${key}`]] });
  await OpenFeature.setProviderAndWait(domain, provider);
  return OpenFeature.getClient(domain);
}

test('a percentage rollout is sticky per targetingKey and roughly proportional', async () => {
  const client = await clientWith('rollout', project.liveKey);
  const users = Array.from({ length: 1000 }, (_, i) => `user-${i}`);
  // In batches: a thousand requests at once would mostly measure opening sockets.
  const evaluate = async () => {
    const details = [];
    for (let i = 0; i < users.length; i += 25)
      details.push(
        ...(await Promise.all(
          users
            .slice(i, i + 25)
            .map((targetingKey) => client.getBooleanDetails('new-checkout', false, { targetingKey })),
        )),
      );
    return details;
  };
  const at30 = await evaluate();
  const inside = new Set(users.filter((_, i) => at30[i]!.value));
  assert.ok(inside.size >= 250 && inside.size <= 350, `${inside.size} of 1000 at 30 %`);
  assert.ok(at30.every((d) => d.reason === 'SPLIT' && d.errorCode === undefined));
  // Asked again: the same answers.
  const again = await evaluate();
  assert.deepEqual(
    again.map((d) => d.value),
    at30.map((d) => d.value),
  );
  // Growing the rollout keeps everyone who was in.
  const flags = `/projects/${project.projectId}/site-config/flags`;
  await project.admin.put(`${flags}/new-checkout`, { enabled: true, rolloutPercentage: 60 });
  const at60 = await evaluate();
  const insideNow = users.filter((_, i) => at60[i]!.value);
  assert.ok(insideNow.length >= 550 && insideNow.length <= 650, `${insideNow.length} of 1000 at 60 %`);
  for (const user of inside) assert.ok(insideNow.includes(user), `${user} stays in the rollout`);
  // No targeting key: not in the rollout.
  assert.equal(await client.getBooleanValue('new-checkout', true, {}), false);
});

test('rules on context attributes, first match wins; values per key environment; types', async () => {
  const live = await clientWith('rules-live', project.liveKey);
  const human = await live.getStringDetails('support-chat', 'none', {
    targetingKey: 'u1',
    email: 'ana@acme.com',
    appVersion: '3.2.0',
  });
  assert.deepEqual([human.value, human.reason, human.variant], ['human', 'TARGETING_MATCH', 'rule-1']);
  const v3 = await live.getStringDetails('support-chat', 'none', { targetingKey: 'u2', appVersion: '3.0.1' });
  assert.deepEqual([v3.value, v3.reason], ['bot-v3', 'TARGETING_MATCH']);
  const old = await live.getStringDetails('support-chat', 'none', { targetingKey: 'u3', appVersion: '2.9.9' });
  assert.deepEqual([old.value, old.reason], ['bot', 'DEFAULT']);
  assert.equal(await live.getNumberValue('page-size', 10, { targetingKey: 'u1' }), 25);
  // Off, with no off value: no value is sent, the code default answers (OFREP ADR-0006). The
  // provider (0.1.x) predates that ADR and reports it as an error, with the code default all the same.
  const retired = await live.getStringDetails('retired-text', 'code default', { targetingKey: 'u1' });
  assert.equal(retired.value, 'code default');

  const test = await clientWith('rules-test', project.testKey);
  assert.equal(await test.getStringValue('support-chat', 'none', { targetingKey: 'u3' }), 'sandbox-bot');
});

test('a missing flag answers the code default with FLAG_NOT_FOUND; a bad key answers defaults with an error', async () => {
  const client = await clientWith('missing', project.liveKey);
  const missing = await client.getBooleanDetails('no-such-flag', true, { targetingKey: 'u1' });
  assert.deepEqual([missing.value, missing.errorCode], [true, 'FLAG_NOT_FOUND']);
  const mismatch = await client.getBooleanDetails('page-size', false, { targetingKey: 'u1' });
  assert.deepEqual([mismatch.value, mismatch.errorCode], [false, 'TYPE_MISMATCH']);

  const other = await server.createProject();
  const stranger = await clientWith('stranger', other.liveKey);
  const notTheirs = await stranger.getStringDetails('support-chat', 'none', { targetingKey: 'u1' });
  assert.deepEqual([notTheirs.value, notTheirs.errorCode], ['none', 'FLAG_NOT_FOUND']);

  const bad = await clientWith('bad-key', 'svc_live_not-a-real-key');
  const refused = await bad.getStringDetails('support-chat', 'fallback', { targetingKey: 'u1' });
  assert.equal(refused.value, 'fallback');
  assert.ok(refused.errorCode !== undefined, 'an error code for a refused key');
});
