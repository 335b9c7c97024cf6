/**
 * @signpost/logger: structured logs to Signpost (POST /logs) from browsers and Node.js 18+.
 * Nothing Node-only here; the pino transport lives at `@signpost/logger/pino`.
 */
import {
  clip,
  createBatcher,
  createOfflineQueue,
  createReporter,
  transportFor,
  isBrowser,
  SdkError,
  toJsonSafe,
  type Batcher,
  type ErrorHandler,
  type FetchLike,
  type OfflineQueue,
  type Transport,
} from '@signpost/sdk-core';

export { ApiError, SdkError } from '@signpost/sdk-core';
export type { ApiErrorBody, ErrorHandler, Transport } from '@signpost/sdk-core';

export type LogLevel = 'error' | 'warn' | 'info' | 'debug' | 'trace';

/** Levels from most to least severe. */
export const LOG_LEVELS: readonly LogLevel[] = ['error', 'warn', 'info', 'debug', 'trace'];

/** One entry as POST /logs takes it. */
export interface LogEntry {
  level: LogLevel;
  message: string;
  category?: string;
  source?: string;
  data?: Record<string, unknown>;
  userId?: string;
  appVersion?: string;
  fingerprint?: string;
  timestamp?: string;
}

export interface LogOptions {
  category?: string;
  source?: string;
  /** Custom dedup key: entries with the same fingerprint are counted on one row. */
  fingerprint?: string;
  /** When it happened, if not now (ISO string, epoch milliseconds or Date). */
  timestamp?: string | number | Date;
}

export interface LoggerOptions {
  /**
   * A project key with the `logs:write` scope. When it is missing, nothing is sent (the console
   * pass-through still works) and one `SdkError('invalid_options')` is reported.
   */
  apiKey: string | undefined;
  /** Your Signpost server's public API. Default `http://localhost:3000/api/public/v1`. */
  baseUrl?: string;
  /** The least severe level sent. Default `info`. */
  level?: LogLevel;
  /** Default category (a group label) of every entry. */
  category?: string;
  /** Default origin tag of every entry. */
  source?: string;
  appVersion?: string;
  userId?: string;
  /** Merged into every entry's `data`. */
  defaultData?: Record<string, unknown>;
  /** Also write entries to the console: `true` for every sent level, or the least severe level to print. Default false. */
  console?: boolean | LogLevel;
  /** Computes a custom fingerprint when the call gave none. */
  fingerprint?: (entry: LogEntry) => string | undefined;
  /** Change an entry before it is queued, or return `null` to drop it. */
  beforeSend?: (entry: LogEntry) => LogEntry | null | undefined;
  /** Entries per request, at most 100 (the API's limit). Default 100. */
  maxBatchSize?: number;
  /** Flush this long after the first unsent entry. Default 5000 ms. */
  flushIntervalMs?: number;
  /** Entries held at most while sending is slow; the oldest are dropped beyond. Default 1000. */
  maxQueueSize?: number;
  /** Flush on Node.js `beforeExit`. Default true. */
  flushOnExit?: boolean;
  /** Flush with `keepalive` when the page is hidden. Default true. */
  flushOnPageHide?: boolean;
  /** Keep batches that could not be sent (offline, 5xx) in `localStorage` and send them later. Default: true in browsers. */
  offline?: boolean;
  timeoutMs?: number;
  maxRetries?: number;
  fetch?: FetchLike;
  /** Where the logger's own failures go. Default `console.warn`. */
  onError?: ErrorHandler;
  /** Share one transport between SDKs (overrides apiKey, baseUrl, timeoutMs, maxRetries, fetch). */
  transport?: Transport;
}

export interface LoggerStats {
  /** Entries queued since start. */
  queued: number;
  /** Entries accepted by the server. */
  sent: number;
  /** Entries dropped: by `beforeSend`, a full queue, a refused batch or a rate limit. */
  dropped: number;
}

