import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

export const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
export const packagesDir = join(packageDir, '..');
export const serverEntry = join(packageDir, 'dist', 'index.js');

export function tempDir(prefix: string): { path: string; remove: () => void } {
  const path = mkdtempSync(join(tmpdir(), `signpost-docs-${prefix}-`));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** Every file and directory under `dir`, relative to it. */
export function listTree(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();
}

/** An environment where HOME and the usual config/cache/temp dirs all point into `dir`. */
export function isolatedEnv(dir: string): Record<string, string> {
  return {
    PATH: process.env['PATH'] ?? '',
    HOME: dir,
    USERPROFILE: dir,
    APPDATA: join(dir, 'AppData', 'Roaming'),
    LOCALAPPDATA: join(dir, 'AppData', 'Local'),
    XDG_CONFIG_HOME: join(dir, '.config'),
    XDG_CACHE_HOME: join(dir, '.cache'),
    XDG_DATA_HOME: join(dir, '.local', 'share'),
    TMPDIR: dir,
  };
}

/** Starts the built docs server as a child process and connects the SDK's stdio client to it. */
export async function connect(options: {
  cwd: string;
  env: Record<string, string>;
}): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [serverEntry],
    cwd: options.cwd,
    env: options.env,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'docs-mcp-test', version: '0.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

export function textOf(result: unknown): string {
  const content = ((result as { content?: unknown }).content ?? []) as { type: string; text?: string }[];
  return content
    .filter((c) => c.type === 'text')
    .map((c) => c.text ?? '')
    .join('\n');
}
