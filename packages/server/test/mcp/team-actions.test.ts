/**
 * The MCP actions over the wave-3 features (issue 34), with the official SDK client over
 * Streamable HTTP and API keys: each action answers what the management API answers for the
 * same item (one use case behind both), and a key without the action's scope is refused with
 * HTTP 403 naming it. Internal notes, the notify choice, error links, who asked, a person's
 * export (admin scope), attachments, error events, merge, log lines, the release page, resolving
 * in a release, flag history and the audit log (admin scope).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ALL_KEY_SCOPES, createApiKey } from '../../src/resources/projects/index.ts';
import { MCP_READ_SCOPES } from '../../src/routing/mcp/scopes.ts';
import { createFollower } from '../support/followers.ts';
import { managedProject, type ManagedProject } from '../support/manage-fixtures.ts';
import { callTool, connectMcp, postMcp, startMcpTestServer, textOf, type Connected } from '../support/mcp.ts';
import type { TestServer } from '../support/server.ts';

const data = (result: { structuredContent?: unknown }) => result.structuredContent as any;

describe('MCP actions over the new features (API key)', () => {
  let server: TestServer;
  let p: ManagedProject;
  let agent: Connected;
  let client: Client;
  let readKey: string;
  let idea: string;
  let errorId: string;
  let groupId: string;
  let otherGroupId: string;

  const call = async (tool: string, args: Record<string, unknown>) => {
    const result = await callTool(client, tool, { projectId: p.projectId, ...args });
    assert.equal(result.isError, undefined, `${tool} ${String(args['action'])}: ${textOf(result)}`);
    return data(result);
  };
  const manage = async (path: string, query?: Record<string, string>) => {
    const response = await p.admin.get(`/projects/${p.projectId}${path}`, query ? { query } : {});
    assert.equal(response.status, 200, response.text);
    return response.body;
  };
  /** A raw tools/call with the read-only key: HTTP 403 naming the scope, before the tool runs. */
  const refusedToReader = async (tool: string, args: Record<string, unknown>, scope: string) => {
    const response = await postMcp(
      server.origin,
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: tool, arguments: { projectId: p.projectId, ...args } },
      },
      { authorization: `Bearer ${readKey}` },
    );
    assert.equal(response.status, 403, `${tool} ${JSON.stringify(args)}`);
    assert.match(response.headers.get('www-authenticate')!, new RegExp(`scope="${scope}"`));
    assert.match(((await response.json()) as any).error, new RegExp(`lacks the ${scope} scope`));
  };

  before(async () => {
    server = await startMcpTestServer();
    p = await managedProject(server);
    const key = await createApiKey(server.db, p.projectId, 'live', [...ALL_KEY_SCOPES]);
    readKey = (await createApiKey(server.db, p.projectId, 'live', [...MCP_READ_SCOPES])).key;
    agent = await connectMcp(server.origin, { key: key.key });
    client = agent.client;
    const created = await p.live.post('/features', {
      title: 'Pay with a saved card',
      description: 'Let me keep my card for the next order.',
    });
    assert.equal(created.status, 201, created.text);
    idea = created.body.id;
    for (const voter of ['ann', 'bob']) {
      assert.equal((await p.live.put(`/features/${idea}/votes/${voter}`)).status, 200);
    }
    const recordIds: string[] = [];
    for (const [title, version, user] of [
      ['RangeError in checkout', '1.2.0', 'ann'],
      ['TypeError in cart', '1.2.0', 'bob'],
    ] as const) {
      const reported = await p.live.post('/errors', {
        title,
        message: `${title}: amount out of range`,
        errorType: title.split(' ')[0],
        stackTrace: `${title.split(' ')[0]}: bad\n    at pay (checkout.js:42:7)`,
        app: { version, environment: 'production', userId: user },
      });
      assert.equal(reported.status, 201, reported.text);
      recordIds.push(reported.body.id);
    }
    // The public API answers an error record's id; search lists the groups records fall in.
    errorId = recordIds[0]!;
    groupId = (await call('errors', { action: 'search', query: 'RangeError' })).items[0].id;
    otherGroupId = (await call('errors', { action: 'search', query: 'TypeError' })).items[0].id;
    assert.ok(groupId && otherGroupId && groupId !== otherGroupId);
    const logs = await p.live.post('/logs', {
      logs: [
        { level: 'error', message: 'payment declined', category: 'checkout', data: { order: 'o-17' } },
        { level: 'info', message: 'cart loaded', category: 'cart', data: { order: 'o-17' } },
        { level: 'info', message: 'cart loaded', category: 'cart', data: { order: 'o-18' } },
      ],
    });
    assert.equal(logs.status, 200, logs.text);
  });
  after(async () => {
    await agent?.close();
    await server?.close();
  });

  it('feedback note: an internal note the team sees and the board does not', async () => {
    const noted = await call('feedback', { action: 'note', featureId: idea, body: 'Stripe supports this.' });
    assert.equal(noted.item.internal, true);
    const comments = await manage(`/features/${idea}/comments`);
    assert.deepEqual(
      comments.comments.map((c: any) => [c.body, c.internal, c.team]),
      [['Stripe supports this.', true, true]],
    );
    const shown = await p.live.get(`/features/${idea}/comments`);
    assert.equal(shown.status, 200);
    assert.equal(JSON.stringify(shown.body).includes('Stripe supports'), false);
    await refusedToReader('feedback', { action: 'note', featureId: idea, body: 'x' }, 'feedback:write');
  });

  it('feedback set_status: a response, and notify false tells no follower', async () => {
    await createFollower(server.db, p.projectId, [idea]);
    const planned = await call('feedback', {
      action: 'set_status',
      featureId: idea,
      status: 'planned',
      response: 'Coming in the spring.',
      notify: false,
    });
    assert.equal(planned.item.status, 'planned');
    const row = await manage(`/features/${idea}`);
    assert.equal(row.statusResponse, 'Coming in the spring.');
    const outbox = await server.db.all('SELECT id FROM notification_outbox WHERE feature_id = ?', [idea]);
    assert.equal(outbox.length, 0);
  });

  it('feedback link and unlink: an idea and an error group, by an error id or a groupId', async () => {
    const linked = await call('feedback', { action: 'link', featureId: idea, errorId });
    assert.deepEqual(
      linked.item.errorGroups.map((g: any) => g.id),
      [groupId],
    );
    const links = await manage(`/features/${idea}/error-links`);
    assert.deepEqual(
      links.groups.map((g: any) => g.id),
      [groupId],
    );
    const read = await call('feedback', { action: 'get', featureId: idea });
    assert.deepEqual(
      read.item.errorGroups.map((g: any) => g.id),
      [groupId],
    );
    await call('feedback', { action: 'unlink', featureId: idea, errorId: groupId });
    assert.deepEqual((await manage(`/features/${idea}/error-links`)).groups, []);
    const again = await callTool(client, 'feedback', {
      projectId: p.projectId,
      action: 'unlink',
      featureId: idea,
      errorId: groupId,
    });
    assert.equal(again.isError, true);
    assert.match(textOf(again), /is not linked to error group/);
    await refusedToReader('feedback', { action: 'link', featureId: idea, errorId }, 'feedback:write');
    // Linked again for the release below.
    await call('feedback', { action: 'link', featureId: idea, errorId });
  });

  it('feedback person: who asked (voters with their person and company), and one person', async () => {
    const voters = await call('feedback', { action: 'person', featureId: idea });
    const votes = await manage(`/features/${idea}/votes`);
    assert.deepEqual(voters.items, votes.votes);
    assert.equal(voters.total, 2);
    const personId = voters.items.find((v: any) => v.voterId === 'ann').person.id;
    assert.ok(personId);
    assert.ok('company' in voters.items[0].person);
    const one = await call('feedback', { action: 'person', personId });
    assert.deepEqual(one.item, await manage(`/people/${personId}`));
    const readerSees = await connectMcp(server.origin, { key: readKey });
    try {
      const result = await callTool(readerSees.client, 'feedback', {
        projectId: p.projectId,
        action: 'person',
        personId,
      });
      assert.equal(result.isError, undefined, textOf(result));
    } finally {
      await readerSees.close();
    }
  });

  it('feedback person with query: finds people by name or e-mail, as the People screen does', async () => {
    const filed = await p.admin.post(`/projects/${p.projectId}/features`, {
      title: 'Offline mode',
      description: 'Heard in a call with Grace.',
      email: 'grace@people.test',
      name: 'Grace Hopper',
    });
    assert.equal(filed.status, 201, filed.text);
    const byName = await call('feedback', { action: 'person', query: 'hopper' });
    assert.deepEqual(byName.items, (await manage('/people', { q: 'hopper' })).people);
    assert.deepEqual(
      byName.items.map((person: any) => [person.name, person.email]),
      [['Grace Hopper', 'grace@people.test']],
    );
    const byAddress = await call('feedback', { action: 'person', query: 'GRACE@people' });
    assert.deepEqual(
      byAddress.items.map((person: any) => person.id),
      [byName.items[0].id],
    );
    assert.deepEqual((await call('feedback', { action: 'person', query: 'nobody-here' })).items, []);
    const missing = await callTool(client, 'feedback', { projectId: p.projectId, action: 'person' });
    assert.match(textOf(missing), /featureId, personId or query is required for action person/);
  });

  it('feedback create: an idea filed for a person (an address or a person id), with their vote', async () => {
    const byAddress = await call('feedback', {
      action: 'create',
      title: 'Print the invoice',
      body: 'Asked on the phone by Linus.',
      personId: 'linus@people.test',
    });
    assert.equal(byAddress.item.status, 'open');
    assert.equal(byAddress.item.voteCount, 1);
    const managed = await manage(`/features/${byAddress.item.id}`);
    assert.equal(managed.contactEmail, 'linus@people.test');
    const linus = (await manage('/people', { q: 'linus@people.test' })).people[0];
    const voters = await manage(`/features/${byAddress.item.id}/votes`);
    assert.deepEqual(
      voters.votes.map((vote: any) => vote.person.id),
      [linus.id],
    );
    const byId = await call('feedback', {
      action: 'create',
      title: 'Invoices in PDF',
      body: 'Asked again by the same person.',
      personId: linus.id,
      type: 'bug',
    });
    assert.equal(byId.item.type, 'bug');
    assert.equal((await manage(`/features/${byId.item.id}`)).contactEmail, 'linus@people.test');

    const refusals: [Record<string, unknown>, RegExp][] = [
      [{ body: 'No title given here.', personId: linus.id }, /title is required for action create/],
      [{ title: 'No person', body: 'Nobody to file it for.' }, /personId \(a person id or an e-mail address\)/],
      [{ title: 'Unknown', body: 'For someone unknown.', personId: 'per_nobody' }, /not a person of this project/],
      [{ title: 'Bad address', body: 'A bad e-mail address.', personId: 'a@b' }, /is not an e-mail address/],
      [{ title: 'Hi', body: 'Too short a title.', personId: linus.id }, /title must be 4 to 120 characters/],
    ];
    const before = (await manage('/features', { limit: '100' })).total;
    for (const [args, message] of refusals) {
      const refused = await callTool(client, 'feedback', { projectId: p.projectId, action: 'create', ...args });
      assert.equal(refused.isError, true, JSON.stringify(args));
      assert.match(textOf(refused), message);
    }
    assert.equal((await manage('/features', { limit: '100' })).total, before, 'a refusal files nothing');
    await refusedToReader(
      'feedback',
      { action: 'create', title: 'Read only', body: 'A reader cannot file.', personId: linus.id },
      'feedback:write',
    );
  });

  it('errors search lists groups; get, ignore and reopen take a group id or a record id', async () => {
    const found = await call('errors', { action: 'search' });
    const groups = (await manage('/error-groups')).groups;
    assert.deepEqual(
      found.items.map(({ uri: _uri, ...group }: any) => group),
      groups,
    );
    assert.equal(found.total, groups.length);
    assert.equal(found.items[0].uri, `signpost://projects/${p.projectId}/errors/${found.items[0].id}`);
    const byEnvironment = await call('errors', { action: 'search', environment: 'production', limit: 1 });
    assert.equal(byEnvironment.total, 2);
    assert.equal(byEnvironment.items.length, 1);
    const next = await call('errors', {
      action: 'search',
      environment: 'production',
      cursor: byEnvironment.nextCursor,
    });
    assert.notEqual(next.items[0].id, byEnvironment.items[0].id);
    assert.equal((await call('errors', { action: 'search', environment: 'staging' })).total, 0);

    const byRecord = await call('errors', { action: 'get', errorId });
    const byGroup = await call('errors', { action: 'get', errorId: groupId });
    assert.equal(byRecord.item.id, groupId);
    assert.deepEqual(byRecord.item, byGroup.item);
    assert.match(JSON.stringify(byGroup.item.latestEvent.event), /checkout\.js/);

    const ignored = await call('errors', { action: 'ignore', errorId });
    assert.equal(ignored.item.id, groupId);
    assert.equal((await manage(`/error-groups/${groupId}`)).status, 'ignored');
    await call('errors', { action: 'reopen', errorId: groupId });
    assert.equal((await manage(`/error-groups/${groupId}`)).status, 'open');
    const bad = await callTool(client, 'errors', { projectId: p.projectId, action: 'search', cursor: 'nope' });
    assert.match(textOf(bad), /cursor is not a nextCursor/);
  });

  it('feedback export_person: everything held, behind the admin scope people:export', async () => {
    const voters = await call('feedback', { action: 'person', featureId: idea });
    const personId = voters.items[0].person.id;
    const exported = await call('feedback', { action: 'export_person', personId });
    const response = await p.admin.post(`/projects/${p.projectId}/people/${personId}/export`);
    assert.equal(response.status, 200, response.text);
    const { exportedAt: _a, ...viaApi } = response.body;
    const { exportedAt: _b, ...viaMcp } = exported.item;
    assert.deepEqual(viaMcp, viaApi);
    await refusedToReader('feedback', { action: 'export_person', personId }, 'people:export');
    const missing = await callTool(client, 'feedback', { projectId: p.projectId, action: 'export_person' });
    assert.match(textOf(missing), /personId is required for action export_person/);
    // A key embedded in a page never exports a person, whatever scopes it was given.
    const embedded = await createApiKey(server.db, p.projectId, 'live', [...ALL_KEY_SCOPES], { publishable: true });
    const page = await connectMcp(server.origin, { key: embedded.key });
    try {
      const refused = await callTool(page.client, 'feedback', {
        projectId: p.projectId,
        action: 'export_person',
        personId,
      });
      assert.equal(refused.isError, true);
      assert.match(textOf(refused), /Publishable keys cannot use feedback \(action export_person\)/);
    } finally {
      await page.close();
    }
  });

  it('feedback attachments: the list the management API shows', async () => {
    const listed = await call('feedback', { action: 'attachments', featureId: idea });
    assert.deepEqual(listed.items, (await manage(`/features/${idea}/attachments`)).attachments);
    assert.equal(listed.total, 0);
  });

  it("errors events and event: a group's events and one in full, as the management API shows them", async () => {
    const events = await call('errors', { action: 'events', errorId });
    const viaApi = await manage(`/error-groups/${groupId}/events`);
    assert.deepEqual(events.items, viaApi.events.slice(0, 10));
    assert.equal(events.total, viaApi.kept);
    const latest = await call('errors', { action: 'event', errorId: groupId });
    const one = await manage(`/error-groups/${groupId}/events/${events.items[0].eventId}`);
    assert.deepEqual(latest.item, one);
    assert.match(JSON.stringify(latest.item.event), /checkout\.js/);
    const unknown = await callTool(client, 'errors', {
      projectId: p.projectId,
      action: 'event',
      errorId,
      eventId: 'nope',
    });
    assert.equal(unknown.isError, true);
    assert.match(textOf(unknown), /Not found/);
  });

  it('errors merge and unmerge: a group joins another and stands alone again', async () => {
    const merged = await call('errors', { action: 'merge', errorId: groupId, mergeIds: [otherGroupId] });
    assert.deepEqual(merged.mergedIds, [otherGroupId]);
    const detail = await manage(`/error-groups/${groupId}`);
    assert.deepEqual(
      detail.merged.map((g: any) => g.id),
      [otherGroupId],
    );
    const self = await callTool(client, 'errors', {
      projectId: p.projectId,
      action: 'merge',
      errorId: groupId,
      mergeIds: [groupId],
    });
    assert.match(textOf(self), /cannot be merged into itself/);
    await call('errors', { action: 'unmerge', errorId: otherGroupId });
    assert.deepEqual((await manage(`/error-groups/${groupId}`)).merged, []);
    await refusedToReader('errors', { action: 'merge', errorId: groupId, mergeIds: [otherGroupId] }, 'errors:triage');
    await refusedToReader('errors', { action: 'unmerge', errorId: otherGroupId }, 'errors:triage');
  });

  it('logs lines and around: a search with a field filter, then every line near one', async () => {
    const found = await call('logs', { action: 'lines', fields: 'data.order = o-17' });
    assert.deepEqual(found.items.map((l: any) => l.message).sort(), ['cart loaded', 'payment declined']);
    const viaApi = await manage('/logs/lines', { fields: 'data.order = o-17', limit: '20' });
    assert.deepEqual(found.items, viaApi.lines);
    const errorsOnly = await call('logs', { action: 'lines', level: ['error'], query: 'declined' });
    assert.equal(errorsOnly.items.length, 1);
    const group = (await call('logs', { action: 'search', query: 'cart loaded' })).items[0];
    const ofGroup = await call('logs', { action: 'lines', logId: group.id });
    assert.equal(ofGroup.items.length, 2);
    const around = await call('logs', { action: 'around', lineId: errorsOnly.items[0].id });
    assert.equal(around.item.id, errorsOnly.items[0].id);
    assert.equal(around.items.length, 3);
    const bad = await callTool(client, 'logs', { projectId: p.projectId, action: 'lines', fields: 'order' });
    assert.equal(bad.isError, true);
    assert.match(textOf(bad), /is not a field filter/);

    // A value behind more lines than a call searches (10,000 on SQLite): an empty page that has
    // more to read says so, and the cursor finds it (PostgreSQL's index finds it at once).
    await p.live.post('/logs', { logs: [{ level: 'info', message: 'needle', data: { needle: 'n-1' } }] });
    for (let batch = 0; batch < 101; batch++) {
      const logs = Array.from({ length: 100 }, (_, i) => ({ level: 'debug', message: `hay ${i}`, data: { batch } }));
      assert.equal((await p.live.post('/logs', { logs })).status, 200);
    }
    let cursor: string | undefined;
    let needles: unknown[] = [];
    for (let calls = 0; calls < 3 && needles.length === 0; calls++) {
      const page = await callTool(client, 'logs', {
        projectId: p.projectId,
        action: 'lines',
        fields: 'data.needle = n-1',
        ...(cursor ? { cursor } : {}),
      });
      ({ items: needles } = data(page) as { items: unknown[] });
      cursor = (data(page) as { nextCursor: string | null }).nextCursor ?? undefined;
      if (needles.length === 0) assert.match(textOf(page), /older lines remain: call again with nextCursor/);
    }
    assert.deepEqual(
      needles.map((l: any) => l.message),
      ['needle'],
    );
  });

  it('releases resolve and overview: an idea resolved in 1.3.0 ships with it', async () => {
    const resolved = await call('releases', { action: 'resolve', featureId: idea, version: '1.3.0', notify: false });
    assert.equal(resolved.item.release, '1.3.0');
    assert.equal(resolved.item.notify, false);
    await refusedToReader('releases', { action: 'resolve', featureId: idea }, 'releases:write');
    await call('releases', { action: 'create', version: '1.3.0' });
    assert.equal((await manage(`/features/${idea}`)).status, 'done');
    const overview = await call('releases', { action: 'overview', version: '1.3.0' });
    assert.deepEqual(overview.item, await manage('/releases/1.3.0/overview'));
    assert.ok(JSON.stringify(overview.item.shipped ?? overview.item).includes(idea));
    const broke = await call('releases', { action: 'overview', version: '1.2.0' });
    assert.match(JSON.stringify(broke.item), /RangeError in checkout/);
    const unknown = await callTool(client, 'releases', {
      projectId: p.projectId,
      action: 'overview',
      version: '9.9.9',
    });
    assert.match(textOf(unknown), /is unknown to project/);
  });

  it("site_config flag_history: a flag's changes made through MCP, newest first", async () => {
    await call('site_config', { action: 'set_flag', flagKey: 'saved-cards' });
    await call('site_config', { action: 'set_flag', flagKey: 'saved-cards', environment: 'test', value: false });
    const history = await call('site_config', { action: 'flag_history', flagKey: 'saved-cards' });
    assert.equal(history.items.length, 2);
    assert.deepEqual(history.items, (await manage('/site-config/flags/saved-cards/history')).changes);
    const none = await callTool(client, 'site_config', {
      projectId: p.projectId,
      action: 'flag_history',
      flagKey: 'never-made',
    });
    assert.match(textOf(none), /Flag "never-made" not found/);
  });

  it('audit list: the log with the MCP calls in it, for the admin scope audit:read only', async () => {
    const listed = await call('audit', { action: 'list', targetType: 'flag' });
    assert.ok(listed.items.length >= 2);
    assert.ok(listed.items.every((entry: any) => entry.target.type === 'flag'));
    const viaApi = await manage('/audit', { targetType: 'flag', limit: '20' });
    assert.deepEqual(listed.items, viaApi.entries);
    assert.equal(listed.items[0].actor.via, 'mcp');
    assert.equal(listed.items[0].actor.type, 'api_key');
    await refusedToReader('audit', { action: 'list' }, 'audit:read');
  });
});
