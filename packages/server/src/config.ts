import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { DEFAULT_CHECKPOINT_PAGES, DEFAULT_READ_WORKERS, DEFAULT_WORKER_NICE } from './db/sqlite.ts';

/** Every setting the server reads, parsed once at start; a bad value stops start-up. */
export interface ErrorAlertsConfig {
  /** `ERROR_ALERT_POLL_MS`: how often the alert e-mails are sent; 0 runs no alert worker here. */
  pollMs: number;
  /** `ERROR_ALERT_TICK_MS`: how often spike rules are checked (a minute). */
  tickMs: number;
  leaseSeconds: number;
  retryBaseMs: number;
  maxAttempts: number;
  /** `ERROR_EVENT_RETENTION_DAYS`: kept error events older than this are deleted (90). */
  retentionDays: number;
  /** `ERROR_EVENT_RETENTION_INTERVAL_MS`: how often the retention pass runs (an hour). */
  retentionIntervalMs: number;
}

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
  /** CSP `frame-ancestors` of the board's iframe pages (`/embed/roadmap`): `*` (default) or space-separated sources. */
  boardEmbedFrameAncestors: string;
  /** Seconds in-flight requests get to finish after SIGTERM/SIGINT. */
  shutdownGraceSeconds: number;
  /**
   * `WORKERS`: server processes behind the one port (server-cluster.ts). An integer or `auto`
   * (the machine's cores). Default: 1 on SQLite (one writer at a time gains little from more),
   * the cores but at most 4 on PostgreSQL.
   */
  workers: number;
  trustProxy: boolean;
  /**
   * SQLite: WAL pages after which a commit copies the log back into the database file
   * (`PRAGMA wal_autocheckpoint`). Larger means fewer, cheaper-per-write checkpoints and a
   * larger WAL file (4 KiB a page).
   */
  sqliteCheckpointPages: number;
  /**
   * Worker threads with a read connection each, for the management API's reads on SQLite:
   * `SQLITE_READ_WORKERS`, default one per core beside the event loop's, at least 1 and at most 2
   * (DEFAULT_READ_WORKERS); 0 keeps every read on the event loop.
   */
  sqliteReadWorkers: number;
  /**
   * SQLite: the nice value of those worker threads (`SQLITE_WORKER_NICE`, 0 to 19; Linux only):
   * by default 10 when the process has one CPU (their long reads and checkpoints then wait for the
   * event loop's turns instead of stretching them), else 0 (DEFAULT_WORKER_NICE).
   */
  sqliteWorkerNice: number;
  /**
   * Seconds without a request after which memos are emptied, SQLite's page caches shrunk and its
   * idle read workers ended (http/at-rest.ts). `MEMORY_REST_SECONDS`, default 30; 0 never rests.
   */
  memoryRestSeconds: number;
  /** PostgreSQL: `relaxed` lets error reports commit without waiting for the disk (db/database.ts). */
  ingestDurability: 'full' | 'relaxed';
  /** Management API accounts: mail, sessions, seats and sign-in through OpenID Connect. */
  accounts: AccountsConfig;
  /**
   * The key per-project secrets are derived from (a board's SSO secret): `SECRET_KEY`, at least
   * 32 characters. Unset: a key made on first start and kept in the database. Changing it changes
   * every derived secret.
   */
  secretKey: string | undefined;
  /** The follower e-mail outbox worker (resources/notifications/outbox-worker.ts). */
  outbox: OutboxConfig;
  /** Webhook deliveries (resources/webhooks/delivery-worker.ts). */
  webhooks: WebhooksConfig;
  /**
   * `CHANGELOG_SCHEDULE_INTERVAL_MS`: how often the changelog's schedule worker
   * (resources/changelog/schedule-worker.ts) publishes scheduled entries that are due; 0 runs no
   * worker in this process.
   */
  changelogScheduleIntervalMs: number;
  /**
   * `RELEASE_SIGHTING_INTERVAL_MS`: how often the releases' sightings worker
   * (resources/releases/sightings-worker.ts) looks for versions first seen in live events or
   * sessions, which go live as created releases do; 0 runs no worker in this process.
   */
  releaseSightingIntervalMs: number;
  /**
   * `RELEASE_HEALTH_CHECK_INTERVAL_MS`: how often release health judges the releases with recent
   * sessions for `release.health_dropped` (resources/release-health/drops.ts); 0 never.
   */
  releaseHealthCheckIntervalMs: number;
  /**
   * `SESSION_EXPIRY_INTERVAL_MS`: how often release health deletes what is past its time (session
   * state after Sentry's update window, counts past `SESSION_RETENTION_DAYS`); the first pass runs
   * about a second after the start; 0 never (a process that leaves it to another).
   */
  sessionExpiryIntervalMs: number;
  /**
   * `SESSION_RETENTION_DAYS`: days release health keeps its hourly session, user and version-check
   * counts (resources/release-health/worker.ts); per-session state goes after Sentry's 5-day window.
   */
  sessionRetentionDays: number;
  /**
   * `PARTITION_KEEPER_INTERVAL_MS`: on PostgreSQL, how often the partition keeper makes the time
   * partitions of error_events, release_session_users, release_sessions and log_lines (with log_line_spans) ahead
   * and drops those past retention
   * (db/partition-keeper.ts; one process at a time does it); 0 runs no keeper in this process.
   */
  partitionKeeperIntervalMs: number;
  /**
   * `ERROR_HISTORY_RETENTION_DAYS`: days of the hourly occurrence counts of error records from before
   * migration 202612020100 (resources/reports/store-history.ts; newer records count their own
   * hours); older hours are pruned after writes, at most every 10 minutes per process.
   */
  errorHistoryRetentionDays: number;
  /** The latest events an error group keeps besides its first and a sample (ERROR_EVENTS_PER_GROUP). */
  errorEventsPerGroup: number;
  /** Error alerts and the retention of kept events (resources/reports/alert-worker.ts). */
  errorAlerts: ErrorAlertsConfig;
  /**
   * `QUOTA_FLUSH_INTERVAL_MS`: how often plan-quota counts kept in memory are written to the
   * database (http/quota-meter.ts). Longer means fewer writes and a larger worst-case overshoot
   * with several processes (one interval of each other process's traffic, see the README).
   */
  quotaFlushIntervalMs: number;
  /** `IMPORT_MAX_BYTES`: the largest export an import takes, raw body or form (resources/imports/upload.ts). */
  importMaxBytes: number;
  /** Log lines (resources/logs/lines-worker.ts, live-tail.ts). */
  logLines: LogLinesConfig;
}

