/**
 * Home's "what broke" (issue 33) in Chromium against a real server: errors reported in app@3.0.0
 * make two new error groups, one reported twice; Home's latest release of the project names them
 * with their counts and links to the group's page. axe light and dark.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type SeededProject, seedProject } from './seed-project.ts';
import { type DashboardEnv, expectAccessible, startDashboardEnv, watchedPage } from './support.ts';

describe('dashboard home: what broke in the latest release', () => {
  let env: DashboardEnv;
  let p: SeededProject;
  before(async () => {
    env = await startDashboardEnv();
    p = await seedProject(env, 'Broke project');
    assert.equal((await p.manage('POST', `/projects/${p.projectId}/releases`, { version: '3.0.0' })).status, 201);
    const key = await p.manage('POST', `/projects/${p.projectId}/keys`, {
      environment: 'live',
      scopes: ['errors:write'],
    });
    assert.equal(key.status, 201, JSON.stringify(key.body));
    const report = async (title: string, errorType: string) => {
      const response = await fetch(`${env.origin}/api/public/v1/errors`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': key.body.key },
        body: JSON.stringify({ title, message: `${title}.`, errorType, app: { version: 'app@3.0.0' } }),
      });
      assert.ok(response.status === 201 || response.status === 200, String(response.status));
    };
    await report('SearchError: index offline', 'SearchError');
    await report('SearchError: index offline', 'SearchError');
    await report('UploadError: quota exceeded', 'UploadError');
  });
  after(async () => env?.close());

  it('lists the new groups of the latest release with their counts', async () => {
    const { page, problems } = await watchedPage(env.browser);
    await p.signIn(page.context());
    await page.goto(`${env.origin}/app/`);
    const broke = page.getByRole('region', { name: 'What broke in Broke project 3.0.0' });
    await broke.getByRole('link', { name: 'SearchError: index offline' }).waitFor();
    await broke.getByRole('link', { name: 'UploadError: quota exceeded' }).waitFor();
    const text = (await broke.textContent()) ?? '';
    assert.match(text, /2 new error groups: 3 events/);
    // The busiest first.
    assert.ok(text.indexOf('SearchError') < text.indexOf('UploadError'), text);
    await expectAccessible(page, 'home with what broke');
    await page.emulateMedia({ colorScheme: 'dark' });
    await expectAccessible(page, 'home with what broke, dark');
    await broke.getByRole('link', { name: 'SearchError: index offline' }).click();
    await page.getByRole('heading', { level: 1, name: /SearchError: index offline/ }).waitFor();
    assert.deepEqual(problems, []);
  });
});
