/**
 * Releases as the hub (issue 33) in Chromium against a real server: an error reported in
 * app@2.0.0 is linked to an idea and resolved in the next release; creating 2.0.1 ships the idea.
 * The release page of 2.0.0 shows what broke, that of 2.0.1 what shipped with its drafted entry,
 * and the group's page its linked idea and resolution. axe on each, dark once.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type SeededProject, seedProject } from './seed-project.ts';
import { type DashboardEnv, expectAccessible, startDashboardEnv, watchedPage } from './support.ts';

describe('dashboard release hub', () => {
  let env: DashboardEnv;
  let p: SeededProject;
  let groupId: string;
  before(async () => {
    env = await startDashboardEnv();
    p = await seedProject(env, 'Hub project');
    assert.equal((await p.manage('POST', `/projects/${p.projectId}/releases`, { version: '2.0.0' })).status, 201);
    const key = await p.manage('POST', `/projects/${p.projectId}/keys`, {
      environment: 'live',
      scopes: ['errors:write'],
    });
    assert.equal(key.status, 201, JSON.stringify(key.body));
    const response = await fetch(`${env.origin}/api/public/v1/errors`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key.body.key },
      body: JSON.stringify({
        title: 'PaymentError: card declined twice',
        message: 'card declined twice at checkout',
        app: { version: 'app@2.0.0' },
      }),
    });
    const error = { status: response.status, body: (await response.json()) as { id: string } };
    assert.equal(error.status, 201, JSON.stringify(error.body));
    groupId = (await p.manage('GET', `/projects/${p.projectId}/errors/${error.body.id}`)).body.groupId;
    const ideaId = await p.addIdea({ title: 'Checkout should retry the card' });
    const link = await p.manage('POST', `/projects/${p.projectId}/error-groups/${groupId}/links`, {
      featureId: ideaId,
    });
    assert.equal(link.status, 200, JSON.stringify(link.body));
    assert.equal(
      (await p.manage('PUT', `/projects/${p.projectId}/error-groups/${groupId}/resolution`, {})).status,
      200,
    );
    assert.equal((await p.manage('POST', `/projects/${p.projectId}/releases`, { version: '2.0.1' })).status, 201);
  });
  after(async () => env?.close());

  it('shows what broke and what shipped on release pages, and the group’s links', async () => {
    const { page, problems } = await watchedPage(env.browser);
    await p.signIn(page.context());
    // A release's page is reached from the list (a path ending in a version is taken for a file).
    const open = async (version: string) => {
      await page.goto(`${env.origin}/app/projects/${p.projectId}/releases`);
      await page.getByRole('link', { name: version, exact: true }).first().click();
      await page.getByRole('heading', { level: 1, name: `Release ${version}` }).waitFor();
    };
    await open('2.0.0');
    const broke = page.getByRole('region', { name: 'What broke' });
    await broke.getByRole('link', { name: 'PaymentError: card declined twice' }).waitFor();
    assert.match((await broke.textContent()) ?? '', /1 new error groups/);
    await expectAccessible(page, 'a release page with what broke');

    await open('2.0.1');
    const shipped = page.getByRole('region', { name: 'What shipped' });
    await shipped.getByRole('link', { name: 'Checkout should retry the card' }).waitFor();
    await shipped.getByRole('link', { name: 'Release 2.0.1' }).waitFor();
    assert.match((await shipped.textContent()) ?? '', /draft, to edit and publish/);
    await expectAccessible(page, 'a release page with what shipped');
    await page.emulateMedia({ colorScheme: 'dark' });
    await expectAccessible(page, 'a release page with what shipped, dark');
    await page.emulateMedia({ colorScheme: 'light' });

    await page.goto(`${env.origin}/app/projects/${p.projectId}/errors/groups/${groupId}`);
    const links = page.getByRole('region', { name: 'Linked ideas and bugs' });
    await links.getByRole('link', { name: 'Checkout should retry the card' }).waitFor();
    await links.getByText('Shipped in 2.0.1.').waitFor();
    await expectAccessible(page, 'an error group with its links');
    assert.deepEqual(problems, []);
  });
});
