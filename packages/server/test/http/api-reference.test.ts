/**
 * The API reference pages and the OpenAPI documents behind them, as a user and a tool meet them:
 * each reference page in headless Chromium, at the address the start banner and the README print
 * (`/docs`) and with a trailing slash; each document linted by Redocly's recommended rules.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { chromium, type Browser } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/server.ts';

const REFERENCES = [
  { name: 'public API', prefix: '/api/public/v1', operation: { method: 'post', path: '/features' } },
  { name: 'management API', prefix: '/api/v1', operation: { method: 'post', path: '/auth/sign-up' } },
] as const;

function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

describe('API reference pages in Chromium', () => {
  let server: TestServer;
  let browser: Browser;
  before(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchChromium()]);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  for (const reference of REFERENCES) {
    for (const suffix of ['/docs', '/docs/']) {
      it(`${reference.name}: ${reference.prefix}${suffix} shows the operations, every asset loads, the CSP holds`, async () => {
        const context = await browser.newContext();
        // The management document is large (Swagger UI renders it in ~6 s on a quiet machine); CI
        // runs this beside two other lanes on two cores, where 15 s was not always enough.
        context.setDefaultTimeout(90_000);
        try {
          const page = await context.newPage();
          const failures: string[] = [];
          const cspViolations: string[] = [];
          page.on('requestfailed', (request) => failures.push(`${request.url()}: ${request.failure()?.errorText}`));
          page.on('response', (response) => {
            if (response.status() >= 400) failures.push(`${response.url()}: ${response.status()}`);
          });
          page.on('console', (message) => {
            if (/content security policy/i.test(message.text())) cspViolations.push(message.text());
          });
          await page.exposeFunction('reportCspViolation', (text: string) => cspViolations.push(text));
          await page.addInitScript(
            "document.addEventListener('securitypolicyviolation', (event) => reportCspViolation(event.violatedDirective + ' ' + event.blockedURI));",
          );

          const response = await page.goto(`${server.origin}${reference.prefix}${suffix}`);
          assert.equal(response?.status(), 200);
          const { method, path } = reference.operation;
          const operation = page.locator(`.opblock-${method} .opblock-summary-path[data-path="${path}"]`);
          await operation.waitFor({ state: 'visible' });
          await page.waitForLoadState('networkidle');

          assert.deepEqual(failures, []);
          assert.deepEqual(cspViolations, []);
          assert.match(response?.headers()['content-security-policy'] ?? '', /script-src 'self'/);
        } finally {
          await context.close();
        }
      });
    }
  }
});

interface LintProblem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location: { pointer: string }[];
}

const execFileAsync = promisify(execFile);
const require = createRequire(import.meta.url);
const redoclyPackage = require.resolve('@redocly/cli/package.json');
const redoclyBin = join(
  dirname(redoclyPackage),
  (JSON.parse(readFileSync(redoclyPackage, 'utf8')) as { bin: Record<string, string> }).bin['redocly']!,
);

/** Runs `redocly lint --extends recommended` on one file; its problems. */
async function lint(file: string): Promise<LintProblem[]> {
  const run = await execFileAsync(
    process.execPath,
    [redoclyBin, 'lint', '--extends', 'recommended', '--format', 'json', file],
    {
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      maxBuffer: 16 * 1024 * 1024,
    },
  ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
  return (JSON.parse(run.stdout) as { problems: LintProblem[] }).problems;
}

/**
 * Warnings that stay, each for a reason: the document has no license to name (the server package
 * declares none); the server URL is the configured PUBLIC_URL, `http://localhost:<port>` by
 * default; the identity provider routes answer only with redirects (302), and whether sign-in
 * through one is set up is a question that cannot be asked wrongly (no 4xx).
 */
const ACCEPTED_WARNINGS: Record<string, string[]> = {
  'public API': ['info-license #/info', 'no-server-example.com #/servers/0/url'],
  'management API': [
    'info-license #/info',
    'no-server-example.com #/servers/0/url',
    'operation-4xx-response #/paths/~1auth~1oidc/get/responses',
    'operation-2xx-response #/paths/~1auth~1oidc~1start/get/responses',
    'operation-2xx-response #/paths/~1auth~1oidc~1callback/get/responses',
    // The live tail answers a server-sent event stream, written to the socket, not a JSON body.
    'operation-2xx-response #/paths/~1projects~1{projectId}~1logs~1tail/get/responses',
  ],
};

describe("OpenAPI documents against Redocly's recommended rules", () => {
  let server: TestServer;
  let dir: string;
  before(async () => {
    server = await startTestServer();
    dir = mkdtempSync(join(tmpdir(), 'signpost-openapi-'));
  });
  after(async () => {
    rmSync(dir, { recursive: true, force: true });
    await server?.close();
  });

  for (const reference of REFERENCES) {
    it(`${reference.name}: ${reference.prefix}/openapi.json has no errors and only the accepted warnings`, async () => {
      const response = await fetch(`${server.origin}${reference.prefix}/openapi.json`);
      assert.equal(response.status, 200);
      const file = join(dir, `${reference.name.replace(/\W+/g, '-')}.json`);
      writeFileSync(file, await response.text());

      const problems = await lint(file);
      const describe = (problem: LintProblem) => `${problem.ruleId} ${problem.location[0]?.pointer}`;
      assert.deepEqual(
        problems
          .filter((problem) => problem.severity === 'error')
          .map((problem) => `${describe(problem)}: ${problem.message}`),
        [],
      );
      assert.deepEqual(
        problems
          .filter((problem) => problem.severity === 'warn')
          .map(describe)
          .sort(),
        [...ACCEPTED_WARNINGS[reference.name]!].sort(),
      );
    });
  }
});
