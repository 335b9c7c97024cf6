/**
 * Voting from the board's ideas list in Chromium: with the script, a keyboard vote updates the
 * count and the button in place and the focus stays on the button; without it, the form posts and
 * comes back to the same list, counted. On an idea's page, voting shows the follow state at once.
 * axe on the list with its vote buttons.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  addIdea,
  assertAccessible,
  boardProject,
  signInByEmail,
  startBoardEnv,
  type BoardTestEnv,
} from '../support/board.ts';

describe('board: vote from the list', () => {
  let env: BoardTestEnv;
  before(async () => {
    env = await startBoardEnv();
  });
  after(async () => env?.close());

  it('votes by keyboard in place, keeps focus, and works without the script', async () => {
    const project = await boardProject(env);
    const first = await addIdea(env, project.projectId, { title: 'Dark mode for the editor' });
    const second = await addIdea(env, project.projectId, { title: 'Export to PDF' });
    const third = await addIdea(env, project.projectId, { title: 'Calendar sync' });

    const context = await env.browser.newContext();
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    await signInByEmail(env, page, project.boardUrl, 'ada@example.com', 'Ada');
    await page.goto(`${project.boardUrl}/?sort=new`);
    const row = page
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name: 'Dark mode for the editor' }) });
    const vote = row.getByRole('button', { name: 'Vote', exact: true });
    await assertAccessible(page, 'ideas list with vote buttons');
    await vote.focus();
    await page.keyboard.press('Enter');
    const remove = row.getByRole('button', { name: 'Remove vote' });
    await remove.waitFor();
    assert.equal(await remove.getAttribute('aria-pressed'), 'true');
    assert.equal(await row.locator(`[data-vote-count="${first}"]`).textContent(), '1');
    assert.equal(page.url(), `${project.boardUrl}/?sort=new`, 'no navigation');
    assert.equal(
      await page.evaluate(() => document.activeElement?.textContent?.trim()),
      'Remove vote',
      'the focus stays on the button',
    );
    // Space takes the vote back, focus still there.
    await page.keyboard.press('Space');
    await row.getByRole('button', { name: 'Vote', exact: true }).waitFor();
    assert.equal(await row.locator(`[data-vote-count="${first}"]`).textContent(), '0');
    assert.equal(await page.evaluate(() => document.activeElement?.textContent?.trim()), 'Vote');
    assert.deepEqual(problems, []);

    // Without JavaScript: the form posts and the same list comes back, counted.
    const plain = await env.browser.newContext({
      javaScriptEnabled: false,
      storageState: await context.storageState(),
    });
    const plainPage = await plain.newPage();
    await plainPage.goto(`${project.boardUrl}/?sort=new`);
    const plainRow = plainPage
      .getByRole('listitem')
      .filter({ has: plainPage.getByRole('heading', { name: 'Export to PDF' }) });
    await plainRow.getByRole('button', { name: 'Vote', exact: true }).click();
    await plainPage.waitForURL(`${project.boardUrl}/?sort=new`);
    assert.equal(await plainRow.locator(`[data-vote-count="${second}"]`).textContent(), '1');
    assert.equal(await plainRow.getByRole('button', { name: 'Remove vote' }).getAttribute('aria-pressed'), 'true');

    // The idea page: voting follows, and the follow button and line say so without a reload.
    await page.goto(`${project.boardUrl}/ideas/${third}`);
    await page.getByRole('button', { name: 'Follow', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Vote', exact: true }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Unfollow' }).waitFor();
    await page.getByText('You follow this idea').waitFor();
    assert.equal(await page.evaluate(() => document.activeElement?.textContent?.trim()), 'Remove vote');
    await Promise.all([context.close(), plain.close()]);
  });
});