export interface LogLinesConfig {
  /** `LOG_LINES_PER_GROUP`: lines kept per log group, the newest this many plus the group's first. */
  perGroup: number;
  /** `LOG_LINE_RETENTION_DAYS`: days a line is kept (by its own time); groups and counts stay. */
  retentionDays: number;
  /** `LOG_LINES_WORKER_MS`: how often the worker caps groups and expires lines; 0 runs no worker in this process. */
  workerMs: number;
  /** `LOG_TAIL_MAX_PER_PROJECT`: live-tail connections one project may hold open in this process. */
  tailMaxPerProject: number;
}

export interface WebhooksConfig {
  /**
   * `WEBHOOKS_ALLOW_PRIVATE_TARGETS`: deliver to loopback, private, link-local, unique-local and
   * multicast addresses too (self-hosters inside a private network, tests). Off: such targets are
   * refused at every delivery, after DNS resolution.
   */
  allowPrivateTargets: boolean;
  /** `WEBHOOKS_POLL_MS`: how often the worker looks for due deliveries; 0 runs no worker in this process. */
  pollMs: number;
  /** `WEBHOOKS_LEASE_SECONDS`: how long a claimed delivery is this process's before another may take it. */
  leaseSeconds: number;
  /** `WEBHOOKS_TIMEOUT_MS`: how long one POST may take (connect to end of response). */
  timeoutMs: number;
  /** `WEBHOOKS_RETRY_BASE_MS`: the pause after the first failed attempt; it doubles with each further one (at most 8 hours). */
  retryBaseMs: number;
  /** `WEBHOOKS_MAX_ATTEMPTS`: attempts before a delivery is given up as `failed`. */
  maxAttempts: number;
  /** `WEBHOOKS_DISABLE_AFTER`: deliveries given up in a row after which the endpoint is disabled (and its team e-mailed). */
  disableAfter: number;
  /** `WEBHOOKS_LOG_RETENTION_DAYS`: days delivered and failed messages stay in the delivery log. */
  logRetentionDays: number;
}

