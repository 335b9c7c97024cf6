/**
 * The real @sentry/browser in Chromium, on a page of another origin, configured with nothing but
 * the DSN: it reports across origins with the key in the query (`sentry_key`, no preflight), and
 * the report is read back through the management API.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import type { ManagedProject } from '../../support/manage-fixtures.ts';
import { type SentryBrowserEnv, sentryBundle, startSentryBrowserEnv } from '../../support/sentry-browser.ts';

function page(dsn: string): string {
  return `<!doctype html><html><head><title>Shop</title><script src="/sentry.js"></script></head><body>
<button id="pay">Pay</button>
<script>
Sentry.init({ dsn: ${JSON.stringify(dsn)}, release: 'web@2.0.0', environment: 'staging' });
Sentry.setUser({ id: 'visitor-7' });
document.getElementById('pay').addEventListener('click', function pay() {
  null.charge();
});
</script></body></html>`;
}

describe('Sentry ingest: @sentry/browser in Chromium', () => {
  let env: SentryBrowserEnv;
  let project: ManagedProject;
  let siteOrigin: string;
  let browser: Browser;

  before(async () => {
    const bundle = await sentryBundle();
    env = await startSentryBrowserEnv((url, dsn) =>
      url.pathname === '/sentry.js'
        ? { type: 'text/javascript', body: bundle }
        : { type: 'text/html', body: page(dsn) },
    );
    ({ project, siteOrigin, browser } = env);
  });
  after(async () => {
    await env?.close();
  });

  it('stores an uncaught error reported cross-origin with sentry_key in the query', async () => {
    const context = await browser.newContext();
    const tab = await context.newPage();
    const sent: { url: string; headers: Record<string, string>; status?: number }[] = [];
    tab.on('response', (response) => {
      if (response.url().includes('/envelope/')) {
        sent.push({ url: response.url(), headers: response.request().headers(), status: response.status() });
      }
    });
    await tab.goto(`${siteOrigin}/shop`);
    await tab.click('#pay');
    let errors: any[] = [];
    for (let i = 0; i < 100 && errors.length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      errors = (await project.owner.get(`/projects/${project.projectId}/errors`)).body.errors;
    }
    await context.close();
    assert.equal(errors.length, 1, JSON.stringify(errors));
    const [error] = errors;
    assert.equal(error.errorType, 'TypeError');
    assert.match(error.title, /^TypeError: Cannot read properties of null \(reading 'charge'\)$/);
    assert.equal(error.url, `${siteOrigin}/shop`);
    assert.equal(error.release, 'web@2.0.0');

    const envelopeRequest = sent.find((request) => request.status === 200);
    assert.ok(envelopeRequest, JSON.stringify(sent));
    assert.match(envelopeRequest.url, /[?&]sentry_key=svc_live_/);
    assert.equal(envelopeRequest.headers['x-sentry-auth'], undefined);

    const full = (await project.owner.get(`/projects/${project.projectId}/errors/${error.id}`)).body;
    assert.match(
      full.stackTrace.split('\n')[1],
      /^ {4}at (HTMLButtonElement\.)?pay \(http:\/\/localhost:\d+\/shop:\d+:\d+\)$/,
    );
    // The browser SDK sends its user agent (Sentry derives browser and OS from it server-side).
    assert.match(full.device.userAgent, /Chrome/);
    assert.equal(full.app.environment, 'staging');
    assert.equal(full.app.userId, 'visitor-7');
  });
});
