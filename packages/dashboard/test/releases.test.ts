/**
 * The releases screen in Chromium against a real server: create 1.2.0 (a bad version refused in
 * place with nothing typed lost, then a duplicate refused by the server), mark it required by
 * editing it, read the version-check preview for 1.1.0 ("update required") and check that the
 * public GET /version-check answers the same; delete a release after a confirmation. axe on every
 * state, dark once.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type SeededProject, seedProject } from './seed-project.ts';
import { type DashboardEnv, expectAccessible, startDashboardEnv, watchedPage } from './support.ts';

describe('dashboard releases', () => {
  let env: DashboardEnv;
  let p: SeededProject;
  before(async () => {
    env = await startDashboardEnv();
    p = await seedProject(env, 'Releases project');
  });
  after(async () => env?.close());

  const versionCheck = async (currentVersion: string) => {
    const response = await fetch(
      `${env.origin}/api/public/v1/version-check?${new URLSearchParams({ projectId: p.projectId, currentVersion })}`,
    );
    assert.equal(response.status, 200);
    return response.json() as Promise<any>;
  };

  it('creates, edits, previews the version check and deletes releases', async (t) => {
    const { page, problems } = await watchedPage(env.browser);
    t.after(async () => {
      if (process.env['SHOTS'])
        await page.screenshot({ path: `${process.env['SHOTS']}/releases-end.png`, fullPage: true });
    });
    await p.signIn(page.context());
    await page.goto(`${env.origin}/app/projects/${p.projectId}/releases`);
    await page.getByRole('heading', { level: 1, name: 'Releases' }).waitFor();
    await page.getByText('No releases yet.').waitFor();
    await expectAccessible(page, 'releases, empty');

    // 1.1.0 first, through the form.
    const form = page.locator('section', { has: page.getByRole('heading', { name: 'New release' }) });
    await form.getByLabel('Version', { exact: true }).fill('1.1.0');
    await form.getByLabel('Title').fill('Dark mode');
    await form.getByRole('button', { name: 'Create release' }).click();
    await page.getByText('Release 1.1.0 created.').waitFor();

    // A bad version is refused in place; nothing typed is lost.
    await form.getByLabel('Version', { exact: true }).fill('1.2');
    await form.getByLabel('Title').fill('Offline mode');
    await form.getByLabel('Git commit').fill('abc1234');
    await form.getByLabel('Release notes').fill('Works without a network.\nSyncs later.');
    await form.getByLabel('Download URL').fill('https://example.com/app-1.2.0');
    await form.getByRole('button', { name: 'Create release' }).click();
    await form.getByText('Must be a SemVer version such as 1.4.0 or 2.0.0-beta.1').waitFor();
    assert.equal(await form.getByLabel('Version', { exact: true }).getAttribute('aria-invalid'), 'true');
    assert.equal(await form.getByLabel('Title').inputValue(), 'Offline mode');
    assert.equal(await form.getByLabel('Release notes').inputValue(), 'Works without a network.\nSyncs later.');
    await expectAccessible(page, 'releases, bad version');

    // The server refuses a duplicate, in place, too.
    await form.getByLabel('Version', { exact: true }).fill('1.1.0');
    await form.getByRole('button', { name: 'Create release' }).click();
    await form.getByRole('alert').getByText('Release 1.1.0 already exists').waitFor();
    assert.equal(await form.getByLabel('Git commit').inputValue(), 'abc1234');

    await form.getByLabel('Version', { exact: true }).fill('1.2.0');
    await form.getByRole('button', { name: 'Create release' }).click();
    await page.getByText('Release 1.2.0 created.').waitFor();
    const row = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: '1.2.0' }) });
    await row.getByRole('link', { name: 'Offline mode' }).waitFor();
    await row.getByText('abc1234').waitFor();
    assert.equal(await form.getByLabel('Version', { exact: true }).inputValue(), '', 'the form is ready for the next');
    await expectAccessible(page, 'releases, two listed');

    // Before it is required: an update available, not required.
    const preview = page.locator('section', { has: page.getByRole('heading', { name: 'Version check preview' }) });
    await preview.getByLabel('Client version').fill('1.1.0');
    await preview.getByRole('button', { name: 'Check' }).click();
    await preview.getByText('Update recommended: 1.1.0 → 1.2.0 (minor update).').waitFor();

    // Mark it required by editing it.
    await row.getByRole('button', { name: 'Edit 1.2.0' }).click();
    const edit = page.locator('section', { has: page.getByRole('heading', { name: 'Edit release 1.2.0' }) });
    assert.equal(await edit.getByLabel('Title').inputValue(), 'Offline mode');
    await edit.getByLabel('Required').check();
    await expectAccessible(page, 'releases, editing');
    await edit.getByRole('button', { name: 'Save release' }).click();
    await page.getByText('Release 1.2.0 saved.').waitFor();
    await row.getByText('Required').waitFor();
    const stored = await p.manage('GET', `/projects/${p.projectId}/releases/1.2.0`);
    assert.equal(stored.body.required, true);
    assert.equal(stored.body.releaseNotes, 'Works without a network.\nSyncs later.');

    // The preview says "update required", and the public version check agrees, field for field.
    await preview.getByRole('button', { name: 'Check' }).click();
    await preview.getByText('Update required: a client on 1.1.0 must update to 1.2.0 (minor update).').waitFor();
    const json = JSON.parse((await preview.locator('pre').textContent())!);
    const publicAnswer = await versionCheck('1.1.0');
    assert.deepEqual(json, publicAnswer);
    assert.equal(publicAnswer.updateRequired, true);
    assert.equal(publicAnswer.updateType, 'minor');
    assert.equal(publicAnswer.latestVersion.version, '1.2.0');
    await expectAccessible(page, 'releases, preview');

    await preview.getByLabel('Client version').fill('1.2.0');
    await preview.getByRole('button', { name: 'Check' }).click();
    await preview.getByText('No update: 1.2.0 is the latest release.').waitFor();

    // Delete 1.1.0, confirmed.
    const older = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: '1.1.0' }) });
    await older.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.getByText('Delete release 1.1.0?').waitFor();
    await expectAccessible(page, 'releases, confirm delete');
    await dialog.getByRole('button', { name: 'Delete release' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText('Release 1.1.0 deleted.').waitFor();
    const listed = await p.manage('GET', `/projects/${p.projectId}/releases`);
    assert.deepEqual(
      listed.body.releases.map((r: any) => r.version),
      ['1.2.0'],
    );

    await page.emulateMedia({ colorScheme: 'dark' });
    await expectAccessible(page, 'releases, dark');
    assert.deepEqual(problems, []);
  });
});
