/**
 * The CLI's own settings file: the server to talk to and, per server, the personal access token
 * and default project. Kept at `$SIGNPOST_CONFIG_DIR/config.json`, else `%APPDATA%\signpost` on
 * Windows and `$XDG_CONFIG_HOME/signpost` (default `~/.config/signpost`) elsewhere. The file holds
 * a secret, so it is written with mode 0600 in a 0700 folder. A token is stored per server URL
 * and only ever sent to that server.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { CliError, EXIT } from './errors.ts';

export const DEFAULT_URL = 'http://localhost:3000';

export interface ServerEntry {
  token?: string;
  email?: string;
  project?: string;
}

export interface CliConfig {
  url?: string;
  servers: Record<string, ServerEntry>;
}

export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env['SIGNPOST_CONFIG_DIR']) return env['SIGNPOST_CONFIG_DIR'];
  if (process.platform === 'win32' && env['APPDATA']) return join(env['APPDATA'], 'signpost');
  return join(env['XDG_CONFIG_HOME'] || join(env['HOME'] || homedir(), '.config'), 'signpost');
}

export function configPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(configDir(env), 'config.json');
}

export function readConfig(): CliConfig {
  const path = configPath();
  if (!existsSync(path)) return { servers: {} };
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<CliConfig>;
    return { ...(parsed.url ? { url: parsed.url } : {}), servers: parsed.servers ?? {} };
  } catch (error) {
    throw new CliError(`Cannot read ${path}: ${(error as Error).message}`, EXIT.environment);
  }
}

export function writeConfig(config: CliConfig): string {
  const dir = configDir();
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const path = configPath();
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  // The mode above is filtered by the umask; set it exactly.
  chmodSync(temp, 0o600);
  renameSync(temp, path);
  return path;
}

/** `http://host:port` without a trailing slash or path; a bad URL is a usage error. */
export function normaliseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new CliError(`"${raw}" is not a URL (expected e.g. ${DEFAULT_URL})`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new CliError(`"${raw}" is not an http(s) URL`);
  return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
}

export interface Target {
  url: string;
  token: string | undefined;
  project: string | undefined;
  config: CliConfig;
}

/** Where a command goes: --url, else SIGNPOST_URL, else the URL saved at login, else localhost:3000. */
export function resolveTarget(flags: { url?: string; project?: string }, env: NodeJS.ProcessEnv = process.env): Target {
  const config = readConfig();
  const url = normaliseUrl(flags.url ?? env['SIGNPOST_URL'] ?? config.url ?? DEFAULT_URL);
  const saved = config.servers[url] ?? {};
  return {
    url,
    token: env['SIGNPOST_TOKEN'] || saved.token,
    project: flags.project ?? (env['SIGNPOST_PROJECT'] || saved.project),
    config,
  };
}
