/**
 * The import screen in Chromium against a real server: a UserVoice export is uploaded (as a
 * multipart/form-data form), the dry run's report shows counts of every section (ideas, votes,
 * comments, people, tags, changelog entries), the status table and what is skipped (nothing
 * stored yet); a status is changed in the table, the dry run repeated (Alt+D) and the import run;
 * the ideas are then in the project. A Canny dump with boards and changelog entries shows its
 * tags and entries counted and the reason a link is left out. A malformed file shows the
 * server's error naming the row. axe-core in light and dark on the report.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
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
    const upload = page.waitForRequest((request) => request.url().includes('/imports?'));
    await page.getByRole('button', { name: 'Dry run' }).click();
    assert.match((await upload).headers()['content-type'] ?? '', /^multipart\/form-data; boundary=/);
    await page.getByText('Dry run: nothing was stored.').waitFor();
    const counts = page.getByRole('table', { name: 'What an import would do' });
    // Columns: created, updated, unchanged, matched, skipped (– where the section has none).
    const row = async (name: RegExp) => (await counts.getByRole('row', { name }).textContent()) ?? '';
    assert.equal(await row(/^Ideas/), 'Ideas300–0');
    assert.equal(await row(/^Votes/), 'Votes3–0–0');
    assert.equal(await row(/^Comments/), 'Comments000–0');
    assert.equal(await row(/^People/), 'People3––0–');
    assert.equal(
      await row(/^Tags/),
      'Tags (boards, categories, labels)5––0–',
      'General, Security, Mobile, Enterprise, SSO',
    );
    assert.equal(await row(/^Changelog/), 'Changelog entries000––');
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
    assert.equal(await row(/^Ideas/), 'Ideas200–1');
    const skipped = page.getByRole('table', { name: /^Skipped \(1\)/ });
    await skipped.getByText('status "duplicate" is mapped to skip').waitFor();

    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByText('Imported.').waitFor();
    assert.deepEqual(await titles(), [...before, 'Mobile app', 'Single sign-on with Okta'].sort());
    assert.deepEqual(problems, []);
  });

  it('shows the tags and changelog entries of a Canny dump, and why a link is left out', async () => {
    // The dump as one file, made of the fixture's parts (boards, users, posts, entries).
    const dir = join(FIXTURES, 'canny/with-changelog');
    const dump = Object.assign(
      {},
      ...['boards', 'users', 'posts', 'entries'].map((part) =>
        JSON.parse(readFileSync(join(dir, `${part}.json`), 'utf8')),
      ),
    );
    const project = await seedProject(env, 'Canny import project');
    const bugs = await project.manage('POST', `/projects/${project.projectId}/tags`, { name: 'Bug Reports' });
    assert.equal(bugs.status, 201);
    const { page, problems } = await watchedPage(env.browser);
    await project.signIn(page.context());
    await page.goto(`${env.origin}/app/projects/${project.projectId}/import`);
    await page.getByLabel('From').selectOption('canny');
    await page.getByLabel('Export file').setInputFiles({
      name: 'canny-dump.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify(dump)),
    });
    await page.getByRole('button', { name: 'Dry run' }).click();
    const counts = page.getByRole('table', { name: 'What an import would do' });
    const row = async (name: RegExp) => (await counts.getByRole('row', { name }).textContent()) ?? '';
    await counts.waitFor();
    assert.equal(await row(/^Tags/), 'Tags (boards, categories, labels)2––1–', 'Bug Reports was there already');
    assert.equal(await row(/^Changelog/), 'Changelog entries400––');
    const skipped = page.getByRole('table', { name: /^Skipped \(1\)/ });
    await skipped.getByText('its link to idea p9 is left out: the idea is not imported').waitFor();
    await skipped.getByText('canny-dump.json row 2').waitFor();
    await expectAccessible(page, 'import, tags and changelog');

    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByText('Imported.').waitFor();
    const done = page.getByRole('table', { name: 'What the import did' });
    assert.equal((await done.getByRole('row', { name: /^Changelog/ }).textContent()) ?? '', 'Changelog entries400––');
    const tags = await project.manage('GET', `/projects/${project.projectId}/tags`);
    assert.deepEqual(
      tags.body.tags.map((tag: { name: string }) => tag.name),
      ['Bug Reports', 'Feature Requests', 'Integrations'],
    );
    const entries = await project.manage('GET', `/projects/${project.projectId}/changelog`);
    assert.equal(entries.body.entries.length, 4);
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
