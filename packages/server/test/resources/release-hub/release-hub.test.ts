/**
 * Releases as the hub (issue 33), through HTTP against a running server with the real
 * @sentry/node: a Sentry feedback item shows its reporter on the error group; an idea linked to
 * that group, resolved in the next release, moves to done when the release is created, its
 * follower gets one e-mail (and none more when the drafted entry is published), and the drafted
 * entry lists it; the release page shows what broke (new groups, whatever the SDK's spelling of
 * the release) and what shipped; a feedback report tied to an idea links it to the group; bad
 * input is a 4xx and changes nothing; other teams see nothing.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { createFollower } from '../../support/followers.ts';
import { startMailbox, type Mailbox } from '../../support/mailbox.ts';
import { type ManagedProject, managedProject } from '../../support/manage-fixtures.ts';
import { freePort } from '../../support/mcp.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';

const run = promisify(execFile);
const APP = fileURLToPath(new URL('../../fixtures/sentry/feedback-app.ts', import.meta.url));
const settle = () => new Promise((resolve) => setTimeout(resolve, 600));

describe('releases as the hub', () => {
  let server: TestServer;
  let mailbox: Mailbox;
  let p: ManagedProject;
  let dsn: string;
  let groupId: string;

  before(async () => {
    mailbox = await startMailbox();
    const port = await freePort();
    server = await startTestServer({
      env: { PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}`, SMTP_URL: mailbox.url, OUTBOX_POLL_MS: '50' },
    });
    p = await managedProject(server);
    const key = await p.owner.post(`/projects/${p.projectId}/keys`, { environment: 'live', scopes: ['errors:write'] });
    assert.equal(key.status, 201, key.text);
    dsn = key.body.sentryDsn;
    // The app reports a CheckoutError in shop@4.0.0, then Ada's feedback on it.
    const { stdout } = await run(process.execPath, [APP, dsn], { timeout: 60_000 });
    assert.match(stdout.trim(), /^[0-9a-f]{32}$/);
    const groups = await p.member.get(`/projects/${p.projectId}/error-groups`, { query: { q: 'CheckoutError' } });
    assert.equal(groups.status, 200, groups.text);
    groupId = groups.body.groups[0].id;
  });
  after(async () => {
    await server.close();
    await mailbox.close();
  });

  const path = (rest: string) => `/projects/${p.projectId}${rest}`;
  async function newIdea(title: string): Promise<string> {
    const created = await p.live.post('/features', { title, description: `${title}, described.` });
    assert.equal(created.status, 201, created.text);
    return created.body.id;
  }
  const statusOf = async (id: string) => (await p.member.get(path(`/features/${id}`))).body.status as string;

  it('shows the people whose Sentry feedback reported the group', async () => {
    const links = await p.member.get(path(`/error-groups/${groupId}/links`));
    assert.equal(links.status, 200, links.text);
    assert.deepEqual(
      links.body.reporters.map((r: { name: string; email: string }) => [r.name, r.email]),
      [['Ada Lovelace', 'ada@example.com']],
    );
    assert.deepEqual(links.body.items, []);
    assert.equal(links.body.resolution, null);
  });

  it('the release page lists the group as new in 4.0.0, however the release is spelled', async () => {
    for (const version of ['4.0.0', 'shop@4.0.0']) {
      const page = await p.member.get(path(`/releases/${encodeURIComponent(version)}/overview`));
      assert.equal(page.status, 200, page.text);
      assert.equal(page.body.version, '4.0.0');
      assert.equal(page.body.broke.new.groups, 1);
      assert.equal(page.body.broke.new.events, 1);
      assert.deepEqual(
        page.body.broke.new.list.map((g: { id: string }) => g.id),
        [groupId],
      );
      assert.equal(page.body.broke.regressed.groups, 0);
      assert.deepEqual(page.body.shipped.items, []);
    }
    assert.equal((await p.member.get(path('/releases/9.9.9/overview'))).status, 404);
    assert.equal((await p.outsider.get(path('/releases/4.0.0/overview'))).status, 404);
  });

  it('an idea linked to the group resolved in the next release ships when the release is created, telling its follower once', async () => {
    const idea = await newIdea('Checkout freezes on pay');
    const bystander = await newIdea('Unrelated idea');
    const follower = await createFollower(server.db, p.projectId, [idea]);
    const other = await createFollower(server.db, p.projectId, [bystander]);

    // Linking: members may not; a missing idea is a 400; another team sees nothing.
    assert.equal((await p.member.post(path(`/error-groups/${groupId}/links`), { featureId: idea })).status, 403);
    assert.equal((await p.admin.post(path(`/error-groups/${groupId}/links`), { featureId: 'f_nope' })).status, 400);
    assert.equal((await p.outsider.post(path(`/error-groups/${groupId}/links`), { featureId: idea })).status, 404);
    const linked = await p.admin.post(path(`/error-groups/${groupId}/links`), { featureId: idea });
    assert.equal(linked.status, 200, linked.text);
    assert.deepEqual(
      linked.body.items.map((i: { id: string; source: string }) => [i.id, i.source]),
      [[idea, 'manual']],
    );
    const fromIdea = await p.member.get(path(`/features/${idea}/error-links`));
    assert.equal(fromIdea.status, 200, fromIdea.text);
    assert.deepEqual(
      fromIdea.body.groups.map((g: { id: string }) => g.id),
      [groupId],
    );
    assert.equal(fromIdea.body.events, 1);

    // Resolve the group in the next release: after 4.0.0, its last release.
    const resolved = await p.admin.put(path(`/error-groups/${groupId}/resolution`), {});
    assert.equal(resolved.status, 200, resolved.text);
    assert.equal(resolved.body.release, null);
    assert.equal(resolved.body.afterRelease, '4.0.0');
    assert.equal(resolved.body.resolvedInRelease, null);
    assert.equal(await statusOf(idea), 'open');

    const created = await p.admin.post(path('/releases'), { version: '4.0.1', title: 'Checkout fix' });
    assert.equal(created.status, 201, created.text);
    assert.equal(await statusOf(idea), 'done');
    assert.equal(await statusOf(bystander), 'open');

    const mail = await mailbox.waitFor((m) => m.to.includes(follower.email));
    assert.match(mail.subject, /Checkout freezes on pay/);

    const page = await p.member.get(path('/releases/4.0.1/overview'));
    assert.equal(page.status, 200, page.text);
    assert.deepEqual(
      page.body.shipped.items.map((i: { id: string; status: string }) => [i.id, i.status]),
      [[idea, 'done']],
    );
    assert.deepEqual(
      page.body.shipped.errorGroups.map((g: { id: string }) => g.id),
      [groupId],
    );
    assert.equal(page.body.comparison.previous, '4.0.0');
    assert.equal(page.body.comparison.newGroupsChange, -1, 'one new group in 4.0.0, none in 4.0.1');
    const entryId = page.body.shipped.changelogEntry.id;
    assert.equal(page.body.shipped.changelogEntry.published, false);
    const entry = await p.member.get(path(`/changelog/${entryId}`));
    assert.equal(entry.status, 200, entry.text);
    assert.deepEqual(entry.body.featureIds, [idea]);
    assert.match(entry.body.summary, /4\.0\.1/);
    assert.match(entry.body.description, /Checkout freezes on pay/);

    // The team publishes the draft: the follower was told already, so no second e-mail.
    const published = await p.admin.post(path(`/changelog/${entryId}/publish`));
    assert.equal(published.status, 200, published.text);
    await settle();
    assert.equal(mailbox.messages.filter((m) => m.to.includes(follower.email)).length, 1);
    assert.equal(mailbox.messages.filter((m) => m.to.includes(other.email)).length, 0);

    const links = await p.member.get(path(`/error-groups/${groupId}/links`));
    assert.equal(links.body.resolution.resolvedInRelease, '4.0.1');
    // A second release ships nothing again.
    assert.equal((await p.admin.post(path('/releases'), { version: '4.0.2' })).status, 201);
    await settle();
    assert.equal(mailbox.messages.filter((m) => m.to.includes(follower.email)).length, 1);
  });

  it('an idea resolved in a named release ships when that release, and not an earlier one, is created', async () => {
    const idea = await newIdea('Export to CSV');
    assert.equal((await p.admin.put(path('/features/f_nope/resolution'), {})).status, 404);
    assert.equal((await p.admin.put(path(`/features/${idea}/resolution`), { release: '' })).status, 400);
    assert.equal((await p.member.put(path(`/features/${idea}/resolution`), { release: '5.0.0' })).status, 403);
    const resolved = await p.admin.put(path(`/features/${idea}/resolution`), { release: 'shop@5.0.0' });
    assert.equal(resolved.status, 200, resolved.text);
    assert.equal(resolved.body.release, '5.0.0');
    assert.equal((await p.admin.post(path('/releases'), { version: '4.1.0' })).status, 201);
    assert.equal(await statusOf(idea), 'open');
    assert.equal((await p.admin.post(path('/releases'), { version: '5.0.0' })).status, 201);
    assert.equal(await statusOf(idea), 'done');

    // Unlinking: a link that is not there is a 404.
    assert.equal((await p.admin.delete(path(`/error-groups/${groupId}/links/${idea}`))).status, 404);
  });

  it('a feedback report tied to an idea links that idea to the group by itself', async () => {
    const before = await p.member.get(path(`/error-groups/${groupId}/links`));
    const bugReportId = before.body.reporters[0].bugReportId;
    const made = await p.admin.post(path(`/bugs/${bugReportId}/feature`));
    assert.equal(made.status, 201, made.text);
    const featureId = made.body.featureId;
    const links = await p.member.get(path(`/error-groups/${groupId}/links`));
    assert.deepEqual(
      links.body.items.filter((i: { id: string }) => i.id === featureId).map((i: { source: string }) => i.source),
      ['feedback'],
    );
    const fromIdea = await p.member.get(path(`/features/${featureId}/error-links`));
    assert.equal(fromIdea.status, 200, fromIdea.text);
    assert.deepEqual(
      fromIdea.body.groups.map((g: { id: string; source: string }) => [g.id, g.source]),
      [[groupId, 'feedback']],
    );
    assert.equal(fromIdea.body.events, 1);
    assert.equal(fromIdea.body.users, 0, 'the app sends no user');
    assert.equal((await p.outsider.get(path(`/features/${featureId}/error-links`))).status, 404);
  });
});