export interface OutboxConfig {
  /** `OUTBOX_POLL_MS`: how often the worker looks for due messages; 0 runs no worker in this process. */
  pollMs: number;
  /** `OUTBOX_LEASE_SECONDS`: how long a claimed message is this process's before another may take it. */
  leaseSeconds: number;
  /** `OUTBOX_RETRY_BASE_MS`: the pause after the first failed attempt; it doubles with each further one. */
  retryBaseMs: number;
  /** `OUTBOX_MAX_ATTEMPTS`: attempts before a message is given up as `failed`. */
  maxAttempts: number;
  /**
   * `NOTIFY_UNDO_SECONDS`: how long a status-change e-mail waits, collapsing further changes of
   * the idea, before it goes out (a project's own setting wins). Default 60.
   */
  undoWindowSeconds: number;
}

export interface OidcConfig {
  /** `oidc` (any OpenID Connect issuer, discovered), `google`, or `github` (OAuth 2 + its user API). */
  preset: 'oidc' | 'google' | 'github';
  issuer: string;
  clientId: string;
  clientSecret: string | undefined;
  scopes: string;
  /** Label shown to users, e.g. on a sign-in button. */
  label: string;
}

export interface AccountsConfig {
  /** `smtp://…` or `smtps://…`; undefined writes each message as a .eml file under `<dataDir>/mail/`. */
  smtpUrl: string | undefined;
  mailFrom: string;
  /** Seats across the teams of one owner, unless set for that owner. */
  defaultTeamSeats: number;
  sessionTtlDays: number;
  /** The `Secure` attribute of the session cookie. */
  secureCookies: boolean;
  oidc: OidcConfig | undefined;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** The demo project's public key; published in the README, so it is not a secret. */
export const DEFAULT_DEMO_API_KEY = 'svc_live_demo_signpostpublicdemokey0001';

export { DEFAULT_CHECKPOINT_PAGES };

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
    dataDir: resolve(
      env['INIT_CWD'] ?? process.cwd(),
      read('DATA_DIR', './data', (raw) => raw, ''),
    ),
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
    workers: read(
      'WORKERS',
      // Decided on the database: SQLite has one writer at a time, PostgreSQL scales with processes.
      0,
      (raw) => (raw === 'auto' ? availableParallelism() : integer(1, 256)(raw)),
      'an integer from 1 to 256, or auto (one per core)',
    ),
    trustProxy: read('TRUST_PROXY', false, boolean, 'true or false'),
    sqliteCheckpointPages: read(
      'SQLITE_CHECKPOINT_PAGES',
      DEFAULT_CHECKPOINT_PAGES,
      integer(100, 1_000_000),
      'an integer from 100 to 1000000',
    ),
    boardEmbedFrameAncestors: read(
      'BOARD_EMBED_FRAME_ANCESTORS',
      '*',
      (raw) =>
        raw
          .trim()
          .split(/\s+/)
          .every((source) => /^('self'|'none'|\*|https?:|https?:\/\/[A-Za-z0-9*.:-]+)$/.test(source))
          ? raw.trim().replace(/\s+/g, ' ')
          : undefined,
      "*, 'self', 'none' or origins such as https://app.example.com, separated by spaces",
    ),
    sqliteReadWorkers: read('SQLITE_READ_WORKERS', DEFAULT_READ_WORKERS, integer(0, 16), 'an integer from 0 to 16'),
    sqliteWorkerNice: read('SQLITE_WORKER_NICE', DEFAULT_WORKER_NICE, integer(0, 19), 'an integer from 0 to 19'),
    memoryRestSeconds: read('MEMORY_REST_SECONDS', 30, integer(0, 86_400), 'an integer from 0 (never) to 86400'),
    ingestDurability: read<'full' | 'relaxed'>(
      'INGEST_DURABILITY',
      'relaxed',
      (raw) => (raw === 'full' || raw === 'relaxed' ? raw : undefined),
      'full or relaxed',
    ),
    accounts: readAccountsConfig(read, integer, boolean, url, env['PUBLIC_URL'] ?? ''),
    secretKey: read<string | undefined>(
      'SECRET_KEY',
      undefined,
      (raw) => (raw.length >= 32 ? raw : undefined),
      'at least 32 characters',
    ),
    outbox: {
      pollMs: read('OUTBOX_POLL_MS', 1000, integer(0, 3_600_000), 'an integer from 0 (no worker) to 3600000'),
      leaseSeconds: read('OUTBOX_LEASE_SECONDS', 120, integer(1, 86_400), 'an integer from 1 to 86400'),
      retryBaseMs: read('OUTBOX_RETRY_BASE_MS', 30_000, integer(1, 86_400_000), 'an integer from 1 to 86400000'),
      maxAttempts: read('OUTBOX_MAX_ATTEMPTS', 8, integer(1, 100), 'an integer from 1 to 100'),
      undoWindowSeconds: read('NOTIFY_UNDO_SECONDS', 60, integer(0, 3600), 'an integer from 0 to 3600'),
    },
    webhooks: {
      allowPrivateTargets: read('WEBHOOKS_ALLOW_PRIVATE_TARGETS', false, boolean, 'true or false'),
      pollMs: read('WEBHOOKS_POLL_MS', 1000, integer(0, 3_600_000), 'an integer from 0 (no worker) to 3600000'),
      leaseSeconds: read('WEBHOOKS_LEASE_SECONDS', 120, integer(1, 86_400), 'an integer from 1 to 86400'),
      timeoutMs: read('WEBHOOKS_TIMEOUT_MS', 10_000, integer(100, 120_000), 'an integer from 100 to 120000'),
      retryBaseMs: read('WEBHOOKS_RETRY_BASE_MS', 60_000, integer(1, 86_400_000), 'an integer from 1 to 86400000'),
      maxAttempts: read('WEBHOOKS_MAX_ATTEMPTS', 12, integer(1, 100), 'an integer from 1 to 100'),
      disableAfter: read('WEBHOOKS_DISABLE_AFTER', 5, integer(1, 1000), 'an integer from 1 to 1000'),
      logRetentionDays: read('WEBHOOKS_LOG_RETENTION_DAYS', 30, integer(1, 3650), 'an integer from 1 to 3650'),
    },
    errorHistoryRetentionDays: read(
      'ERROR_HISTORY_RETENTION_DAYS',
      30,
      integer(14, 3650),
      'an integer from 14 to 3650',
    ),
    errorEventsPerGroup: read('ERROR_EVENTS_PER_GROUP', 100, integer(1, 100_000), 'an integer from 1 to 100000'),
    logLines: {
      perGroup: read('LOG_LINES_PER_GROUP', 1000, integer(1, 1_000_000), 'an integer from 1 to 1000000'),
      retentionDays: read('LOG_LINE_RETENTION_DAYS', 14, integer(1, 3650), 'an integer from 1 to 3650'),
      workerMs: read('LOG_LINES_WORKER_MS', 60_000, integer(0, 3_600_000), 'an integer from 0 (no worker) to 3600000'),
      tailMaxPerProject: read('LOG_TAIL_MAX_PER_PROJECT', 5, integer(1, 1000), 'an integer from 1 to 1000'),
    },
    errorAlerts: {
      pollMs: read('ERROR_ALERT_POLL_MS', 1000, integer(0, 3_600_000), 'an integer from 0 (no worker) to 3600000'),
      tickMs: read('ERROR_ALERT_TICK_MS', 60_000, integer(100, 3_600_000), 'an integer from 100 to 3600000'),
      leaseSeconds: read('ERROR_ALERT_LEASE_SECONDS', 120, integer(1, 86_400), 'an integer from 1 to 86400'),
      retryBaseMs: read('ERROR_ALERT_RETRY_BASE_MS', 30_000, integer(1, 86_400_000), 'an integer from 1 to 86400000'),
      maxAttempts: read('ERROR_ALERT_MAX_ATTEMPTS', 8, integer(1, 100), 'an integer from 1 to 100'),
      retentionDays: read(
        'ERROR_EVENT_RETENTION_DAYS',
        90,
        (raw) => {
          const n = Number(raw);
          return Number.isFinite(n) && n > 0 && n <= 36_500 ? n : undefined;
        },
        'a number of days above 0 (fractions allowed), at most 36500',
      ),
      retentionIntervalMs: read(
        'ERROR_EVENT_RETENTION_INTERVAL_MS',
        3_600_000,
        integer(100, 86_400_000),
        'an integer from 100 to 86400000',
      ),
    },
    quotaFlushIntervalMs: read('QUOTA_FLUSH_INTERVAL_MS', 1000, integer(10, 60_000), 'an integer from 10 to 60000'),
    importMaxBytes: read(
      'IMPORT_MAX_BYTES',
      200 * 1024 * 1024,
      integer(1024, 2 ** 32),
      'an integer from 1024 to 4294967296 (bytes)',
    ),
    changelogScheduleIntervalMs: read(
      'CHANGELOG_SCHEDULE_INTERVAL_MS',
      5000,
      integer(0, 3_600_000),
      'an integer from 0 (no worker) to 3600000',
    ),
    releaseSightingIntervalMs: read(
      'RELEASE_SIGHTING_INTERVAL_MS',
      5000,
      integer(0, 3_600_000),
      'an integer from 0 (no worker) to 3600000',
    ),
    releaseHealthCheckIntervalMs: read(
      'RELEASE_HEALTH_CHECK_INTERVAL_MS',
      60_000,
      integer(0, 3_600_000),
      'an integer from 0 (never) to 3600000',
    ),
    sessionExpiryIntervalMs: read(
      'SESSION_EXPIRY_INTERVAL_MS',
      600_000,
      integer(0, 86_400_000),
      'an integer from 0 (never) to 86400000',
    ),
    sessionRetentionDays: read('SESSION_RETENTION_DAYS', 90, integer(1, 3650), 'an integer from 1 to 3650'),
    partitionKeeperIntervalMs: read(
      'PARTITION_KEEPER_INTERVAL_MS',
      600_000,
      integer(0, 86_400_000),
      'an integer from 0 (no keeper) to 86400000',
    ),
  };
  // PostgreSQL: one per core, at most 4: each process holds a pool of 10 connections and a
  // listener, and two replicas of 4 (88 connections) stay under PostgreSQL's default 100.
  if (config.workers === 0)
    config.workers = /^postgres(ql)?:\/\//.test(config.databaseUrl ?? '') ? Math.min(availableParallelism(), 4) : 1;
  if (problems.length > 0) {
    throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  return config;
}

