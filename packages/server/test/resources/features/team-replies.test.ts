/**
 * Team replies and notifications under the team's control (issue 30), through HTTP against a
 * running server, the real SMTP capture and the board in Chromium: a team reply shows with its
 * badge on the board, an internal note nowhere public; a status change with a response sends one
 * e-mail carrying it; a change undone within the undo window sends none; A→B→C sends one, the
 * final state; a "don't notify" change sends none. Own comments can be edited, others' not.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { updateBoard } from '../../../src/resources/board/index.ts';
import { assertAccessible, startBoardEnv, type BoardTestEnv } from '../../support/board.ts';
import { createFollower, type TestBoardUser } from '../../support/followers.ts';
import { managedProject, type ManagedProject } from '../../support/manage-fixtures.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('team replies and follower e-mails under control', () => {
  let env: BoardTestEnv;
  let p: ManagedProject;

  before(async () => {
    env = await startBoardEnv({ env: { OUTBOX_POLL_MS: '50' } });
    p = await managedProject(env.server);
    await updateBoard(env.server.db, p.projectId, { enabled: true });
  });
  after(async () => env?.close());

  const mailsTo = (user: TestBoardUser) => env.mailbox.messages.filter((mail) => mail.to.includes(user.email));
  const manage = (path: string) => `/projects/${p.projectId}${path}`;

  async function newIdea(title: string): Promise<string> {
    const created = await p.live.post('/features', { title, description: 'An idea people follow for e-mails.' });
    assert.equal(created.status, 201, created.text);
    return created.body.id;
  }

  it('a team reply shows with its badge on the board; an internal note shows nowhere public', async () => {
    const id = await newIdea('Keyboard shortcuts everywhere');
    const reply = await p.admin.post(manage(`/features/${id}/comments`), { body: 'We are on it: shipping in May.' });
    assert.equal(reply.status, 201, reply.text);
    assert.equal(reply.body.comment.team, true);
    assert.equal(reply.body.comment.internal, false);
    assert.equal(reply.body.commentCount, 1);
    const note = await p.admin.post(manage(`/features/${id}/comments`), {
      body: 'Internal: blocked by the editor rewrite.',
      internal: true,
    });
    assert.equal(note.status, 201);
    assert.equal(note.body.comment.internal, true);
    assert.equal(note.body.commentCount, 1, 'a note is not counted');

    const listed = await p.member.get(manage(`/features/${id}/comments`));
    assert.deepEqual(
      listed.body.comments.map((c: { internal: boolean }) => c.internal),
      [false, true],
    );
    const publicComments = await p.live.get(`/features/${id}/comments`);
    assert.deepEqual(
      publicComments.body.comments.map((c: { body: string }) => c.body),
      ['We are on it: shipping in May.'],
    );
    assert.equal((await p.live.get(`/features/${id}`)).body.commentCount, 1);

    const page = await env.browser.newPage();
    await page.goto(`${env.origin}/b/${p.projectId}/ideas/${id}`);
    const comment = page.locator('.comment', { hasText: 'We are on it: shipping in May.' });
    await comment.waitFor();
    assert.equal(await comment.locator('.badge.team').textContent(), 'Team');
    assert.equal(await page.getByText('blocked by the editor rewrite').count(), 0);
    await assertAccessible(page, 'idea with a team reply');
    await page.close();

    // Edits: only the author; a member may not write at all.
    const edited = await p.admin.patch(manage(`/features/${id}/comments/${reply.body.comment.id}`), {
      body: 'We are on it: shipping in June.',
    });
    assert.equal(edited.status, 200, edited.text);
    assert.equal(edited.body.comment.body, 'We are on it: shipping in June.');
    assert.ok(edited.body.comment.editedAt);
    const notTheirs = await p.owner.patch(manage(`/features/${id}/comments/${reply.body.comment.id}`), {
      body: 'Rewritten by someone else',
    });
    assert.equal(notTheirs.status, 403);
    assert.equal((await p.member.post(manage(`/features/${id}/comments`), { body: 'A member tries' })).status, 403);
    assert.equal((await p.outsider.post(manage(`/features/${id}/comments`), { body: 'Nope' })).status, 404);
    assert.equal((await p.admin.post(manage(`/features/${id}/comments`), { body: '' })).status, 400);
    assert.equal((await p.admin.post(manage('/features/feat_nope/comments'), { body: 'Hello' })).status, 404);
    const deleted = await p.admin.delete(manage(`/features/${id}/comments/${note.body.comment.id}`));
    assert.equal(deleted.status, 200);
    assert.equal(deleted.body.commentCount, 1, 'deleting a note leaves the count');
  });

  it('a status change with a response sends one e-mail carrying it, shown on the idea too', async () => {
    const id = await newIdea('Offline mode for the app');
    const follower = await createFollower(env.server.db, p.projectId, [id]);
    const patched = await p.admin.patch(manage(`/features/${id}`), {
      status: 'planned',
      response: 'Planned for Q3: offline drafts first.',
    });
    assert.equal(patched.status, 200, patched.text);
    assert.equal(patched.body.statusResponse, 'Planned for Q3: offline drafts first.');
    const mail = await env.mailbox.waitFor((m) => m.to.includes(follower.email));
    assert.match(mail.subject, /is now Planned/);
    assert.match(mail.text, /Response from the team \(Team\):\n\nPlanned for Q3: offline drafts first\./);
    assert.ok(mail.headers['list-unsubscribe']);
    await sleep(400);
    assert.equal(mailsTo(follower).length, 1);
    const page = await env.browser.newPage();
    await page.goto(`${env.origin}/b/${p.projectId}/ideas/${id}`);
    await page.locator('.response', { hasText: 'Planned for Q3: offline drafts first.' }).waitFor();
    await page.close();
    // Setting the status it already has keeps the response; the next change without one clears it.
    assert.equal((await p.live.patch(`/features/${id}`, { status: 'planned' })).status, 200);
    assert.equal(
      (await p.member.get(manage(`/features/${id}`))).body.statusResponse,
      'Planned for Q3: offline drafts first.',
    );
    const next = await p.admin.patch(manage(`/features/${id}`), { status: 'in-progress', notify: false });
    assert.equal(next.body.statusResponse, null);
    // response and notify go only with a status.
    assert.equal((await p.admin.patch(manage(`/features/${id}`), { title: 'Offline', notify: false })).status, 400);
  });

  it('within the undo window: A→B→A sends nothing, A→B→C sends one with the final state', async () => {
    const set = await p.admin.put(manage('/notification-settings'), { undoWindowSeconds: 1 });
    assert.equal(set.status, 200, set.text);
    assert.deepEqual(set.body, { undoWindowSeconds: 1, projectValue: 1 });
    assert.equal((await p.admin.put(manage('/notification-settings'), { undoWindowSeconds: -1 })).status, 400);
    assert.equal((await p.member.put(manage('/notification-settings'), { undoWindowSeconds: 5 })).status, 403);

    const undone = await newIdea('Undo this change');
    const moved = await newIdea('Moved twice quickly');
    const a = await createFollower(env.server.db, p.projectId, [undone]);
    const b = await createFollower(env.server.db, p.projectId, [moved]);
    await p.admin.patch(manage(`/features/${undone}`), { status: 'planned' });
    await p.admin.patch(manage(`/features/${undone}`), { status: 'open' });
    await p.admin.patch(manage(`/features/${moved}`), { status: 'planned' });
    await p.admin.patch(manage(`/features/${moved}`), { status: 'in-progress', response: 'Started this week.' });
    const mail = await env.mailbox.waitFor((m) => m.to.includes(b.email), 5000);
    assert.match(mail.subject, /is now In progress/i);
    assert.match(mail.text, /from Open to In progress/i);
    assert.match(mail.text, /Started this week\./);
    await sleep(1500);
    assert.equal(mailsTo(a).length, 0, 'undone within the window: nothing');
    assert.equal(mailsTo(b).length, 1, 'one message for the window');
  });

  it('a change made without notifying sends nothing', async () => {
    await p.admin.put(manage('/notification-settings'), { undoWindowSeconds: null });
    const id = await newIdea('Quietly planned idea');
    const follower = await createFollower(env.server.db, p.projectId, [id]);
    const patched = await p.admin.patch(manage(`/features/${id}`), { status: 'planned', notify: false });
    assert.equal(patched.status, 200);
    await sleep(800);
    assert.equal(mailsTo(follower).length, 0);
    // The next change, told, goes out as usual (the test server's default window is 0).
    await p.admin.patch(manage(`/features/${id}`), { status: 'in-progress' });
    await env.mailbox.waitFor((m) => m.to.includes(follower.email), 5000);
  });
});
