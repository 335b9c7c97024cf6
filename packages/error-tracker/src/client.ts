import {
  clip,
  createOfflineQueue,
  createReporter,
  transportFor,
  isBrowser,
  SdkError,
  toJsonSafe,
  type ErrorHandler,
  type FetchLike,
  type OfflineQueue,
  type Transport,
} from '@signpost/sdk-core';
import { BreadcrumbBuffer } from './breadcrumbs.js';
import { FlagBuffer } from './flags.js';
import { type Session, startSession } from './session.js';
import type {
  AppContext,
  AppEnvironment,
  Breadcrumb,
  CaptureContext,
  DeviceContext,
  ErrorEvent,
  EventHint,
  NetworkContext,
  Severity,
  User,
} from './types.js';

export interface ErrorTrackerOptions {
  /** A project key with the `errors:write` scope. Missing: nothing is sent, one error is reported. */
  apiKey: string | undefined;
  /** Your Signpost server's public API. Default `http://localhost:3000/api/public/v1`. */
  baseUrl?: string;
  /** `development`, `staging` or `production`. */
  environment?: AppEnvironment;
  /** Your app's version (`app.version`). */
  release?: string;
  /** A build or deployment id (`app.releaseId`). */
  releaseId?: string;
  /**
   * Release health: a session per page load or process, sent to POST /sessions (session.ts).
   * Default: on when `release` is set.
   */
  sessions?: boolean;
  /** Share of events sent, 0 to 1. Default 1. Sampling happens first, before `beforeSend`. */
  sampleRate?: number;
  /** Change an event, or return `null` to drop it (drops are counted in `stats.dropped`). */
  beforeSend?: (event: ErrorEvent, hint: EventHint) => ErrorEvent | null | undefined;
  /** Breadcrumbs kept, the newest; at most 50 (the API's limit). Default 50. */
  maxBreadcrumbs?: number;
  /** Change a breadcrumb before it is kept, or return `null` to skip it. */
  beforeBreadcrumb?: (crumb: Breadcrumb) => Breadcrumb | null | undefined;
  /** The same error again within this window is not sent again (counted in `stats.deduplicated`). Default 5000 ms; 0 turns it off. */
  dedupeWindowMs?: number;
  /** Errors whose message (or `type: message`) matches are ignored. */
  ignoreErrors?: (string | RegExp)[];
  /** Merged into every event's `metadata`. */
  metadata?: Record<string, unknown>;
  /** Keep reports that could not be sent (offline, 5xx) in `localStorage` and send them later. Default: true in browsers. */
  offline?: boolean;
  timeoutMs?: number;
  maxRetries?: number;
  fetch?: FetchLike;
  /** Where the tracker's own failures go. Default `console.warn`. */
  onError?: ErrorHandler;
  /** Share one transport between SDKs (overrides apiKey, baseUrl, timeoutMs, maxRetries, fetch). */
  transport?: Transport;
}

export interface ErrorTrackerStats {
  captured: number;
  sent: number;
  /** Dropped by `beforeSend` or `ignoreErrors`. */
  dropped: number;
  sampledOut: number;
  deduplicated: number;
  /** Could not be sent (refused, rate-limited or lost). */
  failed: number;
}

/** A report accepted by the server. */
export interface CaptureResult {
  id: string;
  /** True when the server counted it on an existing record (same title and type within an hour). */
  duplicate: boolean;
}

export interface ErrorTracker {
  /** Reports an error (any thrown value). Resolves with the server's record, or `undefined` when dropped, queued or failed. Never rejects. */
  captureException(error: unknown, context?: CaptureContext): Promise<CaptureResult | undefined>;
  /** Reports a message (default severity `low`). */
  captureMessage(message: string, severityOrContext?: Severity | CaptureContext): Promise<CaptureResult | undefined>;
  /** Sets (or clears, with `null`) the user attached to events. */
  setUser(user: User | null): void;
  addBreadcrumb(crumb: Breadcrumb): void;
  /** Adds to the metadata of every event. */
  setMetadata(key: string, value: unknown): void;
  /**
   * Records a feature flag's evaluation: events carry the last 100 (newest last), shown next to
   * the error. `openFeatureHook` calls it for every OpenFeature evaluation.
   */
  addFeatureFlag(flag: string, result: boolean | string | number | null): void;
  /** Waits for reports in flight. Never rejects. */
  flush(): Promise<void>;
  /** Removes handlers and instrumentation installed for this tracker, and flushes. */
  close(): Promise<void>;
  readonly stats: Readonly<ErrorTrackerStats>;
  /** @internal used by the platform entry points and the React boundary. */
  readonly internal: TrackerInternals;
}

