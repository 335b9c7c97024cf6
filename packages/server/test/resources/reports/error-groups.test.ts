/**
 * Error groups (issue 31) with the real @sentry/node, read back through the management API:
 * events whose messages differ only by ids form one group, a fingerprint overrides the grouping,
 * staging and production are filtered apart, the second and tenth events of a group are
 * browsable, a custom context and handled: false are kept and returned; tag facets and filters,
 * merge and unmerge, status, and bad input.
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
const APP = fileURLToPath(new URL('../../fixtures/sentry/grouping-app.ts', import.meta.url));

describe('Error groups with @sentry/node', () => {
  let server: TestServer;
  let dsn: string;
  let p: ManagedProject;
  const sentry = async (environment: string, scenario: string) => {
    try {
      const { stdout } = await run(process.execPath, [APP, dsn, environment, scenario], { timeout: 60_000 });
      assert.equal(stdout.trim(), 'flushed');
    } catch (error) {
      // The uncaught scenario ends as Node does after an uncaught exception: exit code 1.
      if (scenario !== 'uncaught' || (error as { code?: number }).code !== 1) throw error;
    }
  };
  const list = async (query: Record<string, string | number> = {}) => {
    const response = await p.member.get(`/projects/${p.projectId}/error-groups`, { query });
    assert.equal(response.status, 200, response.text);
    return response.body;
  };

  before(async () => {
    const port = await freePort();
    server = await startTestServer({ env: { PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` } });
    p = await managedProject(server);
    const key = await p.owner.post(`/projects/${p.projectId}/keys`, { environment: 'live', scopes: ['errors:write'] });
    assert.equal(key.status, 201, key.text);
    dsn = key.body.sentryDsn;
    await sentry('production', 'ids');
    await sentry('staging', 'ids');
    await sentry('production', 'fingerprint');
    await sentry('production', 'ten');
    await sentry('production', 'uncaught');
  });
  after(() => server.close());

  it('groups events whose messages differ only by ids, by stack and by normalised message', async () => {
    const { groups } = await list({ sdkEnvironment: 'production', q: 'not found' });
    const notFound = groups.filter((g: any) => g.errorType === 'NotFoundError' && g.title.includes('o_10'));
    assert.equal(notFound.length, 1, JSON.stringify(groups));
    assert.equal(notFound[0].events, 3);
    assert.equal(notFound[0].users, 3);
    assert.equal(notFound[0].firstRelease, '2.0.0');
    assert.match(notFound[0].culprit, /loadOrder/);
    const expired = (await list({ sdkEnvironment: 'production', q: 'expired' })).groups;
    assert.equal(expired.length, 1, JSON.stringify(expired));
    assert.equal(expired[0].events, 3);
    assert.equal(expired[0].level, 'warning');
  });

  it('lets a fingerprint override the grouping, {{ default }} standing for the default', async () => {
    const { groups } = await list({ sdkEnvironment: 'production', sort: 'count', limit: 200 });
    const payment = groups.filter((g: any) =>
      ['card declined', 'gateway timeout', 'insufficient funds'].some((m) => g.title.includes(m)),
    );
    assert.equal(payment.length, 1, JSON.stringify(payment));
    assert.equal(payment[0].events, 3);
    const tenants = groups.filter((g: any) => g.title === 'NotFoundError: order o_1 not found');
    assert.deepEqual(tenants.map((g: any) => g.events).sort(), [1, 2]);
    const byTag = await list({ tag: 'tenant:b' });
    assert.deepEqual(
      byTag.groups.map((g: any) => g.events),
      [1],
    );
  });

  it('keeps staging and production apart, as a filter and in the counts per environment', async () => {
    const staging = await list({ sdkEnvironment: 'staging' });
    assert.equal(staging.groups.length, 2, JSON.stringify(staging.groups));
    assert.ok(staging.groups.every((g: any) => g.sdkEnvironment === 'staging' && g.environment === 'live'));
    const production = await list({ sdkEnvironment: 'production', q: 'not found' });
    assert.ok(production.groups.every((g: any) => g.sdkEnvironment === 'production'));
    const counts = Object.fromEntries(staging.environments.map((e: any) => [e.environment, e]));
    assert.equal(counts.staging.groups, 2);
    assert.equal(counts.staging.events, 6);
    assert.ok(counts.production.groups >= 6, JSON.stringify(staging.environments));
  });

  it('browses the events of a group: the second and the tenth, with older and newer', async () => {
    const [group] = (await list({ q: 'quantity' })).groups;
    assert.equal(group.events, 10);
    const url = `/projects/${p.projectId}/error-groups/${group.id}`;
    const detail = await p.member.get(url);
    assert.equal(detail.status, 200, detail.text);
    assert.equal(detail.body.keptEvents, 10);
    const browser = detail.body.tags.find((t: any) => t.key === 'browser.name');
    assert.deepEqual(browser.values, [
      { value: 'Chrome', count: 7, share: 0.7 },
      { value: 'Firefox', count: 3, share: 0.3 },
    ]);
    const first = await p.member.get(`${url}/events`, { query: { limit: 8 } });
    assert.equal(first.status, 200, first.text);
    assert.equal(first.body.events.length, 8);
    const rest = await p.member.get(`${url}/events`, { query: { limit: 8, cursor: first.body.nextCursor } });
    assert.equal(rest.body.events.length, 2);
    assert.equal(rest.body.nextCursor, null);
    const newestFirst = [...first.body.events, ...rest.body.events];
    const attempt = async (eventId: string) => {
      const event = await p.member.get(`${url}/events/${eventId}`);
      assert.equal(event.status, 200, event.text);
      return event.body;
    };
    const tenth = await attempt(newestFirst[0].eventId);
    assert.equal(tenth.event.tags.attempt, '10');
    assert.equal(tenth.position, 10);
    assert.equal(tenth.newer, null);
    const second = await attempt(newestFirst[8].eventId);
    assert.equal(second.event.tags.attempt, '2');
    assert.equal(second.position, 2);
    assert.equal((await attempt(second.older)).event.tags.attempt, '1');
    assert.equal((await attempt(second.newer)).event.tags.attempt, '3');
    assert.equal((await attempt('latest')).eventId, tenth.eventId);
  });

  it('keeps a custom context, handled: false, the stack with context lines and the runtime', async () => {
    const [group] = (await list({ q: 'o_777' })).groups;
    assert.ok(group, 'the uncaught error has a group');
    assert.equal(group.unhandled, true);
    assert.equal(group.users, 1);
    const event = await p.member.get(`/projects/${p.projectId}/error-groups/${group.id}/events/latest`);
    assert.equal(event.status, 200, event.text);
    assert.equal(event.body.handled, false);
    const sent = event.body.event;
    assert.deepEqual(sent.contexts.order, { id: 'o_777', total: 42.5, items: ['book', 'pen'] });
    assert.equal(sent.contexts.runtime.name, 'node');
    assert.equal(sent.contexts.os.version, sent.contexts.os.version.trim());
    const exception = sent.exception.values.at(-1);
    assert.equal(exception.mechanism.handled, false);
    const frame = exception.stacktrace.frames.findLast((f: any) => f.function === 'loadOrder');
    assert.ok(frame, JSON.stringify(exception.stacktrace.frames));
    assert.equal(frame.in_app, true);
    assert.match(frame.context_line, /throw new NotFoundError/);
    assert.ok(Array.isArray(frame.pre_context));
    assert.equal(sent.user.email, 'grace@example.com');
  });

  it('merges groups and unmerges them with their own counts', async () => {
    const { groups } = await list({ sdkEnvironment: 'staging' });
    const [a, b] = groups;
    const base = `/projects/${p.projectId}/error-groups`;
    const merged = await p.admin.post(`${base}/${a.id}/merge`, { groupIds: [b.id] });
    assert.equal(merged.status, 200, merged.text);
    assert.equal(merged.body.events, a.events + b.events);
    assert.deepEqual(
      merged.body.merged.map((g: any) => g.id),
      [b.id],
    );
    assert.equal((await list({ sdkEnvironment: 'staging' })).groups.length, 1);
    const events = await p.member.get(`${base}/${a.id}/events`, { query: { limit: 100 } });
    assert.equal(events.body.kept, a.events + b.events);
    assert.equal((await p.admin.post(`${base}/${a.id}/merge`, { groupIds: [a.id] })).status, 400);
    assert.equal((await p.member.post(`${base}/${a.id}/merge`, { groupIds: [b.id] })).status, 403);
    const back = await p.admin.post(`${base}/${b.id}/unmerge`);
    assert.equal(back.status, 200, back.text);
    assert.equal(back.body.events, b.events);
    assert.equal(back.body.mergedInto, null);
    const after = await p.member.get(`${base}/${a.id}`);
    assert.equal(after.body.events, a.events);
    assert.equal(after.body.users, a.users);
    assert.equal((await list({ sdkEnvironment: 'staging' })).groups.length, 2);
  });

  it('resolves a group in the next release; bad input is a 4xx; other projects see nothing', async () => {
    const [group] = (await list({ q: 'quantity' })).groups;
    const url = `/projects/${p.projectId}/error-groups/${group.id}`;
    const resolved = await p.admin.patch(url, { status: 'resolved', inNextRelease: true });
    assert.equal(resolved.status, 200, resolved.text);
    assert.equal(resolved.body.resolvedInRelease, '2.0.0');
    assert.equal((await list({ status: 'resolved' })).groups.length, 1);
    assert.equal((await p.admin.patch(url, { status: 'gone' })).status, 400);
    assert.equal(
      (await p.member.get(`/projects/${p.projectId}/error-groups`, { query: { cursor: 'nonsense' } })).status,
      400,
    );
    assert.equal((await p.member.get(`${url}/events`, { query: { cursor: 'nonsense' } })).status, 400);
    assert.equal((await p.member.get(`${url}/events/${'0'.repeat(32)}`)).status, 404);
    assert.equal((await p.outsider.get(url)).status, 404);
    const other = await managedProject(server);
    assert.equal((await other.owner.get(`/projects/${other.projectId}/error-groups/${group.id}`)).status, 404);
    assert.deepEqual((await other.owner.get(`/projects/${other.projectId}/error-groups`)).body.groups, []);
  });
});
