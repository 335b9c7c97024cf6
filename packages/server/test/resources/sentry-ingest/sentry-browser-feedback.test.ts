/**
 * Sentry user feedback from the real @sentry/browser in Chromium: an app bundled and minified by
 * esbuild (as a real build: test/support/source-map-app.ts) reports an error, and the visitor's
 * words go with `Sentry.captureFeedback({ associatedEventId })` from a page of another origin. The
 * feedback lands as a bug report on that error's group (the group page's feedback API: message,
 * name, e-mail, page URL, event id). Feedback without an event is a bug report on no group.
 * (Source maps of such a build are tested in source-maps/ and the CLI's sourcemaps test.)
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import type { ManagedProject } from '../../support/manage-fixtures.ts';
import { type SentryBrowserEnv, startSentryBrowserEnv } from '../../support/sentry-browser.ts';
import { buildMinifiedApp, type MinifiedApp } from '../../support/source-map-app.ts';

const RELEASE = 'shop@5.1.0';

function page(dsn: string): string {
  return `<!doctype html><html lang="en"><head><title>Shop</title></head><body>
<button id="pay">Pay</button><p id="result"></p>
<form id="feedback"><input name="name" value="Ada Lovelace"><input name="email" value="ada@example.com">
<textarea name="message">The pay button does nothing and my cart shows -1 mugs</textarea><button id="send">Send</button></form>
<script>window.SHOP = ${JSON.stringify({ dsn, release: RELEASE })};</script>
<script src="/assets/app.js"></script></body></html>`;
}

// Bundling @sentry/browser takes a while on a loaded machine.
describe('Sentry user feedback: @sentry/browser captureFeedback in Chromium', { timeout: 600_000 }, () => {
  let env: SentryBrowserEnv;
  let p: ManagedProject;
  let siteOrigin: string;
  let browser: Browser;
  let work: string;
  let app: MinifiedApp;

  before(async () => {
    work = mkdtempSync(join(tmpdir(), 'signpost-feedback-'));
    app = await buildMinifiedApp({ entry: 'browser-feedback-main.ts', outDir: work });
    env = await startSentryBrowserEnv((url, dsn) =>
      url.pathname === '/assets/app.js'
        ? { type: 'text/javascript', body: app.js }
        : url.pathname === '/assets/app.js.map'
          ? { type: 'application/json', body: app.map }
          : { type: 'text/html', body: page(dsn) },
    );
    ({ project: p, siteOrigin, browser } = env);
  });
  after(async () => {
    await env?.close();
    rmSync(work, { recursive: true, force: true });
  });

  const poll = async <T>(read: () => Promise<T | undefined>, what: string): Promise<T> => {
    for (let i = 0; i < 600; i++) {
      const value = await read();
      if (value !== undefined) return value;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`timed out waiting for ${what}`);
  };

  it('files the feedback as a bug report on the group of its associated event', async () => {
    const context = await browser.newContext();
    const tab = await context.newPage();
    const pageErrors: string[] = [];
    tab.on('pageerror', (error) => pageErrors.push(error.message));
    await tab.goto(`${siteOrigin}/checkout`);
    await tab.click('#pay');
    await tab.getByText('Something went wrong').waitFor();

    const group = await poll(async () => {
      const listed = await p.member.get(`/projects/${p.projectId}/error-groups`, { query: { q: 'RangeError' } });
      return listed.body.groups?.[0];
    }, 'the error group');
    const events = await p.member.get(`/projects/${p.projectId}/error-groups/${group.id}/events`);
    assert.equal(events.status, 200, events.text);
    const eventId = events.body.events[0].eventId as string;

    await tab.click('#send');
    await tab.getByText('Thank you').waitFor();
    const [feedback] = await poll(async () => {
      const read = await p.member.get(`/projects/${p.projectId}/error-groups/${group.id}/feedback`);
      assert.equal(read.status, 200, read.text);
      return read.body.feedback.length > 0 ? read.body.feedback : undefined;
    }, 'the feedback on the group');
    await context.close();
    assert.deepEqual(pageErrors, []);
    assert.equal(feedback.message, 'The pay button does nothing and my cart shows -1 mugs');
    assert.equal(feedback.name, 'Ada Lovelace');
    assert.equal(feedback.email, 'ada@example.com');
    assert.equal(feedback.url, `${siteOrigin}/checkout`);
    assert.equal(feedback.eventId, eventId);

    // A bug report of the project, as the bug list shows it.
    const bug = await p.member.get(`/projects/${p.projectId}/bugs/${feedback.id}`);
    assert.equal(bug.status, 200, bug.text);
    assert.match(JSON.stringify(bug.body), /The pay button does nothing/);

    // The group is the minified bundle's error.
    const event = await p.member.get(`/projects/${p.projectId}/error-groups/${group.id}/events/${eventId}`);
    assert.equal(event.status, 200, event.text);
    assert.match(JSON.stringify(event.body), /Negative quantity for mug/);
  });

  it('keeps feedback sent with no event as a bug report on no group', async () => {
    const context = await browser.newContext();
    const tab = await context.newPage();
    await tab.goto(`${siteOrigin}/contact`);
    await tab.fill('textarea[name=message]', 'Just saying: the colours are lovely');
    await tab.click('#send');
    await tab.getByText('Thank you').waitFor();
    const bug = await poll(async () => {
      const listed = await p.member.get(`/projects/${p.projectId}/bugs`, { query: { q: 'colours are lovely' } });
      return listed.body.bugs?.find((b: any) => /colours are lovely/.test(JSON.stringify(b)));
    }, 'the feedback without an event');
    await context.close();
    assert.ok(bug.id);
    const groups = await p.member.get(`/projects/${p.projectId}/error-groups`);
    for (const group of groups.body.groups) {
      const read = await p.member.get(`/projects/${p.projectId}/error-groups/${group.id}/feedback`);
      assert.ok(!JSON.stringify(read.body).includes('colours are lovely'), 'on no group');
    }
  });
});
