/**
 * The real @sentry/browser in Chromium with its default release health (a session per page
 * load): one visitor's page hits an uncaught error, another's does not; release health counts two
 * sessions, one `unhandled` (what the browser SDK sends: a page does not crash), and two users.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import type { ManagedProject } from '../../support/manage-fixtures.ts';
import { type SentryBrowserEnv, sentryBundle, startSentryBrowserEnv } from '../../support/sentry-browser.ts';

function page(dsn: string, visitor: string): string {
  return `<!doctype html><html><head><title>Shop</title><script src="/sentry.js"></script></head><body>
<button id="pay">Pay</button>
<script>
Sentry.init({ dsn: ${JSON.stringify(dsn)}, release: 'web@2.0.0', environment: 'staging',
  initialScope: { user: { id: ${JSON.stringify(visitor)} } } });
document.getElementById('pay').addEventListener('click', function pay() {
  null.charge();
});
</script></body></html>`;
}

describe('release health: @sentry/browser sessions in Chromium', () => {
  let env: SentryBrowserEnv;
  let project: ManagedProject;
  let siteOrigin: string;
  let browser: Browser;

  before(async () => {
    const bundle = await sentryBundle();
    env = await startSentryBrowserEnv((url, dsn) =>
      url.pathname === '/sentry.js'
        ? { type: 'text/javascript', body: bundle }
        : { type: 'text/html', body: page(dsn, url.searchParams.get('visitor') ?? 'nobody') },
    );
    ({ project, siteOrigin, browser } = env);
  });
  after(async () => {
    await env?.close();
  });

  const health = async () => {
    const response = await project.member.get(`/projects/${project.projectId}/release-health/2.0.0`, {
      query: { days: 1 },
    });
    return response.status === 200 ? response.body.release : undefined;
  };
  const waitFor = async (done: (release: any) => boolean) => {
    let release: any;
    for (let i = 0; i < 100; i++) {
      release = await health();
      if (release && done(release)) return release;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return release;
  };

  it('counts an unhandled and a healthy page session, and their users', async () => {
    const calm = await browser.newContext();
    await (await calm.newPage()).goto(`${siteOrigin}/shop?visitor=visitor-7`);
    assert.equal((await waitFor((r) => r.sessions.total === 1))?.sessions.total, 1);
    const crashing = await browser.newContext();
    const tab = await crashing.newPage();
    await tab.goto(`${siteOrigin}/shop?visitor=visitor-8`);
    await tab.click('#pay');
    const release = await waitFor((r) => r.sessions.unhandled === 1);
    await calm.close();
    await crashing.close();
    // @sentry/browser 11 reports an unhandled error as `unhandled`, not `crashed`: a page does not
    // crash, and Sentry counts it apart from crashes, so crash-free rates stay whole.
    assert.deepEqual(release.sessions, { total: 2, healthy: 1, errored: 0, unhandled: 1, abnormal: 0, crashed: 0 });
    assert.deepEqual(release.users, { total: 2, crashed: 0 });
    assert.equal(release.crashFreeSessions, 1);
    assert.equal(release.crashFreeUsers, 1);
    assert.equal(release.registered, false);

    const staging = await project.member.get(`/projects/${project.projectId}/release-health`, {
      query: { days: 1, sdkEnvironment: 'production' },
    });
    assert.equal(staging.status, 200);
    assert.equal(staging.body.releases[0].sessions.total, 0, 'another SDK environment counts apart');
  });
});
