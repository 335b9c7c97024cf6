/**
 * Shipping: a changelog entry links several ideas; publishing it moves them to done through the one
 * status writer, and each follower hears of it once (the "Shipped" e-mail, no separate status
 * e-mail). With the board's shipOnPublish off, statuses stay. The board shows "Shipped in" on each
 * idea, linking the entry's permalink page; a test-key idea, an unknown or a draft entry is a 404
 * there. Links move with a merge and survive deleting one of the ideas. HTTP against a running
 * server and a real SMTP server.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startMailbox, type Mailbox } from '../../support/mailbox.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { managedProject, type ManagedProject } from '../../support/manage-fixtures.ts';
import { createFollower, type TestBoardUser } from '../../support/followers.ts';

const settle = () => new Promise((resolve) => setTimeout(resolve, 600));

describe('changelog: shipping several ideas', () => {
  let mailbox: Mailbox;
  let server: TestServer;
  let p: ManagedProject;

  before(async () => {
    mailbox = await startMailbox();
    server = await startTestServer({ env: { SMTP_URL: mailbox.url, OUTBOX_POLL_MS: '50' } });
    p = await managedProject(server);
    const board = await p.admin.patch(`/projects/${p.projectId}/board`, { enabled: true });
    assert.equal(board.status, 200, board.text);
    assert.equal(board.body.shipOnPublish, true);
  });
  after(async () => {
    await server.close();
    await mailbox.close();
  });

  const entries = (path = '') => `/projects/${p.projectId}/changelog${path}`;
  const board = (path: string) => fetch(`${server.origin}/b/${p.projectId}${path}`, { redirect: 'manual' });
  async function newIdea(title: string): Promise<string> {
    const created = await p.live.post('/features', { title, description: `${title}, described.` });
    assert.equal(created.status, 201, created.text);
    return created.body.id;
  }
  const statusOf = async (id: string) =>
    (await p.member.get(`/projects/${p.projectId}/features/${id}`)).body.status as string;
  const mailsTo = (user: TestBoardUser) => mailbox.messages.filter((mail) => mail.to.includes(user.email));

  it('publishing an entry linked to two ideas moves both to done and e-mails each follower once', async () => {
    const first = await newIdea('Offline mode');
    const second = await newIdea('Sync across devices');
    await p.admin.patch(`/projects/${p.projectId}/features/${first}`, { status: 'in-progress' });
    const ada = await createFollower(server.db, p.projectId, [first]);
    const bo = await createFollower(server.db, p.projectId, [second]);

    const draft = await p.admin.post(entries(), { summary: 'Offline and sync', featureIds: [first, second] });
    assert.equal(draft.status, 201, draft.text);
    assert.deepEqual(draft.body.featureIds, [first, second]);
    assert.equal(draft.body.featureId, first);
    assert.equal((await board(`/changelog/${draft.body.id}`)).status, 404, 'a draft has no public page');
    assert.equal(await statusOf(first), 'in-progress');

    const published = await p.admin.post(entries(`/${draft.body.id}/publish`));
    assert.equal(published.status, 200, published.text);
    assert.equal(await statusOf(first), 'done');
    assert.equal(await statusOf(second), 'done');

    for (const user of [ada, bo]) await mailbox.waitFor((mail) => mail.to.includes(user.email));
    await settle();
    for (const user of [ada, bo]) {
      const mails = mailsTo(user);
      assert.equal(mails.length, 1, `${user.email}: ${mails.map((mail) => mail.subject).join(' | ')}`);
      assert.match(mails[0]!.subject, /^Shipped: /);
    }

    // Publishing again (after unpublishing) tells no one again.
    await p.admin.post(entries(`/${draft.body.id}/unpublish`));
    await p.admin.post(entries(`/${draft.body.id}/publish`));
    await settle();
    assert.equal(mailsTo(ada).length, 1);

    // The board: the idea page says where it shipped, linking the entry's own page.
    const ideaPage = await (await board(`/ideas/${second}`)).text();
    assert.match(ideaPage, /Shipped in/);
    assert.ok(ideaPage.includes(`/changelog/${draft.body.id}"`), 'the idea links the entry permalink');
    const entryPage = await board(`/changelog/${draft.body.id}`);
    assert.equal(entryPage.status, 200);
    const entryHtml = await entryPage.text();
    assert.match(entryHtml, /<h1>Offline and sync<\/h1>/);
    assert.match(entryHtml, /Offline mode<\/a/);
    assert.match(entryHtml, /Sync across devices<\/a/);
    assert.equal((await board('/changelog/chg_nope')).status, 404);
    const list = await (await board('/changelog')).text();
    assert.ok(list.includes(`/changelog/${draft.body.id}"`), 'the list links each entry’s page');
  });

  it('keeps statuses when shipOnPublish is off; validates links; merge and delete keep the others', async () => {
    const off = await p.admin.patch(`/projects/${p.projectId}/board`, { shipOnPublish: false });
    assert.equal(off.body.shipOnPublish, false);
    const a = await newIdea('Export to CSV');
    const b = await newIdea('Export to PDF');
    const c = await newIdea('Export to XLSX');
    const entry = await p.admin.post(entries(), { summary: 'Exports', featureIds: [a, b, c], published: true });
    assert.equal(entry.status, 201, entry.text);
    assert.equal(await statusOf(a), 'open');
    await p.admin.patch(`/projects/${p.projectId}/board`, { shipOnPublish: true });

    const both = await p.admin.post(entries(), { summary: 'Bad', featureId: a, featureIds: [b] });
    assert.equal(both.status, 400);
    const twice = await p.admin.post(entries(), { summary: 'Bad', featureIds: [a, a] });
    assert.equal(twice.status, 400);
    const other = await managedProject(server);
    const foreign = (await other.live.post('/features', { title: 'Not yours', description: 'Another project.' })).body;
    const leak = await p.admin.patch(entries(`/${entry.body.id}`), { featureIds: [a, foreign.id] });
    assert.equal(leak.status, 400);
    assert.deepEqual((await p.member.get(entries(`/${entry.body.id}`))).body.featureIds, [a, b, c]);

    // Merge b into c (c is already linked): the entry keeps one link to c.
    const merged = await p.admin.post(`/projects/${p.projectId}/features/${b}/merge`, { targetId: c });
    assert.ok(merged.status < 300, merged.text);
    assert.deepEqual((await p.member.get(entries(`/${entry.body.id}`))).body.featureIds, [a, c]);
    // Deleting the first idea: the entry is now about the next one.
    const deleted = await p.admin.delete(`/projects/${p.projectId}/features/${a}`);
    assert.ok(deleted.status < 300, deleted.text);
    const after = (await p.member.get(entries(`/${entry.body.id}`))).body;
    assert.deepEqual(after.featureIds, [c]);
    assert.equal(after.featureId, c);
    const filtered = await p.member.get(entries(`?featureId=${c}`));
    assert.deepEqual(
      filtered.body.entries.map((e: any) => e.id),
      [entry.body.id],
    );
  });
});
