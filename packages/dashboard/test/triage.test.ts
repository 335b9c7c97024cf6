/**
 * Triage in Chromium: ideas submitted through the API are `open` but wait in the inbox's "Needs
 * triage" view and on Home; "Mark triaged" on an idea's page, or a status change, takes them out.
 * axe on the view and the idea's page.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type SeededProject, seedProject } from './seed-project.ts';
import { type DashboardEnv, expectAccessible, startDashboardEnv, watchedPage } from './support.ts';

describe('dashboard triage', () => {
  let env: DashboardEnv;
  let p: SeededProject;
  before(async () => {
    env = await startDashboardEnv();
    p = await seedProject(env, 'Triage project');
  });
  after(async () => env?.close());

  it('lists untriaged ideas and marks one triaged from its page', async () => {
    const looked = await p.addIdea({ title: 'Calendar export' });
    await p.addIdea({ title: 'Keyboard shortcuts' });
    await p.addIdea({ title: 'Already planned', status: 'planned' });
    const { page, problems } = await watchedPage(env.browser);
    await p.signIn(page.context());

    await page.goto(`${env.origin}/app/`);
    const home = page.getByRole('region', { name: 'Waiting for triage' });
    await home.getByRole('link', { name: 'Calendar export' }).waitFor();
    assert.equal(await home.getByRole('link', { name: 'Already planned' }).count(), 0);

    await page.goto(`${env.origin}/app/projects/${p.projectId}/inbox?triage=needed`);
    await page.getByRole('link', { name: 'Calendar export' }).waitFor();
    await page.getByRole('link', { name: 'Keyboard shortcuts' }).waitFor();
    assert.equal(await page.getByRole('link', { name: 'Already planned' }).count(), 0);
    await expectAccessible(page, 'inbox, needs triage');

    await page.getByRole('link', { name: 'Calendar export' }).click();
    await page.waitForURL(new RegExp(`/inbox/${looked}`));
    await page.getByRole('region', { name: 'The open idea' }).getByText('Needs triage').first().waitFor();
    await expectAccessible(page, 'idea needing triage');
    await page.getByRole('button', { name: 'Mark triaged' }).click();
    await page.getByRole('button', { name: 'Mark triaged' }).waitFor({ state: 'detached' });

    await page.goto(`${env.origin}/app/projects/${p.projectId}/inbox?triage=needed`);
    await page.getByRole('link', { name: 'Keyboard shortcuts' }).waitFor();
    assert.equal(await page.getByRole('link', { name: 'Calendar export' }).count(), 0);
    const api = await p.manage('GET', `/projects/${p.projectId}/features/${looked}`);
    assert.ok(api.body.triagedAt);
    assert.equal(api.body.status, 'open', 'triage changes no status');
    assert.deepEqual(problems, []);
  });
});
