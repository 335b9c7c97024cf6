/**
 * Closing the loop in Chromium: voting follows an idea; a status change and a shipped changelog
 * entry each reach every follower once, by e-mail in their language, with one-click unsubscribe
 * (RFC 8058) that a mail client posts; after it, the next change reaches only the others.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { insertEntry } from '../../src/resources/changelog/index.ts';
import { Api } from '../support/api.ts';
import {
  addIdea,
  assertAccessible,
  boardProject,
  signInByEmail,
  startBoardEnv,
  type BoardTestEnv,
} from '../support/board.ts';

describe('following an idea from the board', () => {
  let env: BoardTestEnv;
  before(async () => {
    env = await startBoardEnv({ env: { OUTBOX_POLL_MS: '100' } });
  });
  after(async () => env?.close());

  it('e-mails followers on a status change and when it ships, until they unsubscribe in one click', async () => {
    const project = await boardProject(env);
    const idea = await addIdea(env, project.projectId, { title: 'Dark mode for the editor' });
    const api = new Api(env.server.baseUrl, project.liveKey);

    const ada = await env.browser.newContext();
    const adaPage = await ada.newPage();
    await signInByEmail(env, adaPage, project.boardUrl, 'ada@example.com', 'Ada');
    await adaPage.goto(`${project.boardUrl}/ideas/${idea}`);
    await adaPage.getByRole('button', { name: 'Vote' }).click();
    await adaPage.getByRole('button', { name: 'Remove vote' }).waitFor();
    await adaPage.reload();
    await adaPage.getByText('You follow this idea').waitFor();

    const bert = await env.browser.newContext({ locale: 'de-DE' });
    const bertPage = await bert.newPage();
    await signInByEmail(env, bertPage, project.boardUrl, 'bert@example.com', 'Bert');
    await bertPage.goto(`${project.boardUrl}/ideas/${idea}`);
    await bertPage.getByRole('button', { name: 'Folgen', exact: true }).click();
    await bertPage.getByRole('button', { name: 'Nicht mehr folgen' }).waitFor();

    const mailsTo = (address: string) => env.mailbox.messages.filter((mail) => mail.to.includes(address));
    const signInMails = { ada: mailsTo('ada@example.com').length, bert: mailsTo('bert@example.com').length };
    assert.equal((await api.patch(`/features/${idea}`, { status: 'planned' })).status, 200);
    const adaStatus = await env.mailbox.nextTo('ada@example.com', signInMails.ada);
    const bertStatus = await env.mailbox.nextTo('bert@example.com', signInMails.bert);
    assert.match(adaStatus.subject, /Dark mode for the editor/);
    assert.notEqual(adaStatus.subject, bertStatus.subject, 'Bert reads German');
    assert.ok(adaStatus.links.some((link) => link.includes(`/b/${project.projectId}/ideas/${idea}`)));
    const unsubscribe = /<([^>]+)>/.exec(adaStatus.headers['list-unsubscribe'] ?? '')?.[1];
    assert.ok(unsubscribe, 'List-Unsubscribe names a URL');
    assert.equal(adaStatus.headers['list-unsubscribe-post'], 'List-Unsubscribe=One-Click');

    await insertEntry(env.server.db, project.projectId, {
      summary: 'Dark mode is here',
      description: '<p>Switch it on in settings.</p>',
      featureId: idea,
      statusKey: 'new',
      published: true,
    });
    await env.mailbox.nextTo('ada@example.com', signInMails.ada + 1);
    await env.mailbox.nextTo('bert@example.com', signInMails.bert + 1);

    // What a mail client does for the one-click button (RFC 8058): a POST to the header's URL.
    const clicked = await fetch(unsubscribe, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    assert.equal(clicked.status, 200);
    await adaPage.reload();
    await adaPage.getByRole('button', { name: 'Follow', exact: true }).waitFor();

    assert.equal((await api.patch(`/features/${idea}`, { status: 'in-progress' })).status, 200);
    await env.mailbox.nextTo('bert@example.com', signInMails.bert + 2);
    assert.equal(mailsTo('ada@example.com').length, signInMails.ada + 2, 'nothing more for Ada');

    // Bert unsubscribes in his browser: the link's page, then its one button.
    const bertLatest = await env.mailbox.nextTo('bert@example.com', signInMails.bert + 2);
    const bertLink = /<([^>]+)>/.exec(bertLatest.headers['list-unsubscribe'] ?? '')![1]!;
    await bertPage.goto(bertLink);
    await assertAccessible(bertPage, 'the unsubscribe page');
    await bertPage.getByRole('button').click();
    await bertPage.goto(`${project.boardUrl}/ideas/${idea}`);
    await bertPage.getByRole('button', { name: 'Folgen', exact: true }).waitFor();
    await ada.close();
    await bert.close();
  });
});