type Reader = <T>(name: string, fallback: T, parse: (raw: string) => T | undefined, rule: string) => T;

function readAccountsConfig(
  read: Reader,
  integer: (min: number, max: number) => (raw: string) => number | undefined,
  boolean: (raw: string) => boolean | undefined,
  url: (raw: string) => string | undefined,
  publicUrl: string,
): AccountsConfig {
  const host = URL.canParse(publicUrl) ? new URL(publicUrl).hostname : 'localhost';
  // Browsers keep Secure cookies from http://localhost; elsewhere plain http would lose them.
  const secureByDefault = publicUrl.startsWith('https:') || host === 'localhost' || host === '127.0.0.1';
  const preset = read<OidcConfig['preset']>(
    'OIDC_PRESET',
    'oidc',
    (raw) => (['oidc', 'google', 'github'] as const).find((value) => value === raw),
    'oidc, google or github',
  );
  const presetIssuer = { oidc: undefined, google: 'https://accounts.google.com', github: 'https://github.com' }[preset];
  const issuer = read<string | undefined>('OIDC_ISSUER', presetIssuer, url, 'an http(s) URL');
  const clientId = read<string | undefined>('OIDC_CLIENT_ID', undefined, (raw) => raw, '');
  const defaultScopes = preset === 'github' ? 'read:user user:email' : 'openid email profile';
  return {
    smtpUrl: read<string | undefined>(
      'SMTP_URL',
      undefined,
      (raw) => (/^smtps?:\/\/[^/]/.test(raw) ? raw : undefined),
      'an smtp:// or smtps:// URL',
    ),
    mailFrom: read(
      'MAIL_FROM',
      'Signpost <signpost@localhost>',
      (raw) => (raw.includes('@') ? raw : undefined),
      'an e-mail address',
    ),
    defaultTeamSeats: read('DEFAULT_TEAM_SEATS', 5, integer(1, 100_000), 'an integer from 1 to 100000'),
    sessionTtlDays: read('SESSION_TTL_DAYS', 30, integer(1, 365), 'an integer from 1 to 365'),
    secureCookies: read('SESSION_COOKIE_SECURE', secureByDefault, boolean, 'true or false'),
    oidc:
      issuer && clientId
        ? {
            preset,
            issuer,
            clientId,
            clientSecret: read<string | undefined>('OIDC_CLIENT_SECRET', undefined, (raw) => raw, ''),
            scopes: read('OIDC_SCOPES', defaultScopes, (raw) => raw, ''),
            label: read(
              'OIDC_LABEL',
              { oidc: 'Single sign-on', google: 'Google', github: 'GitHub' }[preset],
              (raw) => raw,
              '',
            ),
          }
        : undefined,
  };
}
