/**
 * An agent doing a team member's work through the hosted MCP server (issue 34), with the official
 * SDK client over Streamable HTTP and an API key: triage (the most-voted open idea: comment, set
 * planned, one follower e-mail), debugging (the newest error group: read its stack, resolve it in
 * the next release; logs around it), site configuration (a flag off for test keys), a changelog
 * draft, send_feedback, the three resources; a read-only key refused every write with the scope
 * named; the size of tools/list.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ALL_KEY_SCOPES, createApiKey } from '../../src/resources/projects/index.ts';
import { MCP_AREA_TOOLS, MCP_READ_SCOPES, MCP_TOOL_SCOPES } from '../../src/routing/mcp/scopes.ts';
import { Api } from '../support/api.ts';
import { createFollower } from '../support/followers.ts';
import { callTool, connectMcp, postMcp, startMcpTestServer, textOf, type Connected } from '../support/mcp.ts';
import type { TestProject, TestServer } from '../support/server.ts';

/** Area reads that need an id (of an idea, group, line, release, flag or person). */
const NEEDS_AN_ID = new Set(['get', 'person', 'attachments', 'events', 'event', 'around', 'overview', 'flag_history']);
const data = (result: { structuredContent?: unknown }) => result.structuredContent as any;

describe('an agent works through the hosted MCP tools (API key)', () => {
  let server: TestServer;
  let project: TestProject;
  let other: TestProject;
  let live: Connected;
  let client: Client;
  let api: Api;
  let readOnlyKey: string;
  const ideas: string[] = [];
  let otherIdea: string;

  before(async () => {
    server = await startMcpTestServer();
    project = await server.createProject({ scopes: ALL_KEY_SCOPES });
    other = await server.createProject({ scopes: ALL_KEY_SCOPES });
    readOnlyKey = (await createApiKey(server.db, project.projectId, 'live', MCP_READ_SCOPES)).key;
    live = await connectMcp(server.origin, { key: project.liveKey });
    client = live.client;
    api = new Api(server.baseUrl, project.liveKey);
    // Three ideas with 1, 3 and 2 votes; one idea of another project.
    for (const [title, votes] of [
      ['Dark mode for the dashboard', 1],
      ['Export ideas as CSV', 3],
      ['Keyboard shortcuts', 2],
    ] as const) {
      const created = await api.post('/features', { title, description: `Please add: ${title.toLowerCase()}.` });
      assert.equal(created.status, 201);
      ideas.push(created.body.id);
      for (let voter = 0; voter < votes; voter++) {
        assert.equal((await api.put(`/features/${created.body.id}/votes/voter-${voter}`)).status, 200);
      }
    }
    otherIdea = (
      await new Api(server.baseUrl, other.liveKey).post('/features', {
        title: 'Other project idea',
        description: 'Not reachable from the first project.',
      })
    ).body.id;
    // Two errors (the second newest, in release 1.2.0) and log lines around them.
    for (const [title, version] of [
      ['TypeError in cart', '1.1.0'],
      ['RangeError in checkout', '1.2.0'],
    ] as const) {
      const reported = await api.post('/errors', {
        title,
        message: `${title}: something went wrong while paying`,
        errorType: title.split(' ')[0],
        stackTrace: `${title.split(' ')[0]}: bad\n    at pay (checkout.js:42:7)`,
        app: { version, environment: 'production' },
      });
      assert.equal(reported.status, 201);
      await new Promise((resolve) => setTimeout(resolve, 15));
    }
    const logs = await api.post('/logs', {
      logs: [
        { level: 'error', message: 'checkout failed: amount out of range', category: 'checkout' },
        { level: 'info', message: 'cart loaded', category: 'cart' },
      ],
    });
    assert.ok(logs.status < 300, `logs: ${logs.status}`);
  });
  after(async () => {
    await live?.close();
    await server?.close();
  });

  it('lists thirteen tools in at most 5,000 tokens (characters / 4)', async () => {
    const { tools } = await client.listTools();
    assert.equal(tools.length, 13);
    const tokens = Math.ceil(JSON.stringify(tools).length / 4);
    console.log(
      `tools/list: ${tools.length} tools, ${JSON.stringify(tools).length} characters, about ${tokens} tokens`,
    );
    assert.ok(tokens <= 5000, `tools/list is about ${tokens} tokens`);
    for (const tool of tools) assert.equal(tool.outputSchema?.type, 'object', `${tool.name} has an output schema`);
  });

  it('finds the most-voted open idea, comments and sets it planned (one follower e-mail)', async () => {
    const follower = await createFollower(server.db, project.projectId, [ideas[1]!]);
    const found = data(
      await callTool(client, 'feedback', { projectId: project.projectId, action: 'search', status: 'open', limit: 1 }),
    );
    assert.equal(found.items[0].id, ideas[1]);
    assert.equal(found.items[0].voteCount, 3);
    assert.equal(found.total, 3);
    assert.equal(found.items[0].uri, `signpost://projects/${project.projectId}/ideas/${ideas[1]}`);

    const commented = await callTool(client, 'feedback', {
      projectId: project.projectId,
      action: 'comment',
      featureId: ideas[1],
      body: 'Thanks, we are on it.',
    });
    assert.equal(commented.isError, undefined, textOf(commented));
    const planned = data(
      await callTool(client, 'feedback', {
        projectId: project.projectId,
        action: 'set_status',
        featureId: ideas[1],
        status: 'planned',
      }),
    );
    assert.equal(planned.item.status, 'planned');
    const read = data(
      await callTool(client, 'feedback', { projectId: project.projectId, action: 'get', featureId: ideas[1] }),
    );
    assert.equal(read.item.status, 'planned');
    assert.deepEqual(
      read.item.comments.map((comment: any) => [comment.body, comment.authorName]),
      [['Thanks, we are on it.', 'Team']],
    );
    const outbox = await server.db.all<{ user_id: string }>(
      'SELECT user_id FROM notification_outbox WHERE feature_id = ?',
      [ideas[1]!],
    );
    assert.deepEqual(
      outbox.map((row) => row.user_id),
      [follower.id],
    );
    // The public API shows the comment and the status: one implementation behind both.
    assert.equal((await api.get(`/features/${ideas[1]}`)).body.status, 'planned');
  });

  it('finds the newest error group, reads its stack and resolves it in the next release', async () => {
    const found = data(await callTool(client, 'errors', { projectId: project.projectId, action: 'search', limit: 5 }));
    assert.equal(found.total, 2);
    const newest = found.items[0];
    assert.equal(newest.title, 'RangeError in checkout');
    const read = data(
      await callTool(client, 'errors', { projectId: project.projectId, action: 'get', errorId: newest.id }),
    );
    // The group with its latest event: the stack, and the release it was last seen in.
    assert.match(JSON.stringify(read.item.latestEvent.event), /checkout\.js:42:7/);
    assert.equal(read.item.lastRelease, '1.2.0');
    assert.equal(read.item.history24h.buckets.length > 0, true);
    const resolved = data(
      await callTool(client, 'errors', {
        projectId: project.projectId,
        action: 'resolve',
        errorId: newest.id,
        inNextRelease: true,
      }),
    );
    assert.equal(resolved.item.status, 'resolved');
    const again = data(
      await callTool(client, 'errors', { projectId: project.projectId, action: 'get', errorId: newest.id }),
    );
    assert.equal(again.item.resolvedInRelease, '1.2.0');
  });

  it('searches the logs around the error', async () => {
    const found = data(
      await callTool(client, 'logs', {
        projectId: project.projectId,
        action: 'search',
        query: 'checkout',
        level: ['error'],
      }),
    );
    assert.equal(found.total, 1);
    assert.match(found.items[0].message, /amount out of range/);
    const read = data(
      await callTool(client, 'logs', { projectId: project.projectId, action: 'get', logId: found.items[0].id }),
    );
    assert.equal(read.item.category, 'checkout');
  });

  it('turns a flag off for test keys only', async () => {
    const on = data(
      await callTool(client, 'site_config', {
        projectId: project.projectId,
        action: 'set_flag',
        flagKey: 'new-checkout',
      }),
    );
    assert.equal(on.item.enabled, true);
    const off = data(
      await callTool(client, 'site_config', {
        projectId: project.projectId,
        action: 'set_flag',
        flagKey: 'new-checkout',
        environment: 'test',
        value: false,
      }),
    );
    assert.deepEqual(off.item.environmentValues, { test: false });
    // What the apps read: OFREP answers false to a test key and true to a live key.
    const evaluate = async (key: string) =>
      (await (
        await fetch(`${server.origin}/ofrep/v1/evaluate/flags/new-checkout`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ context: { targetingKey: 'user-1' } }),
        })
      ).json()) as { value: unknown };
    assert.equal((await evaluate(project.testKey)).value, false);
    assert.equal((await evaluate(project.liveKey)).value, true);
  });

  it('drafts a changelog entry for the idea and creates the release', async () => {
    const drafted = data(
      await callTool(client, 'changelog', {
        projectId: project.projectId,
        action: 'draft',
        summary: 'CSV export',
        description: '<p>Export ideas as CSV.</p><script>alert(1)</script>',
        featureId: ideas[1],
      }),
    );
    assert.equal(drafted.item.state, 'draft');
    assert.equal(drafted.item.featureId, ideas[1]);
    assert.doesNotMatch(drafted.item.description, /script/);
    const release = data(
      await callTool(client, 'releases', { projectId: project.projectId, action: 'create', version: 'v1.3.0' }),
    );
    assert.equal(release.item.version, '1.3.0');
    const duplicate = await callTool(client, 'releases', {
      projectId: project.projectId,
      action: 'create',
      version: '1.3.0',
    });
    assert.equal(duplicate.isError, true);
    assert.match(textOf(duplicate), /Release 1\.3\.0 already exists/);
  });

  it('reads an idea, an error group and a release as resources', async () => {
    const errors = data(await callTool(client, 'errors', { projectId: project.projectId, action: 'search' }));
    for (const uri of [
      `signpost://projects/${project.projectId}/ideas/${ideas[0]}`,
      errors.items[0].uri,
      `signpost://projects/${project.projectId}/releases/1.3.0`,
    ]) {
      const { contents } = await client.readResource({ uri });
      assert.equal(contents[0]!.uri, uri);
      assert.ok(JSON.parse((contents[0] as { text: string }).text).id);
    }
    await assert.rejects(
      client.readResource({ uri: `signpost://projects/${project.projectId}/ideas/${otherIdea}` }),
      /not found/,
    );
  });

  it('reports a problem with send_feedback as a bug report, repeats counted on it', async () => {
    const report = {
      projectId: project.projectId,
      issueType: 'unsupported_action',
      tool: 'feedback',
      errorCode: 'no_link_action',
      summary: 'Needed to link an error group to an idea; no action does that.',
      clientName: 'signpost-tests',
      clientVersion: '1.0.0',
    };
    const first = data(await callTool(client, 'send_feedback', report));
    assert.equal(first.duplicate, false);
    const second = data(await callTool(client, 'send_feedback', report));
    assert.equal(second.duplicate, true);
    assert.equal(second.reportId, first.reportId);
    const row = await server.db.get<{ title: string; occurrences: number; metadata: string }>(
      'SELECT title, occurrences, metadata FROM bug_reports WHERE id = ?',
      [first.reportId],
    );
    assert.equal(row?.title, 'Agent feedback: unsupported_action in feedback (no_link_action)');
    assert.equal(Number(row?.occurrences), 2);
    assert.deepEqual(JSON.parse(row!.metadata).client, { name: 'signpost-tests', version: '1.0.0' });
  });

  it('keeps error alert rules: creates a spike rule of 500, mutes it, lists it, deletes it', async () => {
    const call = (args: Record<string, unknown>) =>
      callTool(client, 'errors', { projectId: project.projectId, ...args });
    const rule = { name: 'Checkout spike', kind: 'spike', spikeEvents: 500, spikeMinutes: 5, recipients: [] };
    const created = data(await call({ action: 'set_alert', rule }));
    assert.equal(created.item.kind, 'spike');
    assert.equal(created.item.spikeEvents, 500);
    assert.equal(created.item.enabled, true);
    const muted = await call({ action: 'set_alert', ruleId: created.item.id, rule: { ...rule, enabled: false } });
    assert.match(textOf(muted), /\(muted\)/);
    const listed = data(await call({ action: 'alerts' }));
    assert.deepEqual(
      listed.items.map((item: any) => [item.id, item.name, item.enabled]),
      [[created.item.id, 'Checkout spike', false]],
    );
    // The same rows the management API reads.
    const row = await server.db.get<{ enabled: number }>('SELECT enabled FROM error_alert_rules WHERE id = ?', [
      created.item.id,
    ]);
    assert.equal(Number(row?.enabled), 0);
    // A timed mute through the same use case: `mute: '24h'` sets mutedUntil a day ahead, rule on.
    const from = Date.now();
    const day = await call({ action: 'set_alert', ruleId: created.item.id, rule: { ...rule, mute: '24h' } });
    assert.match(textOf(day), /\(muted until \d{4}-/);
    const timed = data(day).item;
    assert.equal(timed.enabled, true);
    const until = Date.parse(timed.mutedUntil);
    assert.ok(until >= from + 86_400_000 && until <= Date.now() + 86_400_000, timed.mutedUntil);
    const badMute = await call({ action: 'set_alert', ruleId: created.item.id, rule: { ...rule, mute: '2h' } });
    assert.equal(badMute.isError, true);
    assert.match(textOf(badMute), /Invalid rule\.mute/);
    const forever = data(
      await call({ action: 'set_alert', ruleId: created.item.id, rule: { ...rule, mute: 'forever' } }),
    );
    assert.deepEqual([forever.item.enabled, forever.item.mutedUntil], [false, null]);

    const noCount = await call({ action: 'set_alert', rule: { ...rule, spikeEvents: undefined } });
    assert.equal(noCount.isError, true);
    assert.match(textOf(noCount), /A spike rule needs spikeEvents/);
    const badKind = await call({ action: 'set_alert', rule: { ...rule, kind: 'sometimes' } });
    assert.equal(badKind.isError, true);
    assert.match(textOf(badKind), /Invalid rule\.kind/);
    const stranger = await call({ action: 'set_alert', rule: { ...rule, recipients: ['acc_nobody'] } });
    assert.match(textOf(stranger), /not a member of the project team/);
    assert.equal(data(await call({ action: 'alerts' })).total, 1, 'refused rules changed nothing');

    assert.equal(data(await call({ action: 'delete_alert', ruleId: created.item.id })).deleted, created.item.id);
    const again = await call({ action: 'delete_alert', ruleId: created.item.id });
    assert.equal(again.isError, true);
    assert.match(textOf(again), /Not found/);
    assert.equal(data(await call({ action: 'alerts' })).total, 0);
  });

  it('keeps to its project and answers bad input with an actionable tool error', async () => {
    const foreign = await callTool(client, 'feedback', {
      projectId: project.projectId,
      action: 'get',
      featureId: otherIdea,
    });
    assert.equal(foreign.isError, true);
    assert.match(textOf(foreign), /not found in project/);
    assert.doesNotMatch(textOf(foreign), new RegExp(other.projectId));
    const elsewhere = await callTool(client, 'feedback', { projectId: other.projectId, action: 'search' });
    assert.equal(elsewhere.isError, true);
    const missing = await callTool(client, 'errors', { projectId: project.projectId, action: 'resolve' });
    assert.equal(missing.isError, true);
    assert.match(textOf(missing), /errorId is required for action resolve/);
    const unknown = await callTool(client, 'feedback', { projectId: project.projectId, action: 'explode' });
    assert.equal(unknown.isError, true);
    assert.match(textOf(unknown), /action must be one of: search, get, comment, set_status, note/);
  });

  it('refuses every write of a read-only key with 403 naming the scope, and serves its reads', async () => {
    const writes: [string, Record<string, unknown>, string][] = [];
    for (const [tool, area] of Object.entries(MCP_AREA_TOOLS)) {
      for (const action of area.writes) writes.push([tool, { action }, area.write]);
    }
    for (const [tool, scope] of Object.entries(MCP_TOOL_SCOPES)) {
      if (!(MCP_READ_SCOPES as readonly string[]).includes(scope)) writes.push([tool, {}, scope]);
    }
    assert.ok(writes.length >= 15);
    for (const [tool, args, scope] of writes) {
      const response = await postMcp(
        server.origin,
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: tool, arguments: { projectId: project.projectId, ...args } },
        },
        { authorization: `Bearer ${readOnlyKey}` },
      );
      assert.equal(response.status, 403, `${tool} ${JSON.stringify(args)}`);
      assert.match(response.headers.get('www-authenticate')!, new RegExp(`scope="${scope}"`));
      assert.match(((await response.json()) as any).error, new RegExp(`lacks the ${scope} scope, which ${tool}`));
    }
    const reader = await connectMcp(server.origin, { key: readOnlyKey });
    try {
      for (const [tool, area] of Object.entries(MCP_AREA_TOOLS)) {
        // The admin-only audit log is refused to read access (below); reads that need an id are tested
        // with one in team-actions.test.ts.
        if (tool === 'audit') continue;
        for (const action of area.reads) {
          if (NEEDS_AN_ID.has(action)) continue;
          const result = await callTool(reader.client, tool, { projectId: project.projectId, action });
          assert.equal(result.isError, undefined, `${tool} ${action}: ${textOf(result)}`);
        }
      }
    } finally {
      await reader.close();
    }
    // Nothing changed: the idea keeps its status and the flag its value.
    assert.equal((await api.get(`/features/${ideas[0]}`)).body.status, 'open');
  });
});
