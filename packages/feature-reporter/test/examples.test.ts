import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { EXAMPLE_BASE_URL } from '@signpost/test-support/browser';
import { bundle, importServerBundle, serveReactExample } from '@signpost/test-support/bundle';
import { sdkTestEnv } from '@signpost/test-support/env';
import { quickStart, runNode, runSnippet } from '@signpost/test-support/run';

const pkgDir = fileURLToPath(new URL('..', import.meta.url));
const examples = fileURLToPath(new URL('../examples/', import.meta.url));
const DEMO_KEY = 'svc_live_demo_signpostpublicdemokey0001';

const { server, project, browser, site } = await sdkTestEnv({ project: true, browser: true, site: true });

const titles = async (projectId: string) =>
  (
    await server.db.all<{ title: string }>('SELECT title FROM features WHERE project_id = ? ORDER BY title', [
      projectId,
    ])
  ).map((r) => r.title);

describe('README and examples', () => {
  test('the README quick start works as written (against the local default URL and the demo key)', async () => {
    await runSnippet(quickStart(new URL('../README.md', import.meta.url).pathname), pkgDir, { origin: server.origin });
    assert.ok((await titles(server.demoProjectId)).includes('Dark mode'));
    const rows = await server.db.all<{ channel: string }>(
      "SELECT channel FROM features WHERE project_id = ? AND description = 'A dark theme for late nights.'",
      [server.demoProjectId],
    );
    assert.deepEqual(
      rows.map((r) => r.channel),
      ['sdk'],
    );
  });

  test('examples/node.mjs', async () => {
    const out = await runNode(`${examples}node.mjs`, {
      cwd: pkgDir,
      env: { SIGNPOST_URL: server.baseUrl, SIGNPOST_API_KEY: project.liveKey },
    });
    assert.match(out, /filed feature \S+ \(open\)/);
    assert.match(out, /filed bug \S+ \(new\)/);
    assert.match(out, /votes: 1, comments: 1/);
    assert.match(out, /missing feature: 404/);
    assert.deepEqual(await titles(project.projectId), ['Export the roadmap as CSV', 'Search ignores accents']);
  });

  test('examples/browser.html in Chromium: roadmap list and the themed widget', async () => {
    const html = readFileSync(`${examples}browser.html`, 'utf8')
      .replaceAll('https://esm.sh/@signpost/feature-reporter/widget', '/esm/widget.js')
      .replaceAll('https://esm.sh/@signpost/feature-reporter', '/esm/index.js')
      .replaceAll(EXAMPLE_BASE_URL, server.baseUrl);
    site.serve('/browser.html', html);
    site.serve('/esm/widget.js', await bundle("export * from '@signpost/feature-reporter/widget';", pkgDir));
    site.serve('/esm/index.js', await bundle("export * from '@signpost/feature-reporter';", pkgDir));
    const page = await browser.newPage();
    await page.goto(`${site.origin}/browser.html`);
    await page.locator('#planned li').first().waitFor();
    assert.match(await page.locator('#planned').textContent(), /Dark mode \(42 votes\)/);
    const accent = await page
      .locator('signpost-feedback .trigger')
      .evaluate((el) => getComputedStyle(el).backgroundColor);
    assert.equal(accent, 'rgb(15, 118, 110)');
    await page.close();
  });

  test('examples/react.tsx in Chromium: roadmap renders and a vote reaches the server', async () => {
    const url = await serveReactExample(site, pkgDir, {
      [EXAMPLE_BASE_URL]: server.baseUrl,
      [DEMO_KEY]: project.liveKey,
    });
    const reporter = await import('@signpost/feature-reporter');
    const client = reporter.createFeatureReporter({ apiKey: project.liveKey, baseUrl: server.baseUrl });
    const planned = await client.submitFeature({ title: 'Planned thing', description: 'Will be on the roadmap.' });
    await server.db.run("UPDATE features SET status = 'planned' WHERE id = ?", [planned.id]);
    const page = await browser.newPage();
    await page.goto(url);
    const item = page.locator('li', { hasText: 'Planned thing' });
    await item.waitFor();
    await item.getByRole('button', { name: 'Vote' }).click();
    await page.locator('li', { hasText: 'Planned thing' }).locator('.votes', { hasText: '1' }).waitFor();
    assert.equal((await client.getFeature(planned.id)).voteCount, 1);
    assert.equal(
      await page.locator('signpost-feedback').evaluate((el) => !!el.shadowRoot?.querySelector('.trigger')),
      true,
    );
    await page.close();
  });

  test('examples/nextjs: the server component renders the board; the client component renders the widget tag', async () => {
    process.env.SIGNPOST_URL = server.baseUrl;
    process.env.SIGNPOST_API_KEY = server.demoKey;
    const { render } = await importServerBundle(
      `import { renderToString } from 'react-dom/server';
       import Page from './examples/nextjs/app/page.tsx';
       export async function render() { return renderToString(await Page()); }`,
      pkgDir,
    );
    const html: string = await render();
    assert.match(html, /<h1>Planned<\/h1><ul><li>Dark mode<\/li>/);
    assert.match(html, /Two-factor sign-in is here/);
    assert.match(html, /<signpost-feedback><\/signpost-feedback>/);
  });
});