/** @internal */
export interface TrackerInternals {
  capture(error: unknown, context: CaptureContext, mechanism: string): Promise<CaptureResult | undefined>;
  breadcrumbs: BreadcrumbBuffer;
  addCleanup(fn: () => void): void;
  setDeviceProvider(fn: () => DeviceContext | undefined): void;
  setNetworkProvider(fn: () => NetworkContext | undefined): void;
  setLocationProvider(fn: () => { url?: string; referrer?: string }): void;
  report: ErrorHandler;
  baseUrl: string;
}

function randomId(): string {
  const c = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto;
  if (c?.randomUUID) return c.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}

/** At least `min` characters: short texts get a suffix rather than being refused by the API. */
function atLeast(text: string, min: number, suffix: string): string {
  let out = text.trim();
  if (out.length >= min) return out;
  out = out ? `${out} ${suffix}` : suffix;
  return out.length >= min ? out : out.padEnd(min, '.');
}

interface Normalised {
  errorType: string;
  message: string;
  stack?: string;
}

function normalise(error: unknown): Normalised {
  if (error instanceof Error || (error && typeof error === 'object' && 'message' in error && 'name' in error)) {
    const e = error as Error;
    const out: Normalised = { errorType: String(e.name || 'Error'), message: String(e.message ?? '') };
    if (typeof e.stack === 'string') out.stack = e.stack;
    return out;
  }
  if (typeof error === 'string') return { errorType: 'Error', message: error };
  let text: string;
  try {
    text = JSON.stringify(toJsonSafe(error));
  } catch {
    text = String(error);
  }
  return {
    errorType: error === null ? 'null' : typeof error === 'object' ? 'NonError' : typeof error,
    message: `Non-Error thrown: ${text ?? String(error)}`,
  };
}

function matches(patterns: (string | RegExp)[] | undefined, text: string): boolean {
  return !!patterns?.some((p) => (typeof p === 'string' ? text.includes(p) : p.test(text)));
}

/**
 * Creates an error tracker without installing global handlers or instrumentation (use `init` from
 * `@signpost/error-tracker` in browsers, or from `@signpost/error-tracker/node`, for that).
 */
