import { resolve } from 'node:path';

/** Every setting the server reads, parsed once at start; a bad value stops start-up. */
export interface Config {
  port: number;
  host: string;
  publicUrl: string;
  databaseUrl: string | undefined;
  dataDir: string;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  platformProjectId: string;
  demoEnabled: boolean;
  demoApiKey: string;
  /** Seconds in-flight requests get to finish after SIGTERM/SIGINT. */
  shutdownGraceSeconds: number;
  trustProxy: boolean;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** The demo project's public key; published in the README, so it is not a secret. */
export const DEFAULT_DEMO_API_KEY = 'svc_live_demo_signpostpublicdemokey0001';

type Env = Record<string, string | undefined>;

export function loadConfig(env: Env = process.env): Config {
  const problems: string[] = [];
  const read = <T>(name: string, fallback: T, parse: (raw: string) => T | undefined, rule: string): T => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const value = parse(raw);
    if (value === undefined) {
      problems.push(`${name}=${JSON.stringify(raw)} is invalid: ${rule}`);
      return fallback;
    }
    return value;
  };
  const integer = (min: number, max: number) => (raw: string) => {
    const n = Number(raw);
    return Number.isInteger(n) && n >= min && n <= max ? n : undefined;
  };
  const boolean = (raw: string) =>
    ({ true: true, '1': true, yes: true, false: false, '0': false, no: false })[raw.toLowerCase()];
  const url = (raw: string) => {
    try {
      const parsed = new URL(raw);
      return /^https?:$/.test(parsed.protocol) ? raw.replace(/\/+$/, '') : undefined;
    } catch {
      return undefined;
    }
  };
  const levels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

  const port = read('PORT', 3000, integer(0, 65535), 'an integer from 0 to 65535');
  const config: Config = {
    port,
    host: read('HOST', '0.0.0.0', (raw) => raw, ''),
    publicUrl: read('PUBLIC_URL', `http://localhost:${port}`, url, 'an http(s) URL'),
    databaseUrl: read<string | undefined>(
      'DATABASE_URL',
      undefined,
      (raw) => (/^(postgres(ql)?:\/\/|sqlite:)/.test(raw) ? raw : undefined),
      'a postgres:// URL or sqlite:<path>',
    ),
    // Relative to where the user ran the command (npm runs workspace scripts in the package).
    dataDir: resolve(env['INIT_CWD'] ?? process.cwd(), read('DATA_DIR', './data', (raw) => raw, '')),
    logLevel: read('LOG_LEVEL', 'info', (raw) => levels.find((level) => level === raw), levels.join(', ')),
    platformProjectId: read(
      'PLATFORM_PROJECT_ID',
      'signpost',
      (raw) => (/^[a-zA-Z0-9_-]{1,64}$/.test(raw) ? raw : undefined),
      'letters, digits, - and _ (1 to 64)',
    ),
    demoEnabled: read('DEMO_ENABLED', true, boolean, 'true or false'),
    demoApiKey: read(
      'DEMO_API_KEY',
      DEFAULT_DEMO_API_KEY,
      (raw) => (/^svc_live_[A-Za-z0-9_]{16,}$/.test(raw) ? raw : undefined),
      'svc_live_ followed by at least 16 letters, digits or _',
    ),
    shutdownGraceSeconds: read('SHUTDOWN_GRACE_SECONDS', 10, integer(0, 600), 'an integer from 0 to 600'),
    trustProxy: read('TRUST_PROXY', false, boolean, 'true or false'),
  };
  if (problems.length > 0) {
    throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  return config;
}
