/**
 * The changelog screens in Chromium against a real server whose schedule worker runs every 200 ms:
 * write an entry with bold text and a link in the rich-text editor, link an idea, save a draft
 * (not on the board), preview it as the server sanitises it, schedule it a few seconds ahead and
 * see it appear on the public API and the board once the worker has run, unpublish, publish now,
 * find it in the list by state and search, delete it. HTML pasted with a script never reaches the
 * board; a refused save keeps what was typed. axe on every screen and state, light and dark.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { type SeededProject, seedProject } from './seed-project.ts';
import { type DashboardEnv, expectAccessible, startDashboardEnv, watchedPage } from './support.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('dashboard changelog', () => {
  let env: DashboardEnv;
  let p: SeededProject;
  let ideaId = '';
  let exportsId = '';
  before(async () => {
    env = await startDashboardEnv({ CHANGELOG_SCHEDULE_INTERVAL_MS: '200' });
    p = await seedProject(env, 'Changelog project');
    ideaId = await p.addIdea({ title: 'Dark mode everywhere', status: 'done' });
    exportsId = await p.addIdea({ title: 'Faster exports', status: 'planned' });
  });
  after(async () => env?.close());

  const heading = (page: Page) => page.getByRole('heading', { level: 1 });

  async function publicEntry(summary: string): Promise<any> {
    const log = await p.publicApi('GET', '/changelog');
    assert.equal(log.status, 200);
    return log.body.entries.find((entry: any) => entry.summary === summary);
  }
  const boardPage = async () => (await fetch(`${p.boardUrl}/changelog`)).text();

  async function until(what: string, probe: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
    const end = Date.now() + timeoutMs;
    while (!(await probe())) {
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
      await sleep(100);
    }
  }

  it('writes, previews, schedules, unpublishes, publishes and deletes an entry', async (t) => {
    const { page, problems } = await watchedPage(env.browser);
    t.after(async () => {
      if (process.env['SHOTS'])
        await page.screenshot({ path: `${process.env['SHOTS']}/changelog-end.png`, fullPage: true });
    });
    await p.signIn(page.context());
    const summary = 'Dark mode has shipped';

    // The empty list.
    await page.goto(`${env.origin}/app/projects/${p.projectId}/changelog`);
    await page.getByText('No entries yet.').waitFor();
    assert.equal(await heading(page).textContent(), 'Changelog');
    await expectAccessible(page, 'changelog, empty');

    await page.getByRole('link', { name: 'New entry' }).first().click();
    await page.waitForURL(/\/changelog\/new$/);
    await heading(page).filter({ hasText: 'New changelog entry' }).waitFor();
    await expectAccessible(page, 'new entry');

    // Summary; a description with bold text and a link, typed with the toolbar and the keyboard.
    await page.getByLabel('Summary').fill(summary);
    const editor = page.getByRole('textbox', { name: 'Description' });
    await editor.click();
    await page.keyboard.type('The app now has ');
    await page.getByRole('button', { name: 'Bold' }).click();
    await page.keyboard.type('a dark theme');
    await page.keyboard.press('Control+b');
    await page.keyboard.type(' everywhere. Read the ');
    // The link button by keyboard: Tab order reaches the toolbar, Enter opens the address field.
    await page.getByRole('button', { name: 'Link' }).focus();
    await page.keyboard.press('Enter');
    await page.getByLabel('Link address').fill('https://example.com/dark-mode');
    await page.keyboard.press('Enter');
    await page.getByLabel('Link address').waitFor({ state: 'detached' });
    // Focus goes back to the editor once the field has closed (a turn later on a busy machine).
    await page.waitForFunction(() => document.activeElement?.getAttribute('role') === 'textbox', undefined, {
      timeout: 5000,
    });
    await page.keyboard.type(' for details.');
    assert.equal(await page.getByRole('button', { name: 'Bold' }).getAttribute('aria-pressed'), 'false');
    // HTML pasted with a script and an event handler: the editor keeps the text, never the script.
    await editor.evaluate((element) => {
      const data = new DataTransfer();
      data.setData(
        'text/html',
        '<p>Pasted <b>note</b><script>window.__pwned = 1</script><img src="x" onerror="window.__pwned = 2"></p>',
      );
      data.setData('text/plain', 'Pasted note');
      element.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    });
    await editor.getByText('Pasted').waitFor();
    assert.equal(await page.evaluate(() => (window as { __pwned?: number }).__pwned), undefined);
    // Parsing the pasted HTML met the inline handler: the page's CSP refused it (and said so).
    const refused = problems.filter((problem) => /inline event handler .* has been blocked/.test(problem));
    assert.ok(refused.length <= 1);
    problems.splice(0, problems.length, ...problems.filter((problem) => !refused.includes(problem)));

    // Link an idea by searching for it.
    await page.getByLabel('Find an idea').fill('dark');
    await page.getByRole('button', { name: 'Link “Dark mode everywhere”' }).click();
    await page.getByText('Ships').waitFor();
    // A second idea: the entry ships both.
    await page.getByLabel('Find an idea').fill('exports');
    await page.getByRole('button', { name: 'Link “Faster exports”' }).click();
    await page.getByRole('button', { name: 'Unlink “Faster exports”' }).waitFor();
    assert.equal(await page.getByLabel('Status').count(), 0, 'a linked entry shows its idea’s status');
    await expectAccessible(page, 'new entry, filled in');

    // A refused save (an empty summary) keeps everything typed, the reason in place.
    await page.getByLabel('Summary').fill(' ');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByRole('alert').first().waitFor();
    assert.match(await editor.innerHTML(), /<strong>a dark theme<\/strong>/);
    assert.equal(await page.getByLabel('Summary').inputValue(), ' ');
    await page.getByRole('button', { name: 'Unlink “Faster exports”' }).waitFor();
    await expectAccessible(page, 'new entry, refused');

    // Save the draft: the entry's own page; not public, not on the board. Marked an announcement
    // ("What's new" in the host app opens it once as a popup).
    await page.getByLabel('Summary').fill(summary);
    await page.getByLabel('Announcement').check();
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.waitForURL(/\/changelog\/chg_[^/]+$/);
    const entryId = page.url().split('/').pop()!;
    await page.getByRole('status').filter({ hasText: 'Draft saved.' }).waitFor();
    assert.equal(await heading(page).textContent(), 'Edit changelog entry');
    const stored = await p.manage('GET', `/projects/${p.projectId}/changelog/${entryId}`);
    assert.equal(stored.body.state, 'draft');
    assert.equal(stored.body.announcement, true);
    assert.equal(stored.body.featureId, ideaId);
    assert.deepEqual(stored.body.featureIds, [ideaId, exportsId]);
    assert.match(stored.body.description, /<strong>a dark theme<\/strong>/);
    assert.match(
      stored.body.description,
      /<a [^>]*href="https:\/\/example.com\/dark-mode"[^>]*>https:\/\/example.com\/dark-mode<\/a>/,
    );
    assert.doesNotMatch(stored.body.description, /script|onerror|__pwned/);
    assert.equal(await publicEntry(summary), undefined);
    assert.ok(!(await boardPage()).includes(summary));
    await expectAccessible(page, 'draft entry');

    // The preview: the server's sanitised HTML, styled like the board.
    await page.getByRole('button', { name: 'Show preview' }).click();
    const preview = page.getByTestId('preview-content');
    await preview.locator('strong', { hasText: 'a dark theme' }).waitFor();
    assert.equal(
      await preview.getByRole('link', { name: 'https://example.com/dark-mode' }).getAttribute('href'),
      'https://example.com/dark-mode',
    );
    assert.doesNotMatch(await preview.innerHTML(), /script|onerror/);
    await expectAccessible(page, 'draft entry with preview');

    // Schedule a few seconds ahead (in the browser's time zone): the worker publishes it.
    const local = await page.evaluate(() => {
      const at = new Date(Date.now() + 6000);
      const pad = (n: number) => String(n).padStart(2, '0');
      return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}:${pad(at.getSeconds())}`;
    });
    await page.getByLabel('Publish at').fill(local);
    await page.getByRole('button', { name: 'Schedule' }).click();
    await page.getByRole('status').filter({ hasText: 'Scheduled for' }).waitFor();
    await page.getByText('publishes', { exact: false }).first().waitFor();
    await expectAccessible(page, 'scheduled entry');
    const scheduled = await p.manage('GET', `/projects/${p.projectId}/changelog/${entryId}`);
    assert.equal(scheduled.body.state, 'scheduled');
    assert.ok(Date.parse(scheduled.body.publishAt) > Date.now());
    assert.equal(await publicEntry(summary), undefined);

    await until('the scheduled entry to be public', async () => (await publicEntry(summary)) !== undefined);
    // Published: both ideas it links shipped (Faster exports was planned).
    const shipped = await p.manage('GET', `/projects/${p.projectId}/features/${exportsId}`);
    assert.equal(shipped.body.status, 'done');
    const board = await boardPage();
    assert.ok(board.includes(summary));
    assert.match(board, /<strong>a dark theme<\/strong>/);
    assert.match(board, /href="https:\/\/example.com\/dark-mode"/);
    assert.doesNotMatch(board, /__pwned/);
    await page.reload();
    await page.getByRole('button', { name: 'Unpublish' }).waitFor();
    assert.match((await page.locator('.entry-status').textContent()) ?? '', /Published/);

    // Unpublish: off the board. Publish now: back.
    await page.getByRole('button', { name: 'Unpublish' }).click();
    await page.getByRole('status').filter({ hasText: 'Unpublished' }).waitFor();
    assert.equal(await publicEntry(summary), undefined);
    assert.ok(!(await boardPage()).includes(summary));
    await page.getByRole('button', { name: 'Publish now' }).click();
    await page.getByRole('status').filter({ hasText: 'Published: the entry is on the public changelog.' }).waitFor();
    assert.ok(await publicEntry(summary));
    assert.ok((await boardPage()).includes(summary));
    await expectAccessible(page, 'published entry');
    await page.emulateMedia({ colorScheme: 'dark' });
    await expectAccessible(page, 'published entry, dark');
    await page.emulateMedia({ colorScheme: 'light' });

    // The list: state, filter and search.
    await page.getByRole('link', { name: 'Changelog', exact: true }).click();
    await page.waitForURL(/\/changelog$/);
    const row = page.getByRole('row', { name: new RegExp(summary) });
    await row.getByText('Published').waitFor();
    await row.getByRole('link', { name: 'Dark mode everywhere' }).waitFor();
    await expectAccessible(page, 'changelog list');
    await page.getByLabel('State').selectOption('draft');
    await page.getByText('No entries match.').waitFor();
    await expectAccessible(page, 'changelog list, nothing matches');
    await page.getByLabel('State').selectOption('published');
    await row.waitFor();
    await page.getByLabel('Search').fill('nothing like this');
    await page.getByText('No entries match.').waitFor();
    await page.getByLabel('Search').fill('dark mode');
    await row.waitFor();
    await page.emulateMedia({ colorScheme: 'dark' });
    await expectAccessible(page, 'changelog list, dark');
    await page.emulateMedia({ colorScheme: 'light' });

    // Delete, after confirming.
    await row.getByRole('link', { name: summary }).click();
    await page.getByRole('button', { name: 'Delete entry' }).click();
    await page.getByRole('alertdialog').waitFor();
    await expectAccessible(page, 'delete confirmation');
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await page.waitForURL(/\/changelog$/);
    await page.getByText('No entries yet.').waitFor();
    assert.equal(await publicEntry(summary), undefined);
    assert.deepEqual(problems, []);
  });

  it('schedules a new entry straight away, and cancels a schedule', async () => {
    const { page, problems } = await watchedPage(env.browser);
    await p.signIn(page.context());
    await page.goto(`${env.origin}/app/projects/${p.projectId}/changelog/new`);
    await page.getByLabel('Summary').fill('Exports are faster');
    await page.getByRole('textbox', { name: 'Description' }).click();
    await page.keyboard.type('Twice as fast.');
    await page.getByLabel('Status').selectOption('improved');
    // A time in the past is refused in place, nothing typed lost.
    await page.getByLabel('Publish at').fill('2020-01-01T10:00:00');
    await page.getByRole('button', { name: 'Schedule' }).click();
    await page.getByRole('alert').first().waitFor();
    assert.equal(await page.getByLabel('Summary').inputValue(), 'Exports are faster');
    await expectAccessible(page, 'new entry, schedule refused');
    await page.getByLabel('Publish at').fill('2099-01-01T10:00:00');
    await page.getByRole('button', { name: 'Schedule' }).click();
    await page.waitForURL(/\/changelog\/chg_[^/]+$/);
    await page.getByRole('status').filter({ hasText: 'Scheduled for' }).waitFor();
    await page.getByRole('button', { name: 'Cancel schedule' }).click();
    await page.getByRole('status').filter({ hasText: 'Schedule cancelled' }).waitFor();
    const id = page.url().split('/').pop()!;
    const entry = await p.manage('GET', `/projects/${p.projectId}/changelog/${id}`);
    assert.equal(entry.body.state, 'draft');
    assert.equal(entry.body.statusKey, 'improved');
    assert.equal(entry.body.description, '<p>Twice as fast.</p>');
    assert.deepEqual(problems, []);
  });
});