export function createErrorTracker(options: ErrorTrackerOptions): ErrorTracker {
  const report = createReporter(options.onError);
  const transport = transportFor(options, report);
  const enabled = !!options.apiKey || !!options.transport;
  if (!enabled) report(new Error('@signpost/error-tracker: no apiKey given, so no errors are sent'));
  const stats: ErrorTrackerStats = { captured: 0, sent: 0, dropped: 0, sampledOut: 0, deduplicated: 0, failed: 0 };
  const breadcrumbs = new BreadcrumbBuffer(options.maxBreadcrumbs);
  const flags = new FlagBuffer();
  const sampleRate = options.sampleRate ?? 1;
  const dedupeWindowMs = options.dedupeWindowMs ?? 5000;
  const recent = new Map<string, number>();
  const inFlight = new Set<Promise<unknown>>();
  const cleanups: (() => void)[] = [];
  const metadata: Record<string, unknown> = { ...options.metadata };
  const sessionId = randomId();
  let user: User | null = null;
  let session: Session | undefined;
  let deviceProvider: () => DeviceContext | undefined = () => undefined;
  let networkProvider: () => NetworkContext | undefined = () => undefined;
  let locationProvider: () => { url?: string; referrer?: string } = () => ({});
  const offline: OfflineQueue | undefined =
    (options.offline ?? isBrowser()) && enabled
      ? createOfflineQueue({ transport, storageKey: 'signpost:error-tracker:queue' })
      : undefined;

  function track(pending: Promise<unknown> | undefined): void {
    if (!pending) return;
    inFlight.add(pending);
    void pending.finally(() => inFlight.delete(pending));
  }

  if (enabled && options.release && options.sessions !== false) {
    const release = clip(options.release, 200);
    session = startSession({
      sid: sessionId,
      release,
      environment: options.environment,
      user: () => user?.id ?? user?.email,
      unhandledStatus: isBrowser() ? 'unhandled' : 'crashed',
      send: (update) => {
        const pending = transport
          .request('POST', '/sessions', { body: { sessions: [update] }, keepalive: isBrowser() })
          .then(
            () => undefined,
            (error: unknown) => {
              if (!(error instanceof SdkError && error.code === 'rate_limited')) report(error);
            },
          );
        track(pending);
        return pending;
      },
    });
    // The session ends with the page or the process; close() ends it too.
    const g = globalThis as {
      addEventListener?: (type: string, fn: () => void) => void;
      removeEventListener?: (type: string, fn: () => void) => void;
      process?: { once?: (type: string, fn: () => void) => void; off?: (type: string, fn: () => void) => void };
    };
    const end = () => void session?.end();
    if (isBrowser()) {
      g.addEventListener?.('pagehide', end);
      cleanups.push(() => g.removeEventListener?.('pagehide', end));
    } else {
      g.process?.once?.('beforeExit', end);
      cleanups.push(() => g.process?.off?.('beforeExit', end));
    }
  }

  function isDuplicate(fingerprint: string): boolean {
    if (dedupeWindowMs <= 0) return false;
    const now = Date.now();
    for (const [key, at] of recent) if (now - at > dedupeWindowMs) recent.delete(key);
    if (recent.has(fingerprint)) return true;
    recent.set(fingerprint, now);
    return false;
  }

  function buildEvent(n: Normalised, context: CaptureContext, defaultSeverity: Severity): ErrorEvent {
    const errorType = clip(context.errorType ?? n.errorType, 200);
    const message = clip(atLeast(n.message || errorType, 10, `(${errorType})`), 5000);
    const title = clip(atLeast(n.message ? `${errorType}: ${n.message.split('\n')[0]}` : errorType, 5, '(error)'), 200);
    const event: ErrorEvent = {
      title,
      message,
      errorType,
      severity: context.severity ?? defaultSeverity,
      timestamp: new Date().toISOString(),
    };
    if (n.stack) event.stackTrace = clip(n.stack, 50_000);
    const crumbs = breadcrumbs.list();
    if (crumbs.length) event.breadcrumbs = crumbs;
    if (flags.size) event.flags = flags.list();
    const device = deviceProvider();
    if (device && Object.keys(device).length) event.device = device;
    const network = networkProvider();
    if (network && Object.keys(network).length) event.network = network;
    const app: AppContext = { sessionId };
    if (options.release) app.version = clip(options.release, 500);
    if (options.environment) app.environment = options.environment;
    if (options.releaseId) app.releaseId = clip(options.releaseId, 500);
    if (user?.id) app.userId = clip(user.id, 500);
    if (user?.email) app.userEmail = clip(user.email, 500);
    event.app = app;
    const where = locationProvider();
    if (where.url) event.url = clip(where.url, 4000);
    if (where.referrer) event.referrer = clip(where.referrer, 4000);
    const meta = { ...metadata, ...context.metadata };
    if (Object.keys(meta).length) event.metadata = toJsonSafe(meta) as Record<string, unknown>;
    return event;
  }

  async function send(event: ErrorEvent): Promise<CaptureResult | undefined> {
    const request = { method: 'POST', path: '/errors', body: event };
    try {
      const res = offline
        ? await offline.send<CaptureResult>(request, { keepalive: true })
        : await transport.request<CaptureResult>('POST', '/errors', { body: event, keepalive: isBrowser() });
      if (!res) return undefined; // kept for later
      stats.sent++;
      // The page's feedback widget (@signpost/feature-reporter) attaches the last report and the
      // release to a bug the user files; a plain global, so neither package imports the other.
      (globalThis as { __signpost?: Record<string, unknown> }).__signpost = {
        ...(globalThis as { __signpost?: Record<string, unknown> }).__signpost,
        lastErrorId: res.data.id,
        ...(options.release ? { release: options.release } : {}),
      };
      return { id: res.data.id, duplicate: !!res.data.duplicate };
    } catch (error) {
      stats.failed++;
      // While the API asks us to wait (429), reports are dropped and counted, not reported one by one.
      if (!(error instanceof SdkError && error.code === 'rate_limited')) report(error);
      return undefined;
    }
  }

  function capture(
    error: unknown,
    context: CaptureContext,
    mechanism: string,
    defaultSeverity: Severity = 'medium',
  ): Promise<CaptureResult | undefined> {
    try {
      stats.captured++;
      if (!enabled) return Promise.resolve(undefined);
      const n = normalise(error);
      if (matches(options.ignoreErrors, n.message) || matches(options.ignoreErrors, `${n.errorType}: ${n.message}`)) {
        stats.dropped++;
        return Promise.resolve(undefined);
      }
      if (mechanism !== 'captureMessage') track(session?.error(mechanism === 'captureException'));
      const top =
        n.stack
          ?.split('\n')
          .find((l) => /^\s+at |@/.test(l))
          ?.trim() ?? '';
      if (isDuplicate(`${n.errorType}\u0000${n.message}\u0000${top}`)) {
        stats.deduplicated++;
        return Promise.resolve(undefined);
      }
      if (sampleRate < 1 && !(Math.random() < sampleRate)) {
        stats.sampledOut++;
        return Promise.resolve(undefined);
      }
      let event: ErrorEvent | null | undefined = buildEvent(n, context, defaultSeverity);
      if (options.beforeSend) event = options.beforeSend(event, { originalError: error, mechanism });
      if (!event) {
        stats.dropped++;
        return Promise.resolve(undefined);
      }
      const pending = send(event);
      inFlight.add(pending);
      void pending.finally(() => inFlight.delete(pending));
      return pending;
    } catch (internalError) {
      report(internalError);
      return Promise.resolve(undefined);
    }
  }

  const internal: TrackerInternals = {
    capture: (error, context, mechanism) =>
      capture(error, context, mechanism, mechanism === 'captureException' ? 'medium' : 'high'),
    breadcrumbs,
    addCleanup: (fn) => cleanups.push(fn),
    setDeviceProvider: (fn) => (deviceProvider = fn),
    setNetworkProvider: (fn) => (networkProvider = fn),
    setLocationProvider: (fn) => (locationProvider = fn),
    report,
    baseUrl: transport.baseUrl,
  };

  return {
    captureException: (error, context = {}) => capture(error, context, 'captureException'),
    captureMessage: (message, severityOrContext) => {
      const context: CaptureContext =
        typeof severityOrContext === 'string' ? { severity: severityOrContext } : { ...severityOrContext };
      return capture(
        { name: context.errorType ?? 'Message', message: String(message) },
        { ...context, errorType: context.errorType ?? 'Message' },
        'captureMessage',
        'low',
      );
    },
    setUser: (next) => {
      user = next ? { ...next } : null;
    },
    addBreadcrumb: (crumb) => {
      try {
        const kept = options.beforeBreadcrumb ? options.beforeBreadcrumb(crumb) : crumb;
        if (kept) breadcrumbs.add(kept);
      } catch (error) {
        report(error);
      }
    },
    setMetadata: (key, value) => {
      metadata[key] = value;
    },
    addFeatureFlag: (flag, result) => flags.add(flag, result),
    flush: async () => {
      await Promise.all([...inFlight]).catch(() => undefined);
    },
    close: async () => {
      track(session?.end());
      for (const fn of cleanups.splice(0).reverse()) {
        try {
          fn();
        } catch (error) {
          report(error);
        }
      }
      await Promise.all([...inFlight]).catch(() => undefined);
      offline?.close();
    },
    get stats() {
      return stats;
    },
    internal,
  };
}
