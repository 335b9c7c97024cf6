/**
 * Closing the loop: followers of an idea get one e-mail when its status changes (management
 * PATCH, public PATCH, MCP tool) and when a changelog entry linked to it is published, in their
 * board language, with a link to the idea and a one-click unsubscribe (RFC 8058). Everything
 * goes through HTTP against a running server and a real SMTP server.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startMailbox, type Mailbox, type ReceivedMail } from '../../support/mailbox.ts';
import { startMcpTestServer, connectMcp, callTool } from '../../support/mcp.ts';
import type { TestServer } from '../../support/server.ts';
import { managedProject, type ManagedProject } from '../../support/manage-fixtures.ts';
import { createFollower, type TestBoardUser } from '../../support/followers.ts';
import { isFollowing } from '../../../src/resources/notifications/index.ts';

/** Long enough for a 50 ms poller to have sent anything that was queued. */
const SETTLE_MS = 600;
const settle = () => new Promise((resolve) => setTimeout(resolve, SETTLE_MS));

describe('follower e-mails through the outbox', () => {
  let mailbox: Mailbox;
  let server: TestServer;
  let p: ManagedProject;

  before(async () => {
    mailbox = await startMailbox();
    server = await startMcpTestServer({ env: { SMTP_URL: mailbox.url, OUTBOX_POLL_MS: '50' } });
    p = await managedProject(server);
  });
  after(async () => {
    await server.close();
    await mailbox.close();
  });

  const to = (user: TestBoardUser) => mailbox.messages.filter((mail) => mail.to.includes(user.email));
  const outboxCount = async (featureId: string) =>
    Number(
      (await server.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM notification_outbox WHERE feature_id = ?', [
        featureId,
      ]))!.n,
    );

  async function newIdea(title: string): Promise<string> {
    const created = await p.live.post('/features', { title, description: 'An idea people follow for e-mails.' });
    assert.equal(created.status, 201, created.text);
    return created.body.id;
  }

  /** The one e-mail to each user whose subject matches, after the outbox has settled. */
  async function oneEach(users: TestBoardUser[], subject: RegExp): Promise<ReceivedMail[]> {
    const mails: ReceivedMail[] = [];
    for (const user of users) {
      mails.push(await mailbox.waitFor((mail) => mail.to.includes(user.email) && subject.test(mail.subject)));
    }
    await settle();
    for (const user of users) {
      const matching = to(user).filter((mail) => subject.test(mail.subject));
      assert.equal(matching.length, 1, `${user.email} got ${matching.length} e-mails matching ${subject}`);
    }
    return mails;
  }

  it('a status change through the management API e-mails each follower once, in their language', async () => {
    const featureId = await newIdea('Dark mode <everywhere> & more');
    const other = await newIdea('Some other idea');
    const english = await createFollower(server.db, p.projectId, [featureId], { locale: 'en' });
    const german = await createFollower(server.db, p.projectId, [featureId], { locale: 'de-DE' });
    const bystander = await createFollower(server.db, p.projectId, [other], { locale: 'en' });

    const patched = await p.admin.patch(`/projects/${p.projectId}/features/${featureId}`, { status: 'planned' });
    assert.equal(patched.status, 200, patched.text);

    const [en] = await oneEach([english], /is now Planned/);
    const [de] = await oneEach([german], /ist jetzt Geplant/);
    assert.equal(en!.subject, '“Dark mode <everywhere> & more” is now Planned');
    assert.equal(de!.subject, '„Dark mode <everywhere> & more“ ist jetzt Geplant');
    assert.match(en!.text, /changed from Open to Planned/);
    assert.match(de!.text, /von Offen zu Geplant/);
    // HTML escapes the title; the text part carries it as written.
    assert.match(en!.html, /Dark mode &lt;everywhere&gt; &amp; more/);
    assert.doesNotMatch(en!.html, /<everywhere>/);

    const slug = p.projectId; // test projects use their id as slug
    for (const mail of [en!, de!]) {
      assert.ok(mail.links.includes(`${server.origin}/b/${slug}/ideas/${featureId}`), mail.text);
      const unsubscribe = mail.links.find((link) => link.includes('/unsubscribe?token='));
      assert.ok(unsubscribe?.startsWith(`${server.origin}/b/${slug}/unsubscribe?token=`), mail.text);
      assert.equal(mail.headers['list-unsubscribe'], `<${unsubscribe}>`);
      assert.equal(mail.headers['list-unsubscribe-post'], 'List-Unsubscribe=One-Click');
      assert.match(mail.messageId, /^<ntf_[a-z0-9]+@localhost>$/);
    }
    assert.notEqual(en!.messageId, de!.messageId);
    assert.equal(to(bystander).length, 0, 'a follower of another idea hears nothing');
  });

  it('setting the status it already has queues nothing, through every surface', async () => {
    const featureId = await newIdea('Already planned');
    const follower = await createFollower(server.db, p.projectId, [featureId]);
    assert.equal(
      (await p.admin.patch(`/projects/${p.projectId}/features/${featureId}`, { status: 'open' })).status,
      200,
    );
    assert.equal((await p.live.patch(`/features/${featureId}`, { status: 'open' })).status, 200);
    // Changes other than the status queue nothing either.
    const notes = await p.admin.patch(`/projects/${p.projectId}/features/${featureId}`, { developerNotes: 'later' });
    assert.equal(notes.status, 200);
    await settle();
    assert.equal(await outboxCount(featureId), 0);
    assert.equal(to(follower).length, 0);
  });

  it('the public PATCH and the MCP tool notify as well', async () => {
    const featureId = await newIdea('Export to CSV');
    const follower = await createFollower(server.db, p.projectId, [featureId]);
    const patched = await p.live.patch(`/features/${featureId}`, { status: 'in-progress' });
    assert.equal(patched.status, 200, patched.text);
    await oneEach([follower], /is now In progress/);

    const mcp = await connectMcp(server.origin, { key: p.liveKey });
    try {
      const result = await callTool(mcp.client, 'update_feature_status', { featureId, status: 'done' });
      assert.ok(!result.isError, JSON.stringify(result.content));
    } finally {
      await mcp.close();
    }
    await oneEach([follower], /is now Done/);
    assert.equal(to(follower).length, 2);
  });

  it('an internal idea e-mails no one', async () => {
    const featureId = await newIdea('Secret plans');
    const follower = await createFollower(server.db, p.projectId, [featureId]);
    assert.equal((await p.live.patch(`/features/${featureId}`, { internal: true })).status, 200);
    assert.equal((await p.live.patch(`/features/${featureId}`, { status: 'planned' })).status, 200);
    await settle();
    assert.equal(await outboxCount(featureId), 0);
    assert.equal(to(follower).length, 0);
  });

  it('publishing a changelog entry linked to the idea tells its followers it shipped, once', async () => {
    const featureId = await newIdea('Keyboard shortcuts');
    const follower = await createFollower(server.db, p.projectId, [featureId], { locale: 'de' });
    const path = `/projects/${p.projectId}/changelog`;

    const published = await p.admin.post(path, { summary: 'Shortcuts for everything', featureId, published: true });
    assert.equal(published.status, 201, published.text);
    const [mail] = await oneEach([follower], /^Veröffentlicht: „Keyboard shortcuts“$/);
    assert.match(mail!.text, /Shortcuts for everything/);

    const draft = await p.admin.post(path, { summary: 'Shortcuts, part two', featureId });
    assert.equal(draft.status, 201);
    await settle();
    assert.equal(to(follower).length, 1, 'a draft tells no one');
    assert.equal((await p.admin.post(`${path}/${draft.body.id}/publish`)).status, 200);
    await mailbox.waitFor((m) => m.to.includes(follower.email) && /Shortcuts, part two/.test(m.text));
    // Publishing again, or unpublishing and publishing the same entry again, sends nothing more.
    assert.equal((await p.admin.post(`${path}/${draft.body.id}/publish`)).status, 200);
    assert.equal((await p.admin.post(`${path}/${draft.body.id}/unpublish`)).status, 200);
    assert.equal((await p.admin.post(`${path}/${draft.body.id}/publish`)).status, 200);
    // A standalone entry is about no idea.
    assert.equal((await p.admin.post(path, { summary: 'Standalone news', published: true })).status, 201);
    await settle();
    assert.equal(to(follower).length, 2);
  });

  it('one-click unsubscribe (RFC 8058) ends the follow; the next change e-mails only the others', async () => {
    const featureId = await newIdea('Offline mode');
    const leaving = await createFollower(server.db, p.projectId, [featureId]);
    const staying = await createFollower(server.db, p.projectId, [featureId]);
    assert.equal((await p.live.patch(`/features/${featureId}`, { status: 'planned' })).status, 200);
    const [mail] = await oneEach([leaving, staying], /is now Planned/);
    const link = mail!.headers['list-unsubscribe']!.slice(1, -1);

    // GET (what a mail scanner fetches) only shows a button that posts.
    const page = await fetch(link);
    assert.equal(page.status, 200);
    const html = await page.text();
    assert.match(html, /<form method="post" action="\?token=[^"]+">/);
    assert.match(html, /“Offline mode”/);
    const csp = page.headers.get('content-security-policy') ?? '';
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /form-action 'self'/);
    assert.equal(page.headers.get('referrer-policy'), 'no-referrer');
    assert.equal(await isFollowing(server.db, featureId, leaving.id), true);

    // The mail client's one-click POST: no cookie, no CSRF token, just the URL and this body.
    const posted = await fetch(link, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    assert.equal(posted.status, 200);
    assert.match(await posted.text(), /no longer follow/);
    assert.equal(posted.headers.get('referrer-policy'), 'no-referrer');
    assert.equal(await isFollowing(server.db, featureId, leaving.id), false);
    assert.equal(await isFollowing(server.db, featureId, staying.id), true);
    // Again: still fine, still unfollowed.
    assert.equal((await fetch(link, { method: 'POST' })).status, 200);

    assert.equal((await p.live.patch(`/features/${featureId}`, { status: 'in-progress' })).status, 200);
    await oneEach([staying], /is now In progress/);
    assert.equal(to(leaving).length, 1, 'the one who left hears nothing more');
  });

  it('a forged or misplaced token is refused and changes nothing', async () => {
    const featureId = await newIdea('Forgery target');
    const victim = await createFollower(server.db, p.projectId, [featureId]);
    assert.equal((await p.live.patch(`/features/${featureId}`, { status: 'planned' })).status, 200);
    const [mail] = await oneEach([victim], /is now Planned/);
    const link = new URL(mail!.headers['list-unsubscribe']!.slice(1, -1));
    const token = link.searchParams.get('token')!;
    const [userId, feature, mac] = token.split('.') as [string, string, string];
    const flipped = `${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`;
    const other = await managedProject(server);

    const attempts: [string, string][] = [
      ['altered MAC', `${server.origin}/b/${p.projectId}/unsubscribe?token=${userId}.${feature}.${flipped}`],
      ['no MAC', `${server.origin}/b/${p.projectId}/unsubscribe?token=${userId}.${feature}`],
      ['another idea', `${server.origin}/b/${p.projectId}/unsubscribe?token=${userId}.feat_other.${mac}`],
      ['another board', `${server.origin}/b/${other.projectId}/unsubscribe?token=${encodeURIComponent(token)}`],
      ['no token', `${server.origin}/b/${p.projectId}/unsubscribe`],
    ];
    for (const [name, url] of attempts) {
      for (const method of ['GET', 'POST']) {
        const response = await fetch(url, { method });
        assert.equal(response.status, 400, `${name} (${method})`);
        assert.match(await response.text(), /not valid/);
      }
    }
    const noBoard = await fetch(`${server.origin}/b/no-such-board/unsubscribe?token=${token}`, { method: 'POST' });
    assert.equal(noBoard.status, 404);
    assert.equal(await isFollowing(server.db, featureId, victim.id), true);
  });
});
