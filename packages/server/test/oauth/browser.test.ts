/**
 * Connecting an editor to the hosted MCP server as a person does: the MCP SDK client (with its
 * OAuth client provider and a loopback callback, like an editor's) hands the authorization URL
 * to headless Chromium, where the person signs in and consents by clicking; the client then
 * exchanges the code and calls a tool. The forms are real form submissions: the browser, not
 * the test, decides the Origin and Sec-Fetch-Site headers. An admin choosing "Read and write"
 * grants the newer scopes too (the admin-only people:export and audit:read among them), and the
 * client uses them at once.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { signUp, teamProject, type SignedUp } from '../support/mcp-accounts.ts';
import { callTool, startMcpTestServer, textOf } from '../support/mcp.ts';
import type { TestServer } from '../support/server.ts';
import { MCP_READ_SCOPES, MCP_SCOPES, SCOPE_WORDS } from '../../src/routing/mcp/scopes.ts';

/** The scopes the consent page's Read and Read and write grant. */
const READ_SCOPES = MCP_READ_SCOPES.join(' ');

/** The editor's side of the redirect: a loopback HTTP server that catches the callback. */
class LoopbackCallback {
  readonly server: Server = createServer((request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' }).end('<p>Connected. You may close this tab.</p>');
    this.received?.(new URL(request.url!, this.url));
  });
  url = '';
  private received: ((url: URL) => void) | undefined;