/**
 * What to log: a string, or an `Error` (its message is the entry's message and the error itself,
 * as `{ name, message, stack }`, goes to `data.error`); anything else (a caught `unknown`) is
 * treated the same way or turned into a string.
 */
export type LogMessage = string | Error | unknown;

export interface Logger {
  error(message: LogMessage, data?: Record<string, unknown>, options?: LogOptions): void;
  warn(message: LogMessage, data?: Record<string, unknown>, options?: LogOptions): void;
  info(message: LogMessage, data?: Record<string, unknown>, options?: LogOptions): void;
  debug(message: LogMessage, data?: Record<string, unknown>, options?: LogOptions): void;
  trace(message: LogMessage, data?: Record<string, unknown>, options?: LogOptions): void;
  log(level: LogLevel, message: LogMessage, data?: Record<string, unknown>, options?: LogOptions): void;
  /** A logger with its own defaults (category, source, data) that shares this one's queue. */
  child(defaults: { category?: string; source?: string; data?: Record<string, unknown> }): Logger;
  setUser(userId: string | undefined): void;
  setLevel(level: LogLevel): void;
  /** Sends everything queued. Never rejects. */
  flush(): Promise<void>;
  /** Flushes and stops timers and listeners. */
  close(): Promise<void>;
  readonly stats: Readonly<LoggerStats>;
}

const MAX_BATCH = 100;

function rank(level: LogLevel): number {
  return LOG_LEVELS.indexOf(level);
}

