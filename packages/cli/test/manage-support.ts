/**
 * Shared setup for the management command tests: one real Signpost server per test file (fresh
 * database), accounts with personal access tokens made through the management API, and helpers
 * that run `signpost` as a process with its own config dir and read back through the public API.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { startTestServer, type TestServer } from '@signpost/server/testing';
import { cliEntry } from './support.ts';

export interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  env?: Record<string, string>;
  stdin?: string;
  configDir?: string;
}

/** Signs up and in to an account and creates a personal access token for it, through the management API. */
export async function accountToken(origin: string, email: string): Promise<string> {
  const signUp = await fetch(`${origin}/api/v1/auth/sign-up`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'correct horse battery staple', name: email.split('@')[0] }),
  });
  assert.equal(signUp.status, 202, await signUp.clone().text());
  const signIn = await fetch(`${origin}/api/v1/auth/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'correct horse battery staple' }),
  });
  assert.equal(signIn.status, 200, await signIn.clone().text());
  const cookie = signIn.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const created = await fetch(`${origin}/api/v1/me/tokens`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie, 'x-requested-with': 'test' },
    body: JSON.stringify({ name: 'cli test' }),
  });
  assert.equal(created.status, 201, await created.clone().text());
  return ((await created.json()) as { token: string }).token;
}

/** The environment of the outer shell without any SIGNPOST_* variable. */
export function envWithoutSignpost(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env))
    if (!name.startsWith('SIGNPOST_') && value !== undefined) env[name] = value;
  return env;
}

/** The scopes of the `web` live key the tests submit with. */
export const WEB_KEY_SCOPES = 'public:read,features:read,features:write,bugs:write,errors:write,logs:write';

export interface ManageServer {
  readonly server: TestServer;
  /** A temp dir for the CLI's config dirs and files the tests write. */
  readonly home: string;
  /** ada@example.com's personal access token. */
  readonly token: string;
  /** mallory@example.com's personal access token (another team). */
  readonly outsiderToken: string;
  /** Runs the CLI with its own config dir (and no SIGNPOST_* from the outer shell). */
  signpost(args: string[], options?: RunOptions): Promise<Run>;
  /** Runs the CLI and asserts it exits 0. */
  ok(args: string[], options?: RunOptions): Promise<Run>;
  /** Runs the CLI with --json and parses what it prints. */
  json(args: string[]): Promise<any>;
  publicPost(path: string, key: string, body: unknown): Promise<any>;
  publicGet(path: string, key?: string): Promise<{ status: number; body: any }>;
  /** Signs the CLI in as ada, creates a project (made current) and a `web` live key for it. */
  signInWithProject(name: string): Promise<{ projectId: string; liveKey: string }>;
}

/** Starts a server before the file's tests (and closes it after); call at the top of a describe. */
export function useManageServer(tempPrefix: string): ManageServer {
  let server: TestServer;
  let home: string;
  let token: string;
  let outsiderToken: string;

  const signpost = (args: string[], options: RunOptions = {}): Promise<Run> => {
    const env = envWithoutSignpost();
    Object.assign(env, { SIGNPOST_CONFIG_DIR: options.configDir ?? join(home, 'config') }, options.env);
    return new Promise((resolve) => {
      const child = execFile(
        process.execPath,
        [cliEntry, ...args],
        { env, timeout: 90_000 },
        (error, stdout, stderr) => {
          resolve({ status: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
        },
      );
      child.stdin?.end(options.stdin ?? '');
    });
  };
  const ok = async (args: string[], options?: RunOptions) => {
    const run = await signpost(args, options);
    assert.equal(run.status, 0, `signpost ${args.join(' ')} failed:\n${run.stdout}\n${run.stderr}`);
    return run;
  };
  const json = async (args: string[]) => JSON.parse((await ok([...args, '--json'])).stdout);

  before(async () => {
    server = await startTestServer();
    home = mkdtempSync(join(tmpdir(), tempPrefix));
    token = await accountToken(server.origin, 'ada@example.com');
    outsiderToken = await accountToken(server.origin, 'mallory@example.com');
  });
  after(async () => {
    await server.close();
    rmSync(home, { recursive: true, force: true });
  });

  return {
    get server() {
      return server;
    },
    get home() {
      return home;
    },
    get token() {
      return token;
    },
    get outsiderToken() {
      return outsiderToken;
    },
    signpost,
    ok,
    json,
    async publicPost(path, key, body) {
      const response = await fetch(`${server.baseUrl}${path}`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      assert.equal(response.status, 201);
      return (await response.json()) as any;
    },
    async publicGet(path, key) {
      const response = await fetch(`${server.baseUrl}${path}`, { headers: key ? { 'x-api-key': key } : {} });
      return { status: response.status, body: (await response.json()) as any };
    },
    async signInWithProject(name) {
      await ok(['login', '--token', '-', '--url', server.origin], { stdin: `${token}\n` });
      const project = await json(['projects', 'create', name, '--locales', 'en,de', '--use']);
      const live = await json(['keys', 'create', '--env', 'live', '--scopes', WEB_KEY_SCOPES, '--name', 'web']);
      return { projectId: project.id as string, liveKey: live.key as string };
    },
  };
}
