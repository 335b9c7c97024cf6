/**
 * Webhooks through a real server and a real receiver: every wired event arrives, signed (checked
 * with the `standardwebhooks` library); retries after 500s and after a timeout follow the backoff;
 * an item's events arrive in order; an endpoint that keeps failing is disabled and its team
 * e-mailed; send-test, redeliver and rotation; the Slack, Discord and Teams formats; the management
 * API's validation and scoping. Private targets: delivery-private-targets.test.ts.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { WEBHOOK_EVENTS, backoffMs } from '../../../src/resources/webhooks/index.ts';
import { startMailbox, type Mailbox } from '../../support/mailbox.ts';
import { managedProject } from '../../support/manage-fixtures.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { startWebhookReceiver, verified, type WebhookReceiver } from '../../support/webhook-receiver.ts';
import { createHook, deliveries, newFeature, until } from '../../support/webhook-hooks.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('webhooks', () => {
  let server: TestServer;
  let mailbox: Mailbox;
  let receiver: WebhookReceiver;

  before(async () => {
    mailbox = await startMailbox();
    receiver = await startWebhookReceiver();
    server = await startTestServer({
      env: {
        SMTP_URL: mailbox.url,
        WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true',
        WEBHOOKS_POLL_MS: '20',
        WEBHOOKS_RETRY_BASE_MS: '150',
        WEBHOOKS_MAX_ATTEMPTS: '3',
        // Two seconds: a receiver on a busy machine (npm test's lanes side by side) took longer than
        // the 400 ms this was, and every late answer was sent again (same webhook-id, at least once).
        WEBHOOKS_TIMEOUT_MS: '2000',
        WEBHOOKS_DISABLE_AFTER: '2',
      },
    });
  });
  after(async () => {
    await server.close();
    await receiver.close();
    await mailbox.close();
  });

  it('every wired event arrives once, signed, with its data; repeats of an error or a missing key do not', async () => {
    const p = await managedProject(server);
    const hook = await createHook(p, `${receiver.origin}/ok/all`, WEBHOOK_EVENTS);
    const featureId = await newFeature(p.live);
    const base = `/projects/${p.projectId}/features/${featureId}`;
    assert.equal((await p.admin.patch(base, { status: 'planned' })).status, 200);
    assert.equal((await p.admin.patch(base, { internal: true })).status, 200);
    assert.equal((await p.admin.patch(base, { internal: false })).status, 200);
    const comment = await p.live.post(`/features/${featureId}/comments`, { body: 'Me too!', authorName: 'Ann' });
    assert.equal(comment.status, 201, comment.text);
    const entry = await p.admin.post(`/projects/${p.projectId}/changelog`, {
      summary: 'Dark mode is here',
      featureId,
      published: true,
    });
    assert.equal(entry.status, 201, entry.text);
    const error = { title: 'TypeError: x is undefined', message: 'x is undefined at render' };
    const first = await p.live.post('/errors', error);
    assert.equal(first.status, 201, first.text);
    assert.equal((await p.live.post('/errors', error)).body.duplicate, true);
    const resolved = await p.admin.patch(`/projects/${p.projectId}/errors/${first.body.id}`, { status: 'resolved' });
    assert.equal(resolved.status, 200, resolved.text);
    assert.equal((await p.live.post('/errors', error)).status, 200);
    assert.equal((await p.live.post('/errors', error)).status, 200, 'a regressed group repeating tells nothing');
    for (let i = 0; i < 2; i++) {
      const telemetry = await p.live.post('/i18n-telemetry', { locale: 'de', missingKeys: ['home.title'] });
      assert.equal(telemetry.status, 200, telemetry.text);
    }
    // An idea resolved in 3.0.0 ships when that release is created (issue 33).
    const shippedId = await newFeature(p.live);
    const resolution = await p.admin.put(`/projects/${p.projectId}/features/${shippedId}/resolution`, {
      release: '3.0.0',
    });
    assert.equal(resolution.status, 200, resolution.text);
    const release = await p.admin.post(`/projects/${p.projectId}/releases`, { version: '3.0.0', title: 'Three' });
    assert.equal(release.status, 201, release.text);

    // Ten, then four of the release: publishing the entry shipped its idea (planned → done), a
    // status change of its own; the release's idea is created, moves to done and ships.
    const got = await receiver.waitFor('/ok/all', 14);
    await sleep(400);
    assert.equal(
      receiver.to('/ok/all').length,
      14,
      `nothing more arrives: ${receiver
        .to('/ok/all')
        .map((r) => `${JSON.parse(r.body).type} ${r.headers['webhook-id']}`)
        .join(', ')}`,
    );
    const bodies = got.map((request) => verified(hook.secret, request));
    // error.alert needs an alert rule (error-alerts.test.ts tells it), release.health_dropped a
    // release's sessions (release-health/health-dropped.test.ts).
    const told = new Set(['error.alert', 'release.health_dropped']);
    const wired = WEBHOOK_EVENTS.filter((event) => !told.has(event));
    assert.deepEqual([...new Set(bodies.map((body) => body.type))].sort(), [...wired].sort());
    // One item's events in the order they happened.
    const featureTypes = bodies.filter((body) => body.data.feature?.id === featureId).map((body) => body.type);
    assert.deepEqual(featureTypes, [
      'feature.created',
      'feature.status_changed',
      'feature.hidden',
      'feature.published',
      'comment.created',
      'feature.status_changed',
    ]);
    // The first of each type (the second status change is the shipping one, to done).
    const byType = Object.fromEntries(bodies.toReversed().map((body) => [body.type, body]));
    assert.equal(byType['feature.created'].data.feature.title, 'Dark mode for the app');
    assert.equal(byType['feature.created'].data.projectId, p.projectId);
    assert.equal(byType['feature.created'].data.environment, 'live');
    assert.match(byType['feature.created'].data.url, new RegExp(`/app/projects/${p.projectId}/inbox/${featureId}$`));
    assert.deepEqual(
      [byType['feature.status_changed'].data.to, byType['feature.hidden'].data.feature.internal],
      ['planned', true],
    );
    assert.equal(byType['comment.created'].data.comment.body, 'Me too!');
    assert.equal(byType['comment.created'].data.feature.title, 'Dark mode for the app');
    assert.equal(byType['changelog.published'].data.entry.summary, 'Dark mode is here');
    assert.equal(byType['error.new_group'].data.error.id, first.body.id);
    // Told per error group: the group's id, the same on both.
    assert.match(byType['error.new_group'].data.groupId, /^eg_/);
    assert.equal(byType['error.regressed'].data.error.groupId, byType['error.new_group'].data.groupId);
    assert.equal(byType['error.regressed'].data.error.title, error.title);
    assert.deepEqual(
      [byType['translation.missing_key'].data.key, byType['translation.missing_key'].data.locale],
      ['home.title', 'de'],
    );
    for (const request of got) {
      assert.match(request.headers['webhook-id']!, /^msg_/);
      assert.equal(request.headers['content-type'], 'application/json');
    }
    assert.equal(byType['release.created'].data.release.version, '3.0.0');
    assert.match(byType['release.created'].data.url, /\/releases\/3\.0\.0$/);
    assert.deepEqual(
      [byType['feature.shipped'].data.feature.id, byType['feature.shipped'].data.release.version],
      [shippedId, '3.0.0'],
    );
    assert.equal(new Set(got.map((request) => request.headers['webhook-id'])).size, 14);

    const log = await deliveries(p, hook.id);
    assert.equal(log.length, 14);
    for (const row of log) {
      assert.equal(row['state'], 'delivered');
      assert.equal(row['statusCode'], 204);
      assert.equal(row['attempts'], 1);
      assert.equal(typeof row['responseMs'], 'number');
      assert.equal(row['error'], null);
    }
  });

  it('an event chosen by no endpoint, or an endpoint switched off, queues nothing', async () => {
    const p = await managedProject(server);
    const hook = await createHook(p, `${receiver.origin}/ok/chosen`, ['comment.created']);
    const off = await createHook(p, `${receiver.origin}/ok/off`, ['feature.created'], { enabled: false });
    await newFeature(p.live);
    await sleep(300);
    assert.equal(receiver.to('/ok/chosen').length, 0);
    assert.equal(receiver.to('/ok/off').length, 0);
    assert.equal((await deliveries(p, hook.id)).length, 0);
    assert.equal((await deliveries(p, off.id)).length, 0);
  });

  it('retries after 500s with a doubling pause, keeping the webhook-id', async () => {
    const p = await managedProject(server);
    const hook = await createHook(p, `${receiver.origin}/fail/2/retry`, ['feature.created']);
    await newFeature(p.live);
    const got = await receiver.waitFor('/fail/2/retry', 3);
    assert.deepEqual(
      got.map((request) => request.answered),
      [500, 500, 204],
    );
    assert.equal(new Set(got.map((request) => request.headers['webhook-id'])).size, 1);
    for (const request of got) verified(hook.secret, request);
    assert.ok(got[1]!.at - got[0]!.at >= 150, `first pause ${got[1]!.at - got[0]!.at} ms`);
    assert.ok(got[2]!.at - got[1]!.at >= 300, `second pause ${got[2]!.at - got[1]!.at} ms`);
    await until('the delivery is recorded', async () => (await deliveries(p, hook.id))[0]?.['state'] === 'delivered');
    const [row] = await deliveries(p, hook.id);
    assert.equal(row!['attempts'], 3);
    assert.equal(row!['statusCode'], 204);
  });

  it('retries after a timeout', async () => {
    const p = await managedProject(server);
    const hook = await createHook(p, `${receiver.origin}/slow/1/timeout`, ['feature.created']);
    await newFeature(p.live);
    const got = await receiver.waitFor('/slow/1/timeout', 2);
    assert.equal(got[0]!.answered, 0, 'the first attempt got no answer in time');
    // The 2,000 ms timeout runs from the send, before the request arrives (connecting counts), and
    // the 150 ms backoff from the timeout: arrival to arrival is 2,150 ms less the first request's
    // way in, which took up to ~100 ms on a loaded 2-core machine (allowed here: 650). A retry
    // that did not wait for the timeout would come after the backoff alone (~150 ms).
    assert.ok(got[1]!.at - got[0]!.at >= 1500, `retried after ${got[1]!.at - got[0]!.at} ms`);
    await until('delivered', async () => (await deliveries(p, hook.id))[0]?.['state'] === 'delivered');
    assert.equal((await deliveries(p, hook.id))[0]!['attempts'], 2);
  });

  it('the default backoff spans about a day', () => {
    const pauses = Array.from({ length: 11 }, (_, i) => backoffMs(60_000, i + 1));
    assert.deepEqual(pauses.slice(0, 4), [60_000, 120_000, 240_000, 480_000]);
    assert.equal(Math.max(...pauses), 8 * 60 * 60 * 1000, 'a pause is at most 8 hours');
    const hours = pauses.reduce((sum, pause) => sum + pause, 0) / 3_600_000;
    assert.ok(hours > 20 && hours < 30, `12 attempts span ${hours.toFixed(1)} hours`);
  });

  it("an item's later event waits for its earlier one", async () => {
    const p = await managedProject(server);
    await createHook(p, `${receiver.origin}/fail/1/order`, ['feature.created', 'feature.status_changed']);
    const featureId = await newFeature(p.live);
    const base = `/projects/${p.projectId}/features/${featureId}`;
    assert.equal((await p.admin.patch(base, { status: 'planned' })).status, 200);
    assert.equal((await p.admin.patch(base, { status: 'in-progress' })).status, 200);
    const got = await receiver.waitFor('/fail/1/order', 4);
    const seen = got.map((request) => {
      const body = JSON.parse(request.body);
      return `${body.type}${body.data.to ? `:${body.data.to}` : ''}:${request.answered}`;
    });
    assert.deepEqual(seen, [
      'feature.created:500',
      'feature.created:204',
      'feature.status_changed:planned:204',
      'feature.status_changed:in-progress:204',
    ]);
  });

  it('an endpoint whose deliveries keep failing is disabled, and its team e-mailed', async () => {
    const p = await managedProject(server);
    const hook = await createHook(p, `${receiver.origin}/down/disable`, ['feature.created']);
    await newFeature(p.live, 'First failing idea');
    await newFeature(p.live, 'Second failing idea');
    const mail = await mailbox.waitFor(
      (m) => m.subject.startsWith('Webhook disabled') && m.text.includes('/down/disable'),
    );
    assert.match(mail.text, /HTTP 500/);
    assert.match(mail.text, new RegExp(`/app/projects/${p.projectId}/webhooks`));
    assert.equal(receiver.to('/down/disable').length, 6, 'three attempts each');
    const after = await p.member.get(`/projects/${p.projectId}/webhooks/${hook.id}`);
    assert.equal(after.body.enabled, false);
    assert.equal(after.body.consecutiveFailures, 2);
    assert.match(after.body.disabledReason, /HTTP 500/);
    const log = await deliveries(p, hook.id);
    assert.deepEqual(
      log.map((row) => [row['state'], row['attempts'], row['statusCode']]),
      [
        ['failed', 3, 500],
        ['failed', 3, 500],
      ],
    );
    // Disabled: new events queue nothing; enabling again clears the failures.
    await newFeature(p.live, 'Third idea');
    await sleep(200);
    assert.equal((await deliveries(p, hook.id)).length, 2);
    const enabled = await p.admin.patch(`/projects/${p.projectId}/webhooks/${hook.id}`, { enabled: true });
    assert.deepEqual(
      [enabled.body.enabled, enabled.body.consecutiveFailures, enabled.body.disabledReason],
      [true, 0, null],
    );
  });

  it('send-test, redeliver and secret rotation', async () => {
    const p = await managedProject(server);
    const hook = await createHook(p, `${receiver.origin}/ok/actions`, ['feature.created']);
    const test = await p.admin.post(`/projects/${p.projectId}/webhooks/${hook.id}/test`);
    assert.equal(test.status, 202, test.text);
    const [first] = await receiver.waitFor('/ok/actions', 1);
    assert.equal(verified(hook.secret, first!).type, 'webhook.test');
    await until('delivered', async () => (await deliveries(p, hook.id))[0]?.['state'] === 'delivered');

    const redelivered = await p.admin.post(
      `/projects/${p.projectId}/webhooks/${hook.id}/deliveries/${test.body.id}/redeliver`,
    );
    assert.equal(redelivered.status, 202, redelivered.text);
    assert.notEqual(redelivered.body.id, test.body.id);
    const got = await receiver.waitFor('/ok/actions', 2);
    assert.equal(got[1]!.headers['webhook-id'], first!.headers['webhook-id'], 'a redelivery keeps the webhook-id');
    verified(hook.secret, got[1]!);

    const rotated = await p.admin.post(`/projects/${p.projectId}/webhooks/${hook.id}/rotate-secret`);
    assert.equal(rotated.status, 200, rotated.text);
    assert.notEqual(rotated.body.secret, hook.secret);
    assert.equal(rotated.body.secretHint, `…${rotated.body.secret.slice(-4)}`);
    await p.admin.post(`/projects/${p.projectId}/webhooks/${hook.id}/test`);
    const third = (await receiver.waitFor('/ok/actions', 3))[2]!;
    verified(rotated.body.secret, third);
    assert.throws(() => verified(hook.secret, third), /signature/i);
    // The secret is shown only at creation and rotation.
    const listed = await p.member.get(`/projects/${p.projectId}/webhooks`);
    assert.equal(listed.status, 200);
    assert.equal(listed.body.webhooks[0].secret, undefined);
    assert.ok(!listed.text.includes(rotated.body.secret));
  });

  it('the Slack format posts an incoming-webhook payload with a link to the item', async () => {
    const p = await managedProject(server);
    await createHook(p, `${receiver.origin}/ok/slack`, ['feature.created'], { format: 'slack' });
    const featureId = await newFeature(p.live, 'Slack <b>idea</b>');
    const [request] = await receiver.waitFor('/ok/slack', 1);
    const body = JSON.parse(request!.body);
    assert.match(
      body.text,
      /^New feature request: <http:\/\/[^|]+\/inbox\/feat_[^|]+\|Slack &lt;b&gt;idea&lt;\/b&gt;>$/,
    );
    assert.ok(body.text.includes(featureId));
    assert.equal(body.blocks[0].type, 'section');
  });

  it('the Discord format posts an execute-webhook message within Discord limits, linking back', async () => {
    const p = await managedProject(server);
    await createHook(p, `${receiver.origin}/ok/discord`, ['feature.created', 'comment.created'], { format: 'discord' });
    const featureId = await newFeature(p.live, '@everyone *bold* idea');
    const long = 'x'.repeat(4990);
    const comment = await p.live.post(`/features/${featureId}/comments`, { body: long, authorName: 'Ann' });
    assert.equal(comment.status, 201, comment.text);
    const [created, commented] = await receiver.waitFor('/ok/discord', 2);
    for (const request of [created!, commented!]) {
      assert.match(request.headers['content-type']!, /^application\/json/);
      const body = JSON.parse(request.body);
      // The documented execute-webhook fields only, within their limits.
      assert.deepEqual(Object.keys(body).sort(), ['allowed_mentions', 'content', 'embeds']);
      assert.deepEqual(body.allowed_mentions, { parse: [] });
      assert.ok(body.content.length <= 2000);
      assert.equal(body.embeds.length, 1);
      const [embed] = body.embeds;
      assert.ok(embed.title.length >= 1 && embed.title.length <= 256);
      assert.ok(!embed.description || embed.description.length <= 4096);
      assert.ok(Number.isInteger(embed.color) && embed.color >= 0 && embed.color <= 0xffffff);
      assert.ok(!Number.isNaN(Date.parse(embed.timestamp)));
      assert.match(embed.url, new RegExp(`^http://[^/]+/app/projects/${p.projectId}/inbox/${featureId}$`));
      const total =
        embed.title.length +
        (embed.description ?? '').length +
        embed.footer.text.length +
        (embed.fields ?? []).reduce((sum: number, f: any) => sum + f.name.length + f.value.length, 0);
      assert.ok(total <= 6000);
      for (const field of embed.fields ?? []) assert.ok(field.name.length <= 256 && field.value.length <= 1024);
    }
    const first = JSON.parse(created!.body);
    assert.equal(first.content, 'New feature request: \\@everyone \\*bold\\* idea');
    assert.equal(first.embeds[0].title, '@everyone *bold* idea');
    const second = JSON.parse(commented!.body);
    assert.equal(second.content, 'Ann commented: \\@everyone \\*bold\\* idea');
    // A 4990-character comment is cut to what the embed may hold, ending in an ellipsis.
    assert.equal(second.embeds[0].description.length, 4096);
    assert.ok(second.embeds[0].description.endsWith('…'));
  });

  it('the Teams format posts a Workflows message with an Adaptive Card and a link back', async () => {
    const p = await managedProject(server);
    await createHook(p, `${receiver.origin}/ok/teams`, ['feature.status_changed'], { format: 'teams' });
    const featureId = await newFeature(p.live, 'Teams idea');
    const moved = await p.admin.patch(`/projects/${p.projectId}/features/${featureId}`, { status: 'planned' });
    assert.equal(moved.status, 200, moved.text);
    const [request] = await receiver.waitFor('/ok/teams', 1);
    const body = JSON.parse(request!.body);
    assert.equal(body.type, 'message');
    assert.equal(body.attachments.length, 1);
    const [attachment] = body.attachments;
    assert.equal(attachment.contentType, 'application/vnd.microsoft.card.adaptive');
    assert.equal(attachment.contentUrl, null);
    const card = attachment.content;
    assert.equal(card.type, 'AdaptiveCard');
    assert.equal(card.$schema, 'http://adaptivecards.io/schemas/adaptive-card.json');
    assert.equal(card.version, '1.4');
    assert.ok(card.body.every((element: any) => ['TextBlock', 'FactSet'].includes(element.type)));
    assert.equal(card.body[0].text, 'Status changed from open to planned');
    assert.equal(card.body[1].text, 'Teams idea');
    const facts = card.body.find((element: any) => element.type === 'FactSet').facts;
    assert.deepEqual(facts, [
      { title: 'From', value: 'open' },
      { title: 'To', value: 'planned' },
    ]);
    assert.deepEqual(card.actions, [
      {
        type: 'Action.OpenUrl',
        title: 'Open in Signpost',
        url: `${card.actions[0].url.split('/app/')[0]}/app/projects/${p.projectId}/inbox/${featureId}`,
      },
    ]);
    assert.match(card.actions[0].url, /^http:\/\//);
  });

  it('management API: validation, roles and scoping', async () => {
    const p = await managedProject(server);
    const other = await managedProject(server);
    const url = `${receiver.origin}/ok/validation`;
    const path = `/projects/${p.projectId}/webhooks`;
    for (const bad of [
      { url, events: [] },
      { url, events: ['feature.deleted'] },
      { url, events: ['feature.created', 'feature.created'] },
      { url: 'ftp://example.com/hook', events: ['feature.created'] },
      { url: 'https://user:pw@example.com/hook', events: ['feature.created'] },
      { url, events: ['feature.created'], format: 'msteams' },
      { events: ['feature.created'] },
    ]) {
      const response = await p.admin.post(path, bad);
      assert.equal(response.status, 400, `${JSON.stringify(bad)}: ${response.text}`);
    }
    assert.equal((await p.member.post(path, { url, events: ['feature.created'] })).status, 403);
    assert.equal((await p.outsider.post(path, { url, events: ['feature.created'] })).status, 404);
    assert.equal((await p.outsider.get(path)).status, 404);
    const hook = await createHook(p, url, ['feature.created']);
    const foreign = `/projects/${other.projectId}/webhooks/${hook.id}`;
    assert.equal((await other.admin.get(foreign)).status, 404);
    assert.equal((await other.admin.patch(foreign, { enabled: false })).status, 404);
    assert.equal((await other.admin.delete(foreign)).status, 404);
    assert.equal((await other.admin.post(`${foreign}/test`)).status, 404);
    assert.equal((await other.admin.get(`${foreign}/deliveries`)).status, 404);
    assert.equal((await p.admin.patch(`${path}/${hook.id}`, {})).status, 400);
    assert.equal((await p.admin.get(`${path}/${hook.id}/deliveries`, { query: { limit: 0 } })).status, 400);
    const updated = await p.admin.patch(`${path}/${hook.id}`, {
      events: ['comment.created'],
      description: 'Team chat',
    });
    assert.equal(updated.status, 200, updated.text);
    assert.deepEqual([updated.body.events, updated.body.description], [['comment.created'], 'Team chat']);
    assert.equal((await p.admin.delete(`${path}/${hook.id}`)).status, 204);
    assert.equal((await p.admin.get(`${path}/${hook.id}`)).status, 404);
  });
});