/** Creates a logger that batches entries to POST /logs. */
export function createLogger(options: LoggerOptions): Logger {
  const report = createReporter(options.onError);
  const transport = transportFor(options, report);
  const stats: LoggerStats = { queued: 0, sent: 0, dropped: 0 };
  const enabled = !!options.apiKey || !!options.transport;
  if (!enabled)
    report(new SdkError('invalid_options', '@signpost/logger: no apiKey given, so no log entries are sent'));
  let minLevel: LogLevel = options.level ?? 'info';
  let userId = options.userId;
  const consoleLevel: LogLevel | undefined =
    options.console === true ? 'trace' : typeof options.console === 'string' ? options.console : undefined;

  const offline: OfflineQueue | undefined =
    (options.offline ?? isBrowser())
      ? createOfflineQueue({ transport, storageKey: 'signpost:logger:queue' })
      : undefined;

  async function send(logs: LogEntry[], keepalive: boolean): Promise<void> {
    const request = { method: 'POST', path: '/logs', body: { logs } };
    try {
      if (offline) {
        const res = await offline.send<{ accepted: number }>(request, { keepalive });
        if (res) stats.sent += res.data?.accepted ?? logs.length;
      } else {
        const res = await transport.request<{ accepted: number }>('POST', '/logs', { body: { logs }, keepalive });
        stats.sent += res.data?.accepted ?? logs.length;
      }
    } catch (error) {
      stats.dropped += logs.length;
      // While the API asks us to wait (429), batches are dropped and counted, not reported one by one.
      if (error instanceof SdkError && error.code === 'rate_limited') return;
      throw error;
    }
  }

  const batcher: Batcher<LogEntry> = createBatcher<LogEntry>({
    maxBatchSize: Math.min(MAX_BATCH, Math.max(1, options.maxBatchSize ?? MAX_BATCH)),
    flushIntervalMs: options.flushIntervalMs ?? 5000,
    maxQueueSize: options.maxQueueSize ?? 1000,
    flushOnExit: options.flushOnExit ?? true,
    flushOnPageHide: options.flushOnPageHide ?? true,
    send: (logs, { keepalive }) => send(logs, keepalive),
    onError: report,
  });
  let queueDropsSeen = 0;

  function writeConsole(entry: LogEntry) {
    if (!consoleLevel || rank(entry.level) > rank(consoleLevel) || typeof console === 'undefined') return;
    const method = entry.level === 'trace' ? 'debug' : entry.level;
    const prefix = entry.category ? `[${entry.category}]` : '';
    const args: unknown[] = prefix ? [prefix, entry.message] : [entry.message];
    if (entry.data) args.push(entry.data);
    (console[method] ?? console.log)(...args);
  }

  function build(
    level: LogLevel,
    message: LogMessage,
    data: Record<string, unknown> | undefined,
    callOptions: LogOptions,
    defaults: { category?: string; source?: string; data?: Record<string, unknown> },
  ): LogEntry {
    let text: string;
    let merged: Record<string, unknown> | undefined =
      options.defaultData || defaults.data || data ? { ...options.defaultData, ...defaults.data, ...data } : undefined;
    if (message instanceof Error) {
      text = message.message || message.name;
      merged = { ...merged, error: message };
    } else if (typeof message === 'string') {
      text = message;
    } else if (
      message &&
      typeof message === 'object' &&
      typeof (message as { message?: unknown }).message === 'string'
    ) {
      text = (message as { message: string }).message;
      merged = { ...merged, error: message };
    } else {
      text = String(message);
    }
    const when = callOptions.timestamp !== undefined ? new Date(callOptions.timestamp) : new Date();
    const timestamp = Number.isNaN(when.getTime()) ? new Date().toISOString() : when.toISOString();
    const entry: LogEntry = { level, message: clip(text || '(empty message)', 5000), timestamp };
    const category = callOptions.category ?? defaults.category ?? options.category;
    const source = callOptions.source ?? defaults.source ?? options.source;
    if (category) entry.category = clip(category, 200);
    if (source) entry.source = clip(source, 200);
    if (merged) {
      const safe = toJsonSafe(merged);
      if (safe && typeof safe === 'object' && !Array.isArray(safe)) entry.data = safe as Record<string, unknown>;
    }
    if (userId) entry.userId = clip(userId, 200);
    if (options.appVersion) entry.appVersion = clip(options.appVersion, 100);
    const fingerprint = callOptions.fingerprint ?? options.fingerprint?.(entry);
    if (fingerprint) entry.fingerprint = clip(String(fingerprint), 200);
    return entry;
  }

  function make(defaults: { category?: string; source?: string; data?: Record<string, unknown> }): Logger {
    const log = (
      level: LogLevel,
      message: LogMessage,
      data?: Record<string, unknown>,
      callOptions: LogOptions = {},
    ) => {
      try {
        if (!LOG_LEVELS.includes(level)) level = 'info';
        if (rank(level) > rank(minLevel) && !(consoleLevel && rank(level) <= rank(consoleLevel))) return;
        let entry: LogEntry | null | undefined = build(level, message, data, callOptions, defaults);
        writeConsole(entry);
        if (rank(level) > rank(minLevel) || !enabled) return;
        if (options.beforeSend) entry = options.beforeSend(entry);
        if (!entry) {
          stats.dropped++;
          return;
        }
        stats.queued++;
        batcher.add(entry);
        if (batcher.dropped !== queueDropsSeen) {
          stats.dropped += batcher.dropped - queueDropsSeen;
          queueDropsSeen = batcher.dropped;
        }
      } catch (error) {
        report(error);
      }
    };
    return {
      log,
      error: (m, d, o) => log('error', m, d, o),
      warn: (m, d, o) => log('warn', m, d, o),
      info: (m, d, o) => log('info', m, d, o),
      debug: (m, d, o) => log('debug', m, d, o),
      trace: (m, d, o) => log('trace', m, d, o),
      child: (more) =>
        make({
          category: more.category ?? defaults.category,
          source: more.source ?? defaults.source,
          ...(defaults.data || more.data ? { data: { ...defaults.data, ...more.data } } : {}),
        }),
      setUser: (id) => {
        userId = id;
      },
      setLevel: (level) => {
        if (LOG_LEVELS.includes(level)) minLevel = level;
      },
      flush: () => batcher.flush(),
      close: async () => {
        await batcher.close();
        offline?.close();
      },
      get stats() {
        return stats;
      },
    };
  }

  return make({});
}