  async listen(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/callback`;
  }

  /** The next request the browser makes to the callback. */
  next(): Promise<URL> {
    return new Promise((resolve) => (this.received = resolve));
  }
}

/** An editor's OAuth client provider: keeps what the SDK gives it and remembers the URL to open. */
class EditorOAuthProvider implements OAuthClientProvider {
  client: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = '';
  authorizationUrl: URL | undefined;
  readonly redirectUrl: string;
  constructor(redirectUrl: string) {
    this.redirectUrl = redirectUrl;
  }
  get clientMetadata() {
    return {
      client_name: 'Browser test editor',
      redirect_uris: [this.redirectUrl],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation = () => this.client;
  saveClientInformation = (info: OAuthClientInformationMixed): void => {
    this.client = info;
  };
  tokens = () => this.saved;
  saveTokens = (tokens: OAuthTokens): void => {
    this.saved = tokens;
  };
  saveCodeVerifier = (verifier: string): void => {
    this.verifier = verifier;
  };
  codeVerifier = () => this.verifier;
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
}

/**
 * Clicks a form's submit button and checks the server's answer to the post: a redirect onward,
 * the post sent with this server's real Origin (the pages' referrer policy lets the browser say it).
 */
async function submitForm(tab: Page, button: Locator, origin: string): Promise<void> {
  const [answer] = await Promise.all([
    tab.waitForResponse((response) => response.request().method() === 'POST'),
    button.click(),
  ]);
  assert.equal(answer.status(), 303, `${answer.url()}: ${await answer.text().catch(() => '')}`);
  const sent = await answer.request().allHeaders();
  assert.equal(sent['origin'], origin, answer.url());
  assert.equal(sent['sec-fetch-site'], 'same-origin', answer.url());
}

describe('connecting an MCP client through Chromium', () => {
  let server: TestServer;
  let browser: Browser;
  let callback: LoopbackCallback;
  let ann: SignedUp;
  let project: string;

  before(async () => {
    callback = new LoopbackCallback();
    [server, browser] = await Promise.all([
      startMcpTestServer(),
      chromium.launch({
        executablePath: '/usr/bin/chromium',
        args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
      }),
      callback.listen(),
    ]);
    ann = await signUp(server.origin, server.db, 'ann@example.com');
    project = await teamProject(server.db, ann.teamId, 'Browser app');
  });
  after(async () => {
    await browser?.close();
    callback?.server.close();
    await server?.close();
  });

  it('signs in and consents by clicking, with read access preselected; the client then calls a tool', async () => {
    const mcpUrl = new URL(`${server.origin}/mcp`);
    const provider = new EditorOAuthProvider(callback.url);
    await assert.rejects(
      new Client({ name: 'editor', version: '1' }).connect(
        new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }),
      ),
      UnauthorizedError,
    );
    assert.ok(provider.authorizationUrl, 'the client asked to open the authorization URL');

    const context = await browser.newContext();
    try {
      const tab = await context.newPage();
      tab.setDefaultTimeout(15_000);
      await tab.goto(provider.authorizationUrl.toString());
      assert.equal(new URL(tab.url()).pathname, '/oauth/sign-in');
      await tab.getByLabel('E-mail').fill(ann.email);
      await tab.getByLabel('Password').fill(ann.password);
      await submitForm(tab, tab.getByRole('button', { name: 'Sign in' }), server.origin);
      const allow = tab.getByRole('button', { name: 'Allow' });
      await allow.waitFor();

      // Write access is never preselected: not in the markup, not in the browser's form state.
      assert.doesNotMatch(await tab.content(), /value="write"[^>]*checked/);
      assert.equal(await tab.getByRole('radio', { name: 'Read and write' }).isChecked(), false);
      assert.equal(await tab.getByRole('radio', { name: 'Read', exact: true }).isChecked(), true);
      await tab.getByLabel('Project').selectOption(project);
      const returned = callback.next();
      await submitForm(tab, allow, server.origin);
      const code = (await returned).searchParams.get('code');
      assert.ok(code, 'the browser came back to the client with a code');

      const transport = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider });
      await transport.finishAuth(code);
      assert.equal(provider.saved?.scope, READ_SCOPES);
      const client = new Client({ name: 'editor', version: '1' });
      await client.connect(transport);
      try {
        const listed = await callTool(client, 'list_translation_keys', { projectId: project });
        assert.equal(listed.isError, undefined, textOf(listed));
      } finally {
        await client.close();
      }
    } finally {
      await context.close();
    }
  });

  it('grants the new scopes with Read and write, listed in words; the client uses the admin-only ones', async () => {
    const mcpUrl = new URL(`${server.origin}/mcp`);
    const provider = new EditorOAuthProvider(callback.url);
    await assert.rejects(
      new Client({ name: 'editor', version: '1' }).connect(
        new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }),
      ),
      UnauthorizedError,
    );
    const context = await browser.newContext();
    try {
      const tab = await context.newPage();
      tab.setDefaultTimeout(15_000);
      await tab.goto(provider.authorizationUrl!.toString());
      await tab.getByLabel('E-mail').fill(ann.email);
      await tab.getByLabel('Password').fill(ann.password);
      await submitForm(tab, tab.getByRole('button', { name: 'Sign in' }), server.origin);
      const allow = tab.getByRole('button', { name: 'Allow' });
      await allow.waitFor();
      // Every scope is on the page in words, as the person reads it (text, not markup).
      const shown = (await tab.locator('body').textContent()) ?? '';
      for (const scope of ['people:export', 'audit:read', 'errors:triage', 'releases:write', 'config:read'] as const) {
        assert.ok(shown.includes(SCOPE_WORDS[scope]), `the page explains ${scope}`);
        assert.ok(shown.includes(scope), `the page names ${scope}`);
      }
      await tab.getByRole('radio', { name: 'Read and write' }).check();
      await tab.getByLabel('Project').selectOption(project);
      const returned = callback.next();
      await submitForm(tab, allow, server.origin);
      const code = (await returned).searchParams.get('code');
      assert.ok(code, 'the browser came back to the client with a code');

      const transport = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider });
      await transport.finishAuth(code);
      assert.equal(provider.saved?.scope, MCP_SCOPES.join(' '));
      const client = new Client({ name: 'editor', version: '1' });
      await client.connect(transport);
      try {
        await callTool(client, 'site_config', { projectId: project, action: 'set_flag', flagKey: 'consent-flag' });
        const audit = await callTool(client, 'audit', { projectId: project, action: 'list', targetType: 'flag' });
        assert.equal(audit.isError, undefined, textOf(audit));
        const entry = (audit.structuredContent as any).items[0];
        assert.deepEqual([entry.actor.type, entry.actor.via], ['oauth', 'mcp']);
        const history = await callTool(client, 'site_config', {
          projectId: project,
          action: 'flag_history',
          flagKey: 'consent-flag',
        });
        assert.equal((history.structuredContent as any).items.length, 1, textOf(history));
        // The admin scope passes; the person simply is not there.
        const exported = await callTool(client, 'feedback', {
          projectId: project,
          action: 'export_person',
          personId: 'psn_nobody',
        });
        assert.equal(exported.isError, true);
        assert.match(textOf(exported), /Person "psn_nobody" not found/);
      } finally {
        await client.close();
      }
    } finally {
      await context.close();
    }
  });
});
