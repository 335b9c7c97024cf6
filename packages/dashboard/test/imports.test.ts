/**
 * The import screen in Chromium against a real server: a UserVoice export is uploaded, the dry
 * run's report shows counts, the status table and what is skipped (nothing stored yet); a status
 * is changed in the table, the dry run repeated (Alt+D) and the import run; the ideas are then
 * in the project. A malformed file shows the server's error naming the row. axe-core in light and
 * dark on the report.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { seedProject, type SeededProject } from './seed-project.ts';
import { type DashboardEnv, expectAccessible, startDashboardEnv, watchedPage } from './support.ts';

const FIXTURES = join(import.meta.dirname, '../../server/test/fixtures/imports');

describe('dashboard: import', () => {
  let env: DashboardEnv;
  let p: SeededProject;

  before(async () => {
    env = await startDashboardEnv();
    p = await seedProject(env, 'Import project');
  });
  after(async () => env?.close());

  const titles = async () =>
    ((await p.manage('GET', `/projects/${p.projectId}/features?limit=100`)).body.features as { title: string }[])
      .map((feature) => feature.title)
      .sort();

  it('dry-runs a UserVoice export, changes a status, imports it', async () => {
    const before = await titles();
    const { page, problems } = await watchedPage(env.browser);
    await p.signIn(page.context());
    await page.goto(`${env.origin}/app/projects/${p.projectId}/settings`);
    await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Import' }).click();
    await page.getByRole('heading', { level: 1, name: 'Import' }).waitFor();
    await expectAccessible(page, 'import, empty');

    await page.getByLabel('From').selectOption('uservoice');
    await page.getByLabel('Export file').setInputFiles(join(FIXTURES, 'uservoice/suggestions.csv'));
    await page.getByRole('button', { name: 'Dry run' }).click();
    await page.getByText('Dry run: nothing was stored.').waitFor();
    const counts = page.getByRole('table', { name: 'What an import would do' });
    assert.match((await counts.getByRole('row', { name: /^Ideas/ }).textContent()) ?? '', /^Ideas300–0$/);
    assert.match((await counts.getByRole('row', { name: /^Votes/ }).textContent()) ?? '', /^Votes3–0–0$/);
    assert.deepEqual(await titles(), before, 'a dry run stores nothing');
    await expectAccessible(page, 'import, dry run report');
    await page.emulateMedia({ colorScheme: 'dark' });
    await expectAccessible(page, 'import, dry run report (dark)');
    await page.emulateMedia({ colorScheme: 'light' });

    // Duplicates are left out; the table says so after the next dry run (Alt+D).
    await page.getByLabel('Status for “duplicate”').selectOption('skip');
    await page.getByText('Run the dry run again to see your status changes.').waitFor();
    await page.keyboard.press('Alt+d');
    await page.getByText('Dry run: nothing was stored. Import does this:').waitFor();
    assert.match((await counts.getByRole('row', { name: /^Ideas/ }).textContent()) ?? '', /^Ideas200–1$/);
    const skipped = page.getByRole('table', { name: /^Skipped \(1\)/ });
    await skipped.getByText('status "duplicate" is mapped to skip').waitFor();

    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByText('Imported.').waitFor();
    assert.deepEqual(await titles(), [...before, 'Mobile app', 'Single sign-on with Okta'].sort());
    assert.deepEqual(problems, []);
  });

  it('shows the row and column of a malformed file', async () => {
    const { page } = await watchedPage(env.browser);
    await p.signIn(page.context());
    await page.goto(`${env.origin}/app/projects/${p.projectId}/import`);
    await page.getByLabel('From').selectOption('uservoice');
    await page.getByLabel('Export file').setInputFiles(join(FIXTURES, 'uservoice/bad.csv'));
    await page.getByRole('button', { name: 'Dry run' }).click();
    await page.getByRole('alert').getByText('bad.csv row 3, column "ideaTitle": is missing or empty').waitFor();
    await expectAccessible(page, 'import, refused file');
  });
});
