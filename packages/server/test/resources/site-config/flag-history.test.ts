/**
 * Flags next to errors (issue 33): every flag change through the management API and MCP is in the
 * flag's history (who, key environment, old and new state), paged by cursor; a Sentry event from
 * the real @sentry/node carries the flags its featureFlagsIntegration saw; a flag turned on just
 * before a new error group is that group's suspect, and its history shows the error rate after.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { callTool, connectMcp, startMcpTestServer } from '../../support/mcp.ts';
import { type ManagedProject, managedProject } from '../../support/manage-fixtures.ts';
import type { TestServer } from '../../support/server.ts';

const run = promisify(execFile);
const APP = fileURLToPath(new URL('../../fixtures/sentry/flags-app.ts', import.meta.url));

describe('flag history, flags on error events, suspect flags', () => {
  let server: TestServer;
  let p: ManagedProject;
  let dsn: string;
  const flagPath = (key: string, rest = '') => `/projects/${p.projectId}/site-config/flags/${key}${rest}`;
  const history = async (key: string, query: Record<string, string | number> = {}) => {
    const response = await p.member.get(flagPath(key, '/history'), { query });
    assert.equal(response.status, 200, response.text);
    return response.body;
  };
  const groupOf = async (title: string) => {
    const response = await p.member.get(`/projects/${p.projectId}/error-groups`, { query: { q: title } });
    assert.equal(response.status, 200, response.text);
    assert.equal(response.body.groups.length, 1, response.text);
    const detail = await p.member.get(`/projects/${p.projectId}/error-groups/${response.body.groups[0].id}`);
    assert.equal(detail.status, 200, detail.text);
    return detail.body;
  };
  const latestEvent = async (groupId: string) => {
    const events = await p.member.get(`/projects/${p.projectId}/error-groups/${groupId}/events`);
    assert.equal(events.status, 200, events.text);
    const event = await p.member.get(
      `/projects/${p.projectId}/error-groups/${groupId}/events/${events.body.events[0].eventId}`,
    );
    assert.equal(event.status, 200, event.text);
    return event.body;
  };

  before(async () => {
    server = await startMcpTestServer();
    p = await managedProject(server);
    const key = await p.owner.post(`/projects/${p.projectId}/keys`, { environment: 'live', scopes: ['errors:write'] });
    assert.equal(key.status, 201, key.text);
    dsn = key.body.sentryDsn;
  });
  after(() => server.close());

  it('records every change through the API and MCP, who made it, in which environment, by page', async () => {
    assert.equal((await p.admin.put(flagPath('checkout-v2'), { enabled: true })).status, 201);
    assert.equal((await p.admin.put(flagPath('checkout-v2'), { enabled: false })).status, 200);
    const unchanged = await p.admin.put(flagPath('checkout-v2'), { enabled: false });
    assert.equal(unchanged.status, 200, 'a PUT that changes nothing records nothing');
    const testOnly = await p.admin.put(flagPath('checkout-v2'), { enabled: false, environmentValues: { test: true } });
    assert.equal(testOnly.status, 200, testOnly.text);
    // Refused writes record nothing.
    assert.equal((await p.member.put(flagPath('checkout-v2'), { enabled: true })).status, 403);
    assert.equal((await p.admin.put(flagPath('checkout-v2'), { type: 'number', value: 'x' })).status, 400);

    const key = await p.owner.post(`/projects/${p.projectId}/keys`, { environment: 'live', scopes: ['config:write'] });
    assert.equal(key.status, 201, key.text);
    const mcp = await connectMcp(server.origin, { key: key.body.key });
    try {
      const result = await callTool(mcp.client, 'site_config', {
        projectId: p.projectId,
        action: 'set_flag',
        flagKey: 'checkout-v2',
        enabled: true,
      });
      assert.notEqual(result.isError, true, JSON.stringify(result.content));
    } finally {
      await mcp.close();
    }
    assert.equal((await p.admin.delete(flagPath('checkout-v2'))).status, 204);

    const all = await history('checkout-v2');
    assert.deepEqual(
      all.changes.map((c: any) => [c.action, c.environment, c.actor.type, c.changedFields]),
      [
        [
          'deleted',
          null,
          'token',
          ['enabled', 'environmentValues', 'rolloutPercentage', 'rules', 'type', 'value', 'key'],
        ],
        ['changed', null, 'api-key', ['enabled']],
        ['changed', 'test', 'token', ['environmentValues']],
        ['changed', null, 'token', ['enabled']],
        [
          'created',
          null,
          'token',
          ['key', 'enabled', 'type', 'value', 'environmentValues', 'rolloutPercentage', 'rules'],
        ],
      ].map(([action, environment, type, fields]) => [action, environment, type, (fields as string[]).sort()]),
      JSON.stringify(all.changes.map((c: any) => c.changedFields)),
    );
    const [deleted, byMcp, , turnedOff, created] = all.changes;
    assert.equal(created.oldValue, null);
    assert.equal(created.newValue.enabled, true);
    assert.equal(turnedOff.oldValue.enabled, true);
    assert.equal(turnedOff.newValue.enabled, false);
    assert.equal(turnedOff.actor.name, 'Admin');
    assert.match(byMcp.actor.id, /^key_/);
    assert.equal(deleted.newValue, null);
    assert.equal(deleted.oldValue.enabled, true);
    for (const change of all.changes) assert.equal(change.errorRate.before, 0);

    // Pages by cursor: the same changes, in the same order.
    const first = await history('checkout-v2', { limit: 2 });
    assert.equal(first.changes.length, 2);
    const second = await history('checkout-v2', { limit: 2, cursor: first.nextCursor });
    const third = await history('checkout-v2', { limit: 2, cursor: second.nextCursor });
    assert.equal(third.nextCursor, null);
    assert.deepEqual(
      [...first.changes, ...second.changes, ...third.changes].map((c: any) => c.id),
      all.changes.map((c: any) => c.id),
    );

    assert.equal((await p.outsider.get(flagPath('checkout-v2', '/history'))).status, 404);
    assert.equal((await p.member.get(flagPath('never-made', '/history'))).status, 404);
    assert.equal((await p.member.get(flagPath('checkout-v2', '/history'), { query: { limit: 0 } })).status, 400);
  });

  it('a flag turned on before a new error group is its suspect; the event carries the flags evaluated', async () => {
    // Changed two hours before: not a suspect.
    assert.equal((await p.admin.put(flagPath('old-banner'), { enabled: true })).status, 201);
    await server.db.run("UPDATE flag_changes SET created_at = ? WHERE project_id = ? AND flag_key = 'old-banner'", [
      new Date(Date.now() - 2 * 3600_000).toISOString(),
      p.projectId,
    ]);
    // Only the test environment: cannot explain a live group.
    assert.equal(
      (await p.admin.put(flagPath('test-only'), { enabled: true, environmentValues: { test: false } })).status,
      201,
    );
    assert.equal(
      (await p.admin.put(flagPath('test-only'), { enabled: true, environmentValues: { test: true } })).status,
      200,
    );
    assert.equal((await p.admin.put(flagPath('new-payment'), { enabled: false })).status, 201);
    assert.equal((await p.admin.put(flagPath('new-payment'), { enabled: true })).status, 200);

    const { stdout } = await run(
      process.execPath,
      [APP, dsn, 'PaymentFlagError', 'new-payment=true', 'old-banner=false'],
      {
        timeout: 60_000,
      },
    );
    assert.equal(stdout.trim(), 'flushed');

    const group = await groupOf('PaymentFlagError');
    assert.deepEqual(
      group.suspectFlags
        .filter((f: any) => f.flagKey !== 'checkout-v2')
        .map((f: any) => [f.flagKey, f.action, f.enabled]),
      [
        ['new-payment', 'changed', true],
        ['new-payment', 'created', false],
        ['test-only', 'created', true],
      ],
    );
    assert.equal(group.suspectFlags[0].actorName, 'Admin');

    const event = await latestEvent(group.id);
    assert.deepEqual(event.flags, [
      { flag: 'new-payment', result: true },
      { flag: 'old-banner', result: false },
    ]);

    const turnedOn = (await history('new-payment')).changes[0];
    assert.equal(turnedOn.errorRate.environment, 'live');
    assert.equal(turnedOn.errorRate.before, 0);
    assert.ok(turnedOn.errorRate.after > 0, JSON.stringify(turnedOn.errorRate));

    // Resolved, then a flag changes and the error comes back: the regression's suspect is that flag.
    const resolved = await p.admin.patch(`/projects/${p.projectId}/error-groups/${group.id}`, { status: 'resolved' });
    assert.equal(resolved.status, 200, resolved.text);
    assert.equal((await p.admin.put(flagPath('retry-payments'), { enabled: true })).status, 201);
    const again = await run(process.execPath, [APP, dsn, 'PaymentFlagError', 'retry-payments=true'], {
      timeout: 60_000,
    });
    assert.equal(again.stdout.trim(), 'flushed');
    const regressed = await groupOf('PaymentFlagError');
    assert.equal(regressed.status, 'regressed');
    assert.deepEqual(regressed.suspectFlags[0], {
      flagKey: 'retry-payments',
      action: 'created',
      environment: null,
      changedAt: regressed.suspectFlags[0].changedAt,
      enabled: true,
      actorName: 'Admin',
    });
    assert.deepEqual((await latestEvent(group.id)).flags, [{ flag: 'retry-payments', result: true }]);
  });

  it('POST /errors takes the flags evaluated before the error and shows them on the event', async () => {
    const flags = [
      { flag: 'dark-mode', result: 'on' },
      { flag: 'limit', result: 3 },
    ];
    const sent = await p.live.post('/errors', {
      title: 'FlagsOnReport failed',
      message: 'The report carries its flags',
      errorType: 'FlagsOnReport',
      flags,
    });
    assert.equal(sent.status, 201, sent.text);
    const group = await groupOf('FlagsOnReport');
    assert.deepEqual((await latestEvent(group.id)).flags, flags);
    const tooMany = await p.live.post('/errors', {
      title: 'FlagsOnReport failed',
      message: 'The report carries its flags',
      flags: Array.from({ length: 101 }, (_, i) => ({ flag: `f${i}`, result: true })),
    });
    assert.equal(tooMany.status, 400, tooMany.text);
  });
});
