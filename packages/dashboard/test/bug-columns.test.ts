/**
 * The bug reports list at 1280 px shows every column (Status and Idea last, issue 31) inside its
 * column without scrolling; at 1024 px First seen and Environment give way and Status and Idea
 * still show.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type SeededProject, seedProject } from './seed-project.ts';
import { type DashboardEnv, startDashboardEnv, watchedPage } from './support.ts';

describe('dashboard bug report columns', () => {
  let env: DashboardEnv;
  let p: SeededProject;

  before(async () => {
    env = await startDashboardEnv();
    p = await seedProject(env, 'Bug columns project');
    const key = await p.manage('POST', `/projects/${p.projectId}/keys`, {
      name: 'Bugs key',
      environment: 'live',
      scopes: ['bugs:write'],
    });
    assert.equal(key.status, 201, JSON.stringify(key.body));
    const response = await fetch(`${env.origin}/api/public/v1/bugs`, {
      method: 'POST',
      headers: { 'x-api-key': (key.body.key ?? key.body.secret) as string, 'content-type': 'application/json' },
      body: JSON.stringify({
        title: 'The export button downloads an empty spreadsheet for long reports',
        message: 'Exporting the quarterly report gives a file with headers and no rows, every time since Monday.',
        createFeature: true,
      }),
    });
    assert.equal(response.status, 201, await response.text());
  });
  after(async () => env?.close());

  it('fits Status and Idea at 1280 px and keeps them at 1024 px', async () => {
    const { page, problems } = await watchedPage(env.browser);
    await p.signIn(page.context());
    for (const width of [1280, 1024]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${env.origin}/app/projects/${p.projectId}/bugs`);
      const table = page.getByRole('table', { name: 'Bug reports' });
      await table.getByRole('link', { name: /^The export button/ }).waitFor();
      for (const name of ['Status', 'Idea']) {
        const box = await table.getByRole('columnheader', { name, exact: true }).boundingBox();
        assert.ok(box && box.x + box.width <= width, `${name} is inside the window at ${width} px`);
      }
      const fits = await page
        .locator('.reports-table-wrap')
        .evaluate((wrap) => wrap.scrollWidth <= wrap.clientWidth + 1);
      assert.ok(fits, `the table fits its column at ${width} px`);
      const firstSeen = await table.getByRole('columnheader', { name: 'First seen' }).isVisible();
      assert.equal(firstSeen, width >= 1280, `First seen shows at ${width} px only from 1280`);
    }
    assert.deepEqual(problems, []);
  });
});
