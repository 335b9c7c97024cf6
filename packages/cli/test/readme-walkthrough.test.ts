/**
 * The root README's "Connect an MCP client" and "Your first project, from the command line", run
 * as written against a fresh server: every `sh` block of the two sections, read from the README
 * itself, top to bottom in one bash session (so PROJECT, KEY and FEATURE carry over as they do for a
 * reader). Only what points at a real machine is swapped: http://localhost:3000 for the test
 * server, and `npx signpost` for this checkout's built CLI. What the reader enters then shows in
 * the public changelog, roadmap, site configuration, translations and version check.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '@signpost/server/testing';
import { cliEntry, packageDir } from './support.ts';

const README_ORIGIN = 'http://localhost:3000';
const readme = readFileSync(join(packageDir, '..', '..', 'README.md'), 'utf8');

/** The text of one `## ` section of the README. */
function section(title: string): string {
  const start = readme.indexOf(`\n## ${title}\n`);
  assert.ok(start >= 0, `README has a section "${title}"`);
  const end = readme.indexOf('\n## ', start + 1);
  return readme.slice(start, end < 0 ? undefined : end);
}

/** The fenced blocks of one language in a section, in order. */
function blocks(text: string, language: string): string[] {
  return [...text.matchAll(new RegExp(`^\`\`\`${language}\\n([\\s\\S]*?)^\`\`\``, 'gm'))].map((m) => m[1]!);
}

/** One command per entry: lines joined where they end in a backslash, blank and comment-only lines dropped. */
function commands(block: string): string[] {
  return block
    .replace(/\\\n/g, ' ')
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.trim().startsWith('#'));
}

interface Step {
  command: string;
  output: string;
}

describe('README: connect an MCP client, then your first project from the command line', { timeout: 600_000 }, () => {
  let server: TestServer;
  let dir: string;
  const mcp = section('Connect an MCP client');
  const cli = section('Your first project, from the command line');

  /**
   * Runs the commands in one bash session, in `dir`, and answers with each command's output. A
   * marker line before each command splits the output; `set -e` stops at the first that fails.
   */
  const runAsReader = (lines: string[], stdin: string): Promise<Step[]> => {
    const env: Record<string, string> = {};
    for (const [name, value] of Object.entries(process.env))
      if (!name.startsWith('SIGNPOST_') && value !== undefined) env[name] = value;
    Object.assign(env, {
      SIGNPOST_CONFIG_DIR: join(dir, 'config'),
      SIGNPOST_URL: server.origin,
      CLI_ENTRY: cliEntry,
      NODE_BIN: process.execPath,
    });
    const marker = '@@signpost-readme-step@@';
    const script = [
      'set -euo pipefail',
      // `npx signpost` as a clone's `npm install` links it; anything else npx would fetch is not the README's.
      'npx() { if [ "$1" = signpost ]; then shift; "$NODE_BIN" "$CLI_ENTRY" "$@"; else echo "unexpected npx $*" >&2; return 1; fi; }',
      ...lines.flatMap((line) => [`echo ${marker}`, line.replaceAll(README_ORIGIN, server.origin)]),
    ].join('\n');
    return new Promise((resolve, reject) => {
      const child = execFile('bash', ['-c', script], { env, cwd: dir, timeout: 90_000 }, (error, stdout, stderr) => {
        const outputs = stdout.split(`${marker}\n`).slice(1);
        if (error) {
          const failed = lines[outputs.length - 1] ?? '(before the first command)';
          reject(new Error(`README command failed: ${failed}\n${outputs.at(-1) ?? ''}\n${stderr}`));
        } else resolve(lines.map((command, i) => ({ command, output: outputs[i] ?? '' })));
      });
      child.stdin?.end(stdin);
    });
  };

  before(async () => {
    server = await startTestServer();
    dir = mkdtempSync(join(tmpdir(), 'signpost-readme-'));
  });
  after(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('points the editor at the hosted MCP server, which asks it to sign in', async () => {
    const [config] = blocks(mcp, 'json');
    const url = (JSON.parse(config!) as { mcpServers: { service: { url: string } } }).mcpServers.service.url;
    assert.ok(url.startsWith(README_ORIGIN));
    const response = await fetch(url.replace(README_ORIGIN, server.origin), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'readme', version: '0' } },
      }),
    });
    assert.equal(response.status, 401);
    assert.match(response.headers.get('www-authenticate') ?? '', /resource_metadata=/);
  });

  it('goes from sign-up to a project whose public reads show what was entered', async () => {
    const lines = [...blocks(mcp, 'sh'), ...blocks(cli, 'sh')].flatMap(commands);
    assert.match(lines[0]!, /^curl -X POST \S+\/api\/v1\/auth\/sign-up /, "the MCP section's sign-up comes first");
    // The reader types at the login prompt the password they signed up with.
    const password = /"password":"([^"]+)"/.exec(lines[0]!)![1]!;
    assert.ok(password.split(' ').length >= 4, "the README's example password is a passphrase");
    const steps = await runAsReader(lines, `${password}\n`);

    const outputOf = (pattern: RegExp) => {
      const step = steps.find((s) => pattern.test(s.command));
      assert.ok(step, `README has a command matching ${pattern}`);
      return step.output;
    };
    const jsonOf = (pattern: RegExp) => JSON.parse(outputOf(pattern)) as any;
    assert.match(outputOf(/signpost login/), /Signed in to .* as you@example\.com/);

    const changelog = jsonOf(/\/changelog$/);
    assert.deepEqual(
      changelog.entries.map((e: any) => [e.summary, e.statusLabel]),
      [['Dark mode is here', 'New']],
    );
    const roadmap = jsonOf(/\/roadmap$/);
    assert.deepEqual(
      roadmap.columns.find((c: any) => c.status === 'planned').items.map((i: any) => i.title),
      ['Offline mode'],
    );
    const translations = jsonOf(/translations\?locale=de/);
    assert.deepEqual(translations.translations, { greeting: 'Hallo', 'nav.home': 'Startseite' });
    const siteConfig = jsonOf(/site-config\?projectId=\$PROJECT/);
    assert.deepEqual(
      siteConfig.messages.map((m: any) => m.text),
      ['Welcome to My App'],
    );
    assert.deepEqual(
      siteConfig.featureFlags.map((f: any) => [f.key, f.enabled]),
      [['new-dashboard', true]],
    );
    const version = jsonOf(/version-check\?projectId=\$PROJECT/);
    assert.equal(version.updateAvailable, true);
    assert.equal(version.latestVersion.version, '1.0.0');
    assert.equal(version.latestVersion.downloadUrl, 'https://example.com/app-1.0.0.zip');

    // The German file filled German only: English readers of the same project get no German text.
    const key = (await runAsReader(['npx signpost keys create --env live --scopes public:read'], ''))[0]!.output.trim();
    const english = await fetch(`${server.baseUrl}/translations?locale=en`, { headers: { 'x-api-key': key } });
    assert.deepEqual(((await english.json()) as any).translations, {});
  });
});
