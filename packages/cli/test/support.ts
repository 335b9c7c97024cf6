import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
export const cliEntry = join(packageDir, 'dist', 'index.js');

export type FakePlatform = 'darwin' | 'linux' | 'win32';
export type EditorName = 'claude-desktop' | 'cursor' | 'vscode' | 'windsurf';
export const ALL_EDITORS: EditorName[] = ['claude-desktop', 'cursor', 'vscode', 'windsurf'];

export interface FakeMachine {
  root: string;
  platform: FakePlatform;
  env: Record<string, string>;
  /** Each editor's config dir (created when the editor is "installed") and config file. */
  dirs: Record<EditorName, string>;
  files: Record<EditorName, string>;
  /** Windows: the packaged (MSIX) Claude Desktop package folder, when asked for. */
  install(editor: EditorName): void;
  write(editor: EditorName, text: string): void;
  read(editor: EditorName): string;
  tree(): string[];
  remove(): void;
}

/** A fresh temp dir laid out like a user's home on macOS, Linux or Windows. */
export function fakeMachine(platform: FakePlatform, installed: EditorName[] = []): FakeMachine {
  const root = mkdtempSync(join(tmpdir(), `signpost-cli-${platform}-`));
  let env: Record<string, string>;
  let home: string;
  let appConfig: string;
  if (platform === 'win32') {
    home = join(root, 'Users', 'ada');
    appConfig = join(home, 'AppData', 'Roaming');
    env = {
      USERPROFILE: home,
      APPDATA: appConfig,
      LOCALAPPDATA: join(home, 'AppData', 'Local'),
      // A Unix-style HOME (Git Bash) must not be mistaken for the Windows profile.
      HOME: join(root, 'msys-home'),
    };
  } else if (platform === 'darwin') {
    home = join(root, 'Users', 'ada');
    appConfig = join(home, 'Library', 'Application Support');
    env = { HOME: home };
  } else {
    home = join(root, 'home', 'ada');
    appConfig = join(home, '.config');
    env = { HOME: home };
  }
  mkdirSync(home, { recursive: true });
  const dirs: Record<EditorName, string> = {
    'claude-desktop': join(appConfig, 'Claude'),
    cursor: join(home, '.cursor'),
    vscode: join(appConfig, 'Code'),
    windsurf: join(home, '.codeium', 'windsurf'),
  };
  const files: Record<EditorName, string> = {
    'claude-desktop': join(dirs['claude-desktop'], 'claude_desktop_config.json'),
    cursor: join(dirs.cursor, 'mcp.json'),
    vscode: join(dirs.vscode, 'User', 'mcp.json'),
    windsurf: join(dirs.windsurf, 'mcp_config.json'),
  };
  const machine: FakeMachine = {
    root,
    platform,
    env: { PATH: process.env['PATH'] ?? '', ...env },
    dirs,
    files,
    install: (editor) => mkdirSync(dirs[editor], { recursive: true }),
    write: (editor, text) => {
      mkdirSync(dirname(files[editor]), { recursive: true });
      writeFileSync(files[editor], text);
    },
    read: (editor) => readFileSync(files[editor], 'utf8'),
    tree: () => listTree(root),
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
  for (const editor of installed) machine.install(editor);
  return machine;
}

export interface RunResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `signpost <args>` as a process with the fake machine's environment and platform. */
export function signpost(
  machine: FakeMachine,
  args: string[],
  options: { cwd?: string; env?: Record<string, string> } = {},
): RunResult {
  const result = spawnSync(process.execPath, [cliEntry, ...args, '--platform', machine.platform], {
    cwd: options.cwd ?? machine.root,
    env: { ...machine.env, ...options.env },
    encoding: 'utf8',
    timeout: 90_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Every file and directory under `dir`, relative to it, with file contents' sizes to catch rewrites. */
export function listTree(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .map((e) => relative(dir, join(e.parentPath, e.name)) + (e.isDirectory() ? '/' : ''))
    .sort();
}

/** A snapshot of every file's content under `dir`. */
export function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of listTree(dir)) if (!entry.endsWith('/')) out[entry] = readFileSync(join(dir, entry), 'utf8');
  return out;
}

/** What a run of the CLI process left: its exit status and output. */
export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the built CLI as a process, as a user would, with `home/config` as its config dir and no
 * SIGNPOST_* setting of the test's own environment; `stdin` is written and closed.
 */
export function runCli(args: string[], home: string, stdin = '', timeoutMs = 90_000): Promise<CliRun> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env))
    if (!name.startsWith('SIGNPOST_') && value !== undefined) env[name] = value;
  env['SIGNPOST_CONFIG_DIR'] = join(home, 'config');
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [cliEntry, ...args],
      { env, timeout: timeoutMs },
      (error, stdout, stderr) =>
        resolve({ status: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
    child.stdin?.end(stdin);
  });
}

/** A new account on the server at `origin`, signed up and in, and a personal access token of it for the CLI. */
export async function accountToken(origin: string, email: string, name: string, tokenName: string): Promise<string> {
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${origin}/api/v1${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  const password = 'correct horse battery staple';
  assert.equal((await post('/auth/sign-up', { email, password, name })).status, 202);
  const signIn = await post('/auth/sign-in', { email, password });
  const cookie = signIn.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const created = await post('/me/tokens', { name: tokenName }, { cookie, 'x-requested-with': 'test' });
  assert.equal(created.status, 201);
  return ((await created.json()) as { token: string }).token;
}
