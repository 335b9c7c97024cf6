/**
 * The roadmap screen in Chromium against a real server: ideas in columns by status (New and
 * internal ideas shown and marked), a card moved with the keyboard (its "Move to…" menu, and
 * React Aria's keyboard drag and drop) and one dragged with the mouse, each move seen through the
 * public API's GET /roadmap and on the board's roadmap page; a refused move is undone with the
 * reason on the card. axe on every state, light and dark.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { type SeededProject, seedProject } from './seed-project.ts';
import { type DashboardEnv, expectAccessible, startDashboardEnv, watchedPage } from './support.ts';

describe('dashboard roadmap', () => {
  let env: DashboardEnv;
  let p: SeededProject;
  const ids: Record<string, string> = {};
  before(async () => {
    env = await startDashboardEnv();
    p = await seedProject(env, 'Roadmap project');
    ids['keyboard'] = await p.addIdea({ title: 'Keyboard card', status: 'open' });
    ids['mouse'] = await p.addIdea({ title: 'Mouse card', status: 'open', type: 'bug' });
    ids['dnd'] = await p.addIdea({ title: 'Drag key card', status: 'open' });
    ids['secret'] = await p.addIdea({ title: 'Secret plan', status: 'planned', internal: true });
    ids['fresh'] = await p.addIdea({ title: 'Fresh idea', status: 'new' });
    ids['doomed'] = await p.addIdea({ title: 'Doomed card', status: 'open' });
  });
  after(async () => env?.close());

  const column = (page: Page, name: string) => page.getByRole('grid', { name: new RegExp(`^${name}`) });
  const card = (page: Page, columnName: string, title: string) =>
    column(page, columnName).getByRole('row', { name: title });

  /** The accessible name of the focused element, as far as these controls need it. */
  const focusedName = (page: Page) =>
    page.evaluate(() => {
      const active = document.activeElement;
      if (!active) return '';
      const ids = active.getAttribute('aria-labelledby');
      if (ids)
        return ids
          .split(' ')
          .map((id) => {
            const node = document.getElementById(id);
            return node?.getAttribute('aria-label') ?? node?.textContent ?? '';
          })
          .join(' ');
      return active.getAttribute('aria-label') ?? active.textContent ?? '';
    });

  /** The public roadmap's column of an idea (null when it is in none). */
  async function publicColumn(featureId: string): Promise<string | null> {
    const roadmap = await p.publicApi('GET', '/roadmap');
    assert.equal(roadmap.status, 200);
    for (const col of roadmap.body.columns) if (col.items.some((item: any) => item.id === featureId)) return col.status;
    return null;
  }

  async function boardColumn(title: string): Promise<string | null> {
    const page = await (await fetch(`${p.boardUrl}/roadmap`)).text();
    const sections = page.split('<section class="column"').slice(1);
    for (const section of sections) {
      if (section.includes(title)) return /aria-labelledby="col-([a-z-]+)"/.exec(section)?.[1] ?? null;
    }
    return null;
  }

  it('shows ideas by status and moves cards by keyboard and by mouse', async (t) => {
    const { page, problems } = await watchedPage(env.browser);
    t.after(async () => {
      if (process.env['SHOTS'])
        await page.screenshot({ path: `${process.env['SHOTS']}/roadmap-end.png`, fullPage: true });
    });
    await p.signIn(page.context());
    await page.goto(`${env.origin}/app/projects/${p.projectId}/roadmap`);
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Roadmap');
    await card(page, 'Open', 'Keyboard card').waitFor();
    await card(page, 'New', 'Fresh idea').waitFor();
    await page.getByText('Not on the public roadmap').waitFor();
    const secret = card(page, 'Planned', 'Secret plan');
    await secret.getByText('Internal', { exact: true }).waitFor();
    await card(page, 'Open', 'Mouse card').getByText('Bug', { exact: true }).waitFor();
    assert.equal(
      await card(page, 'Open', 'Keyboard card').getByRole('link', { name: 'Keyboard card' }).getAttribute('href'),
      `/app/projects/${p.projectId}/inbox/${ids['keyboard']}`,
    );
    await expectAccessible(page, 'roadmap');
    assert.equal(await publicColumn(ids['secret']!), null, 'internal ideas stay off the public roadmap');

    // Keyboard: to the card's row, right to its "Move to…" button, Enter, the status, Enter.
    await card(page, 'Open', 'Keyboard card').focus();
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
    assert.equal(await focusedName(page), 'Move “Keyboard card” to…');
    await page.keyboard.press('Enter');
    await page.getByRole('menu', { name: 'Move “Keyboard card” to' }).waitFor();
    await expectAccessible(page, 'roadmap, move menu open');
    for (let i = 0; i < 8 && (await focusedName(page)) !== 'Planned'; i++) await page.keyboard.press('ArrowDown');
    assert.equal(await focusedName(page), 'Planned');
    await page.keyboard.press('Enter');
    await card(page, 'Planned', 'Keyboard card').waitFor();
    await page.getByRole('status').filter({ hasText: 'Moved “Keyboard card” to Planned.' }).waitFor();
    assert.equal(await publicColumn(ids['keyboard']!), 'planned');
    assert.equal(await boardColumn('Keyboard card'), 'planned');

    // Keyboard drag and drop: the card's drag button, Enter, Tab through the columns, Enter.
    await card(page, 'Open', 'Drag key card').focus();
    await page.keyboard.press('ArrowRight');
    assert.equal(await focusedName(page), 'Drag “Drag key card”');
    await page.keyboard.press('Enter');
    for (let i = 0; i < 10 && !/In review/.test(await focusedName(page)); i++) await page.keyboard.press('Tab');
    assert.match(await focusedName(page), /^Drop on In review/);
    await page.keyboard.press('Enter');
    await card(page, 'In review', 'Drag key card').waitFor();
    await page.getByRole('status').filter({ hasText: 'Moved “Drag key card” to In review.' }).waitFor();
    assert.equal(await publicColumn(ids['dnd']!), 'in-review');
    assert.equal(await boardColumn('Drag key card'), 'in-review');

    // Mouse: drag the card onto another column.
    await card(page, 'Open', 'Mouse card').getByText('votes').dragTo(column(page, 'In progress'));
    await card(page, 'In progress', 'Mouse card').waitFor();
    await page.getByRole('status').filter({ hasText: 'Moved “Mouse card” to In progress.' }).waitFor();
    assert.equal(await publicColumn(ids['mouse']!), 'in-progress');
    assert.equal(await boardColumn('Mouse card'), 'in-progress');

    // A refused move is undone, with the server's reason on the card.
    await page.route(`**/api/v1/projects/${p.projectId}/features/${ids['doomed']}`, (route) =>
      route.request().method() === 'PATCH'
        ? route.fulfill({
            status: 409,
            contentType: 'application/json',
            body: JSON.stringify({ error: 'The idea changed meanwhile; reload and try again' }),
          })
        : route.continue(),
    );
    await page.getByRole('button', { name: 'Move “Doomed card” to…' }).click();
    await page.getByRole('menuitem', { name: 'Done' }).click();
    const doomed = card(page, 'Open', 'Doomed card');
    await doomed.getByRole('alert').filter({ hasText: 'The idea changed meanwhile' }).waitFor();
    assert.equal(await card(page, 'Done', 'Doomed card').count(), 0);
    assert.equal(await publicColumn(ids['doomed']!), 'open');
    await expectAccessible(page, 'roadmap with a refused move');

    await page.emulateMedia({ colorScheme: 'dark' });
    await expectAccessible(page, 'roadmap, dark');
    assert.deepEqual(problems, []);
  });
});
