/**
 * The audit log through HTTP: each audited action of the management API, the public API and the
 * CLI's user agent and MCP appears once with who, before and after (secrets redacted, a new key's plain
 * text nowhere); filters and keyset paging; admins read it, members and outsiders do not; the CSV
 * and JSON lines exports parse back to the API's entries; retention is set per project and old
 * entries go in bounded batches.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { pruneAuditLog } from '../../../src/resources/audit/index.ts';
import { startMailbox, type Mailbox } from '../../support/mailbox.ts';
import { managedProject, type ManagedProject } from '../../support/manage-fixtures.ts';
import { inviteTokenFor, signUpVerified, uniqueEmail } from '../../support/management.ts';
import { callTool, connectMcp } from '../../support/mcp.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';

type Entry = {
  id: string;
  at: string;
  projectId: string | null;
  actor: { type: string; id: string | null; label: string; via: string };
  action: string;
  target: { type: string; id: string | null };
  before: any;
  after: any;
};

/** RFC 4180: quoted fields may hold commas, doubled quotes and line breaks; rows end in CRLF. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += c;
  }
  assert.equal(field, '', 'the last row ends with CRLF');
  return rows;
}

describe('audit log', () => {
  let server: TestServer;
  let mailbox: Mailbox;
  let p: ManagedProject;

  before(async () => {
    mailbox = await startMailbox();
    server = await startTestServer({ env: { SMTP_URL: mailbox.url } });
    p = await managedProject(server);
  });
  after(async () => {
    await server.close();
    await mailbox.close();
  });

  const audit = (api = p.admin, query: Record<string, string | number> = {}, project = p) =>
    api.get(`/projects/${project.projectId}/audit`, { query });

  async function entries(query: Record<string, string | number> = {}, project = p): Promise<Entry[]> {
    const response = await audit(project.admin, { limit: 200, ...query }, project);
    assert.equal(response.status, 200, response.text);
    return response.body.entries;
  }

  /** The one entry of `action` on `targetId` made since `since`. */
  async function one(action: string, targetId: string, since: string): Promise<Entry> {
    const found = await entries({ action, targetId, since });
    assert.equal(found.length, 1, `${action} ${targetId}: ${JSON.stringify(found)}`);
    return found[0]!;
  }

  const path = (rest: string) => `/projects/${p.projectId}${rest}`;

  it('records settings, flags, maintenance and keys with who, before and after, secrets redacted', async () => {
    const since = new Date().toISOString();
    const project = await p.admin.get(path(''));
    assert.equal((await p.admin.patch(path(''), { name: 'Renamed for audit' })).status, 200);
    const renamed = await one('project.settings_updated', p.projectId, since);
    assert.deepEqual(renamed.before, { name: project.body.name });
    assert.deepEqual(renamed.after, { name: 'Renamed for audit' });
    assert.equal(renamed.actor.type, 'account');
    assert.equal(renamed.actor.via, 'token');
    assert.match(renamed.actor.label, /^admin-[0-9a-f]+@example\.com$/);
    assert.equal(renamed.projectId, p.projectId);
    assert.equal(renamed.target.type, 'project');

    // Flags: created, changed, deleted.
    assert.equal((await p.admin.put(path('/site-config/flags/new-checkout'), { enabled: true })).status, 201);
    assert.equal((await p.admin.put(path('/site-config/flags/new-checkout'), { enabled: false })).status, 200);
    assert.equal((await p.admin.delete(path('/site-config/flags/new-checkout'))).status, 204);
    const created = await one('flag.created', 'new-checkout', since);
    assert.equal(created.before, null);
    assert.equal(created.after.enabled, true);
    const updated = await one('flag.updated', 'new-checkout', since);
    assert.equal(updated.before.enabled, true);
    assert.equal(updated.after.enabled, false);
    const deleted = await one('flag.deleted', 'new-checkout', since);
    assert.equal(deleted.before.key, 'new-checkout');
    assert.equal(deleted.after, null);
    // Deleting a flag that is not there records nothing.
    assert.equal((await p.admin.delete(path('/site-config/flags/new-checkout'))).status, 404);
    assert.equal((await entries({ action: 'flag.deleted', since })).length, 1);

    // Maintenance: only what changed.
    const maintenance = await p.admin.patch(path('/site-config/maintenance'), { enabled: true, type: 'banner' });
    assert.equal(maintenance.status, 200, maintenance.text);
    const switched = await one('maintenance.updated', p.projectId, since);
    assert.deepEqual(switched.before, { enabled: false, type: 'full' });
    assert.deepEqual(switched.after, { enabled: true, type: 'banner' });
    // The same again changes nothing and records nothing.
    await p.admin.patch(path('/site-config/maintenance'), { enabled: true, type: 'banner' });
    assert.equal((await entries({ action: 'maintenance.updated', since })).length, 1);

    // Keys: the plain key is never logged.
    const key = await p.admin.post(path('/keys'), { environment: 'live', scopes: ['features:read'], name: 'ci' });
    assert.equal(key.status, 201, key.text);
    const made = await one('api_key.created', key.body.apiKey.id, since);
    assert.equal(made.after.name, 'ci');
    assert.equal(made.after.prefix, key.body.apiKey.prefix);
    assert.equal((await p.admin.delete(path(`/keys/${key.body.apiKey.id}`))).status, 200);
    const revoked = await one('api_key.revoked', key.body.apiKey.id, since);
    assert.equal(revoked.before.revokedAt, null);
    assert.ok(revoked.after.revokedAt);
    const exported = await p.admin.get(path('/audit/export'), { query: { format: 'jsonl' } });
    assert.equal(exported.status, 200);
    assert.ok(!exported.text.includes(key.body.key), 'the plain key is in no entry');
  });

  it('records status changes from every surface, merges and deletions', async () => {
    const since = new Date().toISOString();
    const idea = async (title: string) => {
      const response = await p.live.post('/features', { title, description: 'An idea long enough to be accepted.' });
      assert.equal(response.status, 201, response.text);
      return response.body.id as string;
    };
    const first = await idea('Audit first idea');
    const second = await idea('Audit second idea');
    const third = await idea('Audit third idea');

    // Management API, as the CLI (its user agent), then the public API with a secret key.
    const cli = p.admin.withHeaders({ 'user-agent': 'signpost-cli/9.9.9' });
    assert.equal((await cli.patch(path(`/features/${first}`), { status: 'planned' })).status, 200);
    const planned = await one('feature.status_changed', first, since);
    assert.deepEqual(planned.before, { status: 'open' });
    assert.deepEqual(planned.after, { status: 'planned' });
    assert.equal(planned.actor.via, 'cli');
    const publicChange = await p.live.patch(`/features/${second}`, { status: 'in-progress' });
    assert.equal(publicChange.status, 200, publicChange.text);
    const byKey = await one('feature.status_changed', second, since);
    assert.equal(byKey.actor.type, 'api_key');
    assert.equal(byKey.actor.via, 'public-api');
    assert.match(byKey.actor.id!, /^key_/);

    const merged = await p.admin.post(path(`/features/${third}/merge`), { targetId: first });
    assert.equal(merged.status, 200, merged.text);
    const merge = await one('feature.merged', third, since);
    assert.equal(merge.before.title, 'Audit third idea');
    assert.equal(merge.after.mergedInto, first);

    assert.equal((await p.admin.delete(path(`/features/${second}`))).status, 204);
    const gone = await one('feature.deleted', second, since);
    assert.equal(gone.before.title, 'Audit second idea');
    assert.equal(gone.before.status, 'in-progress');
    assert.equal(gone.after, null);
  });

  it('records MCP tools as their key, and bug report statuses', async () => {
    const since = new Date().toISOString();
    const key = await p.admin.post(path('/keys'), { environment: 'live', scopes: ['config:read', 'config:write'] });
    assert.equal(key.status, 201, key.text);
    const mcp = await connectMcp(server.origin, { key: key.body.key });
    try {
      const result = await callTool(mcp.client, 'site_config', {
        projectId: p.projectId,
        action: 'set_flag',
        flagKey: 'from-mcp',
      });
      assert.ok(!result.isError, JSON.stringify(result));
    } finally {
      await mcp.close();
    }
    const byTool = await one('flag.created', 'from-mcp', since);
    assert.equal(byTool.actor.type, 'api_key');
    assert.equal(byTool.actor.via, 'mcp');
    assert.equal(byTool.actor.id, key.body.apiKey.id);

    const bug = await p.live.post('/bugs', { title: 'Audited bug', message: 'It breaks when I click save.' });
    assert.equal(bug.status, 201, bug.text);
    const bugId = bug.body.id as string;
    const status = await p.admin.patch(path(`/bugs/${bugId}`), { status: 'resolved' });
    assert.equal(status.status, 200, status.text);
    const resolved = await one('bug.status_changed', bugId, since);
    assert.deepEqual(resolved.before, { status: 'open' });
    assert.deepEqual(resolved.after, { status: 'resolved' });
  });

  it('records members and invites as team-wide entries shown with each of the team’s projects', async () => {
    const since = new Date().toISOString();
    const email = uniqueEmail('audit-guest');
    const invite = await p.owner.post(`/teams/${p.teamId}/invites`, { email, role: 'member' });
    assert.equal(invite.status, 201, invite.text);
    const invited = await one('invite.created', invite.body.id, since);
    assert.equal(invited.projectId, null);
    assert.equal(invited.after.email, email);
    assert.equal(invited.after.status, 'pending');

    const guest = await signUpVerified(server.origin, mailbox, { email });
    assert.equal((await guest.api.post(`/invites/${await inviteTokenFor(mailbox, email)}/accept`)).status, 200);
    const me = await guest.api.get('/me');
    const accountId = me.body.account.id as string;
    const joined = await one('member.joined', accountId, since);
    assert.equal(joined.after.role, 'member');
    assert.equal(joined.actor.id, accountId);
    assert.equal(joined.actor.via, 'session');

    assert.equal((await p.owner.patch(`/teams/${p.teamId}/members/${accountId}`, { role: 'admin' })).status, 200);
    const promoted = await one('member.role_changed', accountId, since);
    assert.equal(promoted.before.role, 'member');
    assert.equal(promoted.after.role, 'admin');
    assert.equal((await p.owner.delete(`/teams/${p.teamId}/members/${accountId}`)).status, 204);
    const removed = await one('member.removed', accountId, since);
    assert.equal(removed.before.email, email);
    assert.equal(removed.after, null);

    const other = await p.owner.post(`/teams/${p.teamId}/invites`, { email: uniqueEmail('audit-other') });
    assert.equal((await p.owner.delete(`/teams/${p.teamId}/invites/${other.body.id}`)).status, 200);
    const withdrawn = await one('invite.revoked', other.body.id, since);
    assert.equal(withdrawn.before.status, 'pending');
    assert.equal(withdrawn.after.status, 'revoked');

    // Another team's project sees none of it.
    const stranger = await managedProject(server);
    const theirs = await entries({ since }, stranger);
    assert.ok(theirs.every((entry) => entry.projectId === stranger.projectId));
  });

  it('admins read it; members get 403, outsiders 404', async () => {
    for (const route of ['/audit', '/audit/export', '/audit/settings']) {
      assert.equal((await p.admin.get(path(route))).status, 200, route);
      assert.equal((await p.owner.get(path(route))).status, 200, route);
      assert.equal((await p.member.get(path(route))).status, 403, route);
      assert.equal((await p.outsider.get(path(route))).status, 404, route);
    }
    assert.equal((await p.member.put(path('/audit/settings'), { retentionDays: 30 })).status, 403);
  });

  it('filters by actor, action, target and time, and pages by keyset without gaps or repeats', async () => {
    const all = await entries();
    assert.ok(all.length >= 10);
    for (let i = 1; i < all.length; i++) {
      const [newer, older] = [all[i - 1]!, all[i]!];
      assert.ok(newer.at > older.at || (newer.at === older.at && newer.id > older.id), 'newest first');
    }
    const paged: Entry[] = [];
    let cursor: string | null = null;
    do {
      const response = await audit(p.admin, { limit: 3, ...(cursor ? { cursor } : {}) });
      assert.equal(response.status, 200, response.text);
      paged.push(...response.body.entries);
      cursor = response.body.nextCursor;
    } while (cursor);
    assert.deepEqual(
      paged.map((entry) => entry.id),
      all.map((entry) => entry.id),
    );

    const admin = all.find((entry) => entry.action === 'project.settings_updated')!.actor;
    const byLabel = await entries({ actor: admin.label });
    const byId = await entries({ actor: admin.id! });
    assert.deepEqual(byLabel, byId);
    assert.ok(byLabel.length > 0 && byLabel.every((entry) => entry.actor.id === admin.id));
    const flags = await entries({ targetType: 'flag', targetId: 'new-checkout' });
    assert.deepEqual(
      flags.map((entry) => entry.action),
      ['flag.deleted', 'flag.updated', 'flag.created'],
    );
    const middle = all[Math.floor(all.length / 2)]!;
    const older = await entries({ until: middle.at });
    assert.ok(older.every((entry) => entry.at < middle.at));
    const newer = await entries({ since: middle.at });
    assert.equal(older.length + newer.length, all.length);

    for (const cursor of ['nonsense', Buffer.from('2026|').toString('base64url')]) {
      const bad = await audit(p.admin, { cursor });
      assert.equal(bad.status, 400);
      assert.equal(bad.body.code, 'BadRequest');
    }
    assert.equal((await audit(p.admin, { since: 'yesterday' })).status, 400);
    assert.equal((await audit(p.admin, { limit: 0 })).status, 400);
  });

  it('exports CSV and JSON lines that parse back to the entries', async () => {
    const all = await entries();
    const jsonl = await p.admin.get(path('/audit/export'), { query: { format: 'jsonl' } });
    assert.equal(jsonl.status, 200);
    assert.match(jsonl.headers.get('content-type')!, /^application\/x-ndjson/);
    assert.match(jsonl.headers.get('content-disposition')!, /^attachment; filename="audit-[^"]+\.jsonl"$/);
    const lines = jsonl.text.split('\n');
    assert.equal(lines.pop(), '');
    assert.deepEqual(
      lines.map((line) => JSON.parse(line)),
      all,
    );

    const csv = await p.admin.get(path('/audit/export'), { query: { format: 'csv', targetType: 'flag' } });
    assert.equal(csv.status, 200);
    assert.match(csv.headers.get('content-type')!, /^text\/csv/);
    const [header, ...rows] = parseCsv(csv.text);
    assert.deepEqual(header, [
      'id',
      'at',
      'project_id',
      'actor_type',
      'actor_id',
      'actor_label',
      'via',
      'action',
      'target_type',
      'target_id',
      'before',
      'after',
    ]);
    const flags = all.filter((entry) => entry.target.type === 'flag');
    assert.equal(rows.length, flags.length);
    rows.forEach((row, i) => {
      const entry = flags[i]!;
      assert.equal(row[0], entry.id);
      assert.equal(row[7], entry.action);
      assert.deepEqual(row[10] ? JSON.parse(row[10]) : null, entry.before);
      assert.deepEqual(row[11] ? JSON.parse(row[11]) : null, entry.after);
    });
    assert.equal((await p.admin.get(path('/audit/export'), { query: { format: 'xml' } })).status, 400);
  });

  it('keeps entries for the project’s retention and deletes older ones in batches', async () => {
    const q = await managedProject(server);
    const settings = `/projects/${q.projectId}/audit/settings`;
    assert.deepEqual((await q.admin.get(settings)).body, { retentionDays: 365 });
    for (const bad of [0, 3651, 1.5, '30']) {
      assert.equal((await q.admin.put(settings, { retentionDays: bad })).status, 400, String(bad));
    }
    assert.deepEqual((await q.admin.put(settings, { retentionDays: 2 })).body, { retentionDays: 2 });
    const changed = await entries({ action: 'audit.retention_changed' }, q);
    assert.equal(changed.length, 1);
    assert.deepEqual(changed[0]!.before, { retentionDays: 365 });
    assert.deepEqual(changed[0]!.after, { retentionDays: 2 });
    for (let i = 0; i < 5; i++) {
      await q.admin.put(`/projects/${q.projectId}/site-config/flags/f${i}`, { enabled: true });
    }
    assert.equal((await entries({}, q)).length, 6);
    const keptElsewhere = (await entries()).length;

    // A day later nothing is old enough; three days later q's entries are, p's (365 days) are not.
    await pruneAuditLog(server.db, { now: new Date(Date.now() + 86_400_000), batch: 2 });
    assert.equal((await entries({}, q)).length, 6);
    const deleted = await pruneAuditLog(server.db, { now: new Date(Date.now() + 3 * 86_400_000), batch: 2 });
    assert.ok(deleted >= 6);
    assert.equal((await entries({}, q)).length, 0);
    assert.equal((await entries()).length, keptElsewhere);
  });
});
