/**
 * What the in-app widget sent with a bug (issue 35), on the idea's page in Chromium: the page URL,
 * the release, the last error linked to its error group, and the screenshot, loaded from the
 * management API. axe on the page.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type SeededProject, seedProject } from './seed-project.ts';
import { type DashboardEnv, expectAccessible, startDashboardEnv, watchedPage } from './support.ts';

// The smallest PNG: 1x1.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

describe('dashboard: what the widget sent with a report', () => {
  let env: DashboardEnv;
  let p: SeededProject;
  before(async () => {
    env = await startDashboardEnv();
    p = await seedProject(env, 'Widget reports');
  });
  after(async () => env?.close());

  it('shows page, release, the last error and the screenshot on the bug’s page', async () => {
    // The id @signpost/error-tracker got for the page's last report (this key reports no errors itself).
    const error = { body: { id: 'err_0lastreported0001' } };
    const bug = await p.publicApi('POST', '/features', {
      title: 'Chart is blank',
      description: 'The chart shows nothing after login.',
      type: 'bug',
      channel: 'widget',
      metadata: { url: 'https://app.example.com/reports', release: 'web@1.2.3', errorEventId: error.body.id },
    });
    const uploaded = await fetch(`${env.origin}/api/public/v1/features/${bug.body.id}/attachments`, {
      method: 'POST',
      headers: { 'x-api-key': p.liveKey, 'content-type': 'image/png' },
      body: PNG,
    });
    assert.equal(uploaded.status, 201);

    const { page, problems } = await watchedPage(env.browser);
    await p.signIn(page.context());
    await page.goto(`${env.origin}/app/projects/${p.projectId}/inbox/${bug.body.id}`);
    const section = page.getByRole('region', { name: 'Sent from the app' });
    await section.waitFor();
    await section.getByText('web@1.2.3').waitFor();
    assert.equal(
      await section.getByRole('link', { name: error.body.id }).getAttribute('href'),
      `/app/projects/${p.projectId}/errors/${error.body.id}`,
    );
    const image = section.getByRole('img', { name: 'Screenshot 1 sent with the report' });
    await image.waitFor();
    await page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('.report-shots img');
      return !!img && img.complete && img.naturalWidth === 1;
    });
    await expectAccessible(page, 'idea with what the widget sent');
    assert.deepEqual(problems, []);
  });
});
