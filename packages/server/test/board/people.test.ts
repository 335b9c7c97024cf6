/**
 * People on the board, in Chromium: signing in by the e-mailed link and by the host app's signed
 * token (good, forged, expired), voting, commenting and submitting (with and without
 * JavaScript), a private board, a custom domain, anonymous votes, moderation, and the CSRF guard.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { rotateSsoSecret } from '../../src/resources/board/sso-secret.ts';
import { Api } from '../support/api.ts';
import {
  addIdea,
  assertAccessible,
  boardProject,
  signInByEmail,
  startBoardEnv,
  watchedPage,
  type BoardTestEnv,
} from '../support/board.ts';
import { ssoToken } from '../support/sso.ts';

describe('the public board, with people', () => {
  let env: BoardTestEnv;

  before(async () => {
    env = await startBoardEnv();
  });
  after(async () => env?.close());

  it('signs in by e-mailed link, votes, comments and submits an idea; the votes are the public API votes', async () => {
    const project = await boardProject(env);
    const idea = await addIdea(env, project.projectId, { title: 'Calendar sync with Outlook' });
    const context = await env.browser.newContext();
    const { page, problems } = await watchedPage(context);
    await signInByEmail(env, page, project.boardUrl, 'ada@example.com', 'Ada L.');
    await page.getByText('Signed in as Ada L.').waitFor();

    await page.goto(`${project.boardUrl}/ideas/${idea}`);
    await page.getByRole('button', { name: 'Vote' }).click();
    await page.getByRole('button', { name: 'Remove vote' }).waitFor();
    assert.equal(await page.locator(`[data-vote-count="${idea}"]`).textContent(), '1');
    const api = new Api(env.server.baseUrl, project.liveKey);
    assert.equal((await api.get(`/features/${idea}`)).body.voteCount, 1);
    await assertAccessible(page, 'idea, signed in');

    await page.getByLabel('Your comment').fill('We need this for the <b>whole</b> team.');
    await page.getByRole('button', { name: 'Comment' }).click();
    await page.locator('.comment p', { hasText: 'We need this for the <b>whole</b> team.' }).waitFor();
    assert.equal(await page.locator('.comment strong').first().textContent(), 'Ada L.');
    const comments = await api.get(`/features/${idea}/comments`);
    assert.equal(comments.body.comments[0].body, 'We need this for the <b>whole</b> team.');
    assert.equal((await api.get(`/features/${idea}`)).body.commentCount, 1);

    await page.goto(`${project.boardUrl}/submit`);
    await page.getByLabel('Title').pressSequentially('Calendar sync', { delay: 20 });
    await page.locator('#similar a', { hasText: 'Calendar sync with Outlook' }).waitFor();
    await assertAccessible(page, 'submit, with suggestions');
    await page.getByLabel('Title').fill('Calendar sync with Google');
    await page.getByLabel('Description').fill('Two-way sync of due dates with Google Calendar.');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByRole('heading', { name: 'Calendar sync with Google' }).waitFor();
    const listed = await api.get('/features');
    assert.ok(listed.body.features.some((f: { title: string }) => f.title === 'Calendar sync with Google'));

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('link', { name: 'Sign in' }).waitFor();
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('votes, comments and submits with JavaScript off (form posts with CSRF tokens)', async () => {
    const project = await boardProject(env);
    const idea = await addIdea(env, project.projectId, { title: 'Keyboard shortcuts everywhere' });
    const scripted = await env.browser.newContext();
    const signIn = await scripted.newPage();
    await signInByEmail(env, signIn, project.boardUrl, 'grace@example.com');
    const cookies = await scripted.cookies();
    const context = await env.browser.newContext({ javaScriptEnabled: false });
    await context.addCookies(cookies);
    const page = await context.newPage();
    await page.goto(`${project.boardUrl}/ideas/${idea}`);
    await page.getByRole('button', { name: 'Vote' }).click();
    await page.getByRole('button', { name: 'Remove vote' }).waitFor();
    await page.getByLabel('Your comment').fill('Without scripts, too.');
    await page.getByRole('button', { name: 'Comment' }).click();
    await page.locator('.comment p', { hasText: 'Without scripts, too.' }).waitFor();
    await page.goto(`${project.boardUrl}/submit`);
    await page.getByLabel('Title').fill('Keyboard shortcuts everywhere please');
    await page.getByLabel('Description').fill('Every list and form reachable by keys.');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByText('Similar ideas').waitFor();
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByRole('heading', { name: 'Keyboard shortcuts everywhere please' }).waitFor();
    await scripted.close();
    await context.close();
  });

  it('refuses a form post without the CSRF token or from another origin, and changes nothing', async () => {
    const project = await boardProject(env, { anonymousVotes: true });
    const idea = await addIdea(env, project.projectId, { title: 'Offline mode' });
    const noToken = await fetch(`${project.boardUrl}/ideas/${idea}/vote`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'intent=add',
    });
    assert.equal(noToken.status, 403);
    const foreign = await fetch(`${project.boardUrl}/ideas/${idea}/vote`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' },
      body: 'intent=add',
    });
    assert.equal(foreign.status, 403);
    const api = new Api(env.server.baseUrl, project.liveKey);
    assert.equal((await api.get(`/features/${idea}`)).body.voteCount, 0);
  });

  it('turns away a bot that fills the honeypot, and limits sign-in e-mails per client', async () => {
    const project = await boardProject(env);
    const form = await fetch(`${project.boardUrl}/sign-in`);
    const cookie = form.headers
      .getSetCookie()
      .map((line) => line.split(';')[0])
      .join('; ');
    const token = /name="_csrf" value="([^"]+)"/.exec(await form.text())![1]!;
    const post = (fields: Record<string, string>) =>
      fetch(`${project.boardUrl}/sign-in`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, origin: env.origin },
        body: new URLSearchParams({ _csrf: token, ...fields }).toString(),
      });
    const sentBefore = env.mailbox.messages.length;
    assert.equal((await post({ email: 'bot@example.com', website: 'http://spam.example' })).status, 400);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await post({ email: `person${i}@example.com` })).status);
    assert.deepEqual(statuses, [...Array(10).fill(200), 429]);
    await env.mailbox.waitFor(() => env.mailbox.messages.length - sentBefore >= 10);
    assert.equal(
      env.mailbox.messages.filter((mail) => mail.to.includes('bot@example.com')).length,
      0,
      'the honeypot sends nothing',
    );
  });

  it('takes anonymous votes only where the board allows them', async () => {
    const open = await boardProject(env, { anonymousVotes: true });
    const closed = await boardProject(env);
    const openIdea = await addIdea(env, open.projectId, { title: 'Anonymous welcome' });
    const closedIdea = await addIdea(env, closed.projectId, { title: 'Sign in first' });
    const context = await env.browser.newContext();
    const page = await context.newPage();
    await page.goto(`${open.boardUrl}/ideas/${openIdea}`);
    await page.getByRole('button', { name: 'Vote' }).click();
    await page.getByRole('button', { name: 'Remove vote' }).waitFor();
    assert.equal((await new Api(env.server.baseUrl, open.liveKey).get(`/features/${openIdea}`)).body.voteCount, 1);
    await page.goto(`${closed.boardUrl}/ideas/${closedIdea}`);
    assert.equal(await page.getByRole('button', { name: 'Vote' }).count(), 0);
    await page
      .getByRole('link', { name: /Sign in to vote/ })
      .first()
      .waitFor();
    await context.close();
  });

  it('signs in through the host app with a signed token, and refuses a forged or an expired one', async () => {
    const project = await boardProject(env);
    const { secret } = await rotateSsoSecret(env.server.db, { secretKey: undefined }, project.projectId);
    const claims = { sub: 'user-42', email: 'lin@example.com', name: 'Lin' };
    const context = await env.browser.newContext();
    const page = await context.newPage();

    const forged = await ssoToken('not-the-secret-not-the-secret-not', claims);
    let response = await page.goto(`${project.boardUrl}/sso?token=${forged}`);
    assert.equal(response?.status(), 401);
    const expired = await ssoToken(secret, claims, { age: 3600, ttl: 600 });
    response = await page.goto(`${project.boardUrl}/sso?token=${expired}`);
    assert.equal(response?.status(), 401);
    const unsigned = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.`;
    response = await page.goto(`${project.boardUrl}/sso?token=${unsigned}`);
    assert.equal(response?.status(), 401);
    assert.equal(await page.getByText('Signed in as').count(), 0);

    const good = await ssoToken(secret, claims);
    await page.goto(`${project.boardUrl}/sso?token=${good}&return=${encodeURIComponent('/roadmap')}`);
    await page.waitForURL(/\/roadmap$/);
    await page.getByText('Signed in as Lin').waitFor();
    await context.close();
  });

  it('shows a private board only to people the host app signs in', async () => {
    const project = await boardProject(env, { private: true });
    const { secret } = await rotateSsoSecret(env.server.db, { secretKey: undefined }, project.projectId);
    const idea = await addIdea(env, project.projectId, { title: 'Private roadmap item' });
    const context = await env.browser.newContext();
    const page = await context.newPage();
    await page.goto(`${project.boardUrl}/ideas/${idea}`);
    await page.waitForURL(/\/sign-in/);
    assert.equal(await page.getByText('Private roadmap item').count(), 0);
    await page.getByText('This board signs people in through its app.').waitFor();
    assert.equal(await page.getByLabel('E-mail address').count(), 0, 'no e-mail sign-in on a private board');
    const feed = await fetch(`${project.boardUrl}/changelog`, { redirect: 'manual' });
    assert.equal(feed.status, 303);
    await page.goto(
      `${project.boardUrl}/sso?token=${await ssoToken(secret, { sub: 'm1', email: 'mo@example.com' })}&return=${encodeURIComponent(`/ideas/${idea}`)}`,
    );
    await page.getByRole('heading', { name: 'Private roadmap item' }).waitFor();
    await context.close();
  });

  it('answers at the root of a custom domain', async () => {
    const project = await boardProject(env, { customDomain: 'ideas.acme.test', title: 'Acme' });
    await addIdea(env, project.projectId, { title: 'Served at our own domain' });
    const port = new URL(env.origin).port;
    const browser = await (await import('playwright-core')).chromium.launch({
      executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
      args: ['--host-resolver-rules=MAP ideas.acme.test 127.0.0.1'],
    });
    try {
      const page = await browser.newPage();
      await page.goto(`http://ideas.acme.test:${port}/`);
      await page.getByRole('link', { name: 'Served at our own domain' }).click();
      assert.match(page.url(), new RegExp(`^http://ideas\\.acme\\.test:${port}/ideas/feat_`));
      await page.getByRole('link', { name: 'Roadmap' }).click();
      assert.equal(page.url(), `http://ideas.acme.test:${port}/roadmap`);
    } finally {
      await browser.close();
    }
  });

  it('holds new ideas and comments for moderation when the board asks for it', async () => {
    const project = await boardProject(env, { moderation: true });
    const idea = await addIdea(env, project.projectId, { title: 'An approved idea' });
    const context = await env.browser.newContext();
    const page = await context.newPage();
    await signInByEmail(env, page, project.boardUrl, 'mod@example.com');
    await page.goto(`${project.boardUrl}/submit`);
    await page.getByLabel('Title').fill('Please hold me');
    await page.getByLabel('Description').fill('This waits for the team before anyone sees it.');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByText('Waiting for the team to approve it').waitFor();
    const heldUrl = page.url();
    await page.goto(`${project.boardUrl}/ideas/${idea}`);
    await page.getByLabel('Your comment').fill('Held comment');
    await page.getByRole('button', { name: 'Comment' }).click();
    await page.getByText('your comment shows once the team approves it').waitFor();
    assert.equal(await page.locator('.comment', { hasText: 'Held comment' }).count(), 0);

    const stranger = await env.browser.newPage();
    assert.equal((await stranger.goto(heldUrl))?.status(), 404);
    await stranger.goto(project.boardUrl);
    assert.equal(await stranger.getByText('Please hold me').count(), 0);
    await stranger.close();
    await context.close();
  });
});
