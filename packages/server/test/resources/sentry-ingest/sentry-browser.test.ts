/**
 * The real @sentry/browser in Chromium, on a page of another origin, configured with nothing but
 * the DSN: it reports across origins with the key in the query (`sentry_key`, no preflight), and
 * the report is read back through the management API.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { build } from 'esbuild';
import { chromium, type Browser } from 'playwright-core';
import { type ManagedProject, managedProject } from '../../support/manage-fixtures.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';

const HERE = fileURLToPath(new URL('.', import.meta.url));

async function sentryBundle(): Promise<string> {
  const result = await build({
    stdin: { contents: "export * from '@sentry/browser';", resolveDir: HERE, loader: 'js' },
    bundle: true,
    format: 'iife',
    globalName: 'Sentry',
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

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
  let server: TestServer;
  let project: ManagedProject;
  let site: Server;
  let siteOrigin: string;
  let browser: Browser;
  let bundle: string;
  let dsn: string;

  before(async () => {
    server = await startTestServer();
    project = await managedProject(server);
    const number = (await server.db.get<{ ingest_number: number }>('SELECT ingest_number FROM projects WHERE id = ?', [
      project.projectId,
    ]))!.ingest_number;
    dsn = `${server.origin.replace('://', `://${project.liveKey}@`)}/${number}`;
    bundle = await sentryBundle();
    site = createServer((request, response) => {
      if (request.url === '/sentry.js') {
        response.writeHead(200, { 'content-type': 'text/javascript' }).end(bundle);
      } else {
        response.writeHead(200, { 'content-type': 'text/html' }).end(page(dsn));
      }
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const address = site.address() as { port: number };
    // localhost, not 127.0.0.1: another origin than the server's.
    siteOrigin = `http://localhost:${address.port}`;
    browser = await chromium.launch({ executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium' });
  });
  after(async () => {
    await browser?.close();
    await new Promise((resolve) => site?.close(resolve));
    await server?.close();
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
