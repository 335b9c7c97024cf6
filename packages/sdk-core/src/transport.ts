import { backoffDelay, parseRetryAfter, sleep } from './backoff.js';
import { ApiError, SdkError, type ApiErrorBody } from './errors.js';
import { createReporter, type ErrorHandler } from './report.js';

/** The public API of a local Signpost server; pass your own server's `<origin>/api/public/v1`. */
export const DEFAULT_BASE_URL = 'http://localhost:3000/api/public/v1';

/** The fetch spec lets keepalive bodies in flight add up to 64 KiB; stay under it. */
export const KEEPALIVE_BUDGET_BYTES = 64_000;
const KEEPALIVE_MAX_IN_FLIGHT = 15;

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

export interface TransportOptions {
  /** A project API key (`svc_live_…` or `svc_test_…`), sent as `X-API-Key`. Optional for keyless reads. */
  apiKey?: string;
  /** The public API base URL. Default `http://localhost:3000/api/public/v1`. */
  baseUrl?: string;
  /** Per attempt. Default 10 000 ms. */
  timeoutMs?: number;
  /** Retries after the first attempt, on network errors, timeouts, 429 and 5xx. Default 3. */
  maxRetries?: number;
  /** First backoff step; delays grow as `retryBaseMs * 2^attempt` with full jitter. Default 500 ms. */
  retryBaseMs?: number;
  /** Upper bound of one backoff delay. Default 30 000 ms. */
  retryMaxMs?: number;
  /**
   * A 429 whose `Retry-After` asks for longer than this is not retried: the transport stays
   * rate-limited until then and drops new requests (counting them). Default 60 000 ms.
   */
  maxRetryAfterMs?: number;
  /** Wait after a 429 without `Retry-After`. Default 60 000 ms. */
  defaultRateLimitMs?: number;
  /** Your own `fetch` (tests, proxies, old runtimes). Default `globalThis.fetch`. */
  fetch?: FetchLike;
  /** Receives SDK failures that have nowhere else to go. Default: `console.warn`. */
  onError?: ErrorHandler;
}

export interface RequestOptions {
  /** Query parameters; `undefined` values are left out. */
  query?: Record<string, string | number | boolean | undefined>;
  /** Sent as JSON. */
  body?: unknown;
  headers?: Record<string, string>;
  /** Ask for `fetch(…, { keepalive: true })`, honoured while the 64 KB budget allows. */
  keepalive?: boolean;
  /** Sent as `If-None-Match`; a 304 answer resolves with `status: 304` and no data. */
  etag?: string;
  /** Cancels the request and its retries. */
  signal?: AbortSignal;
  /** Set `false` to send once, without retries. */
  retry?: boolean;
}

export interface TransportResponse<T> {
  status: number;
  headers: Headers;
  /** Parsed JSON (or text) body; `undefined` for 204/304. */
  data: T;
}

export interface TransportStats {
  /** Requests refused locally because the API asked us to wait (429). */
  droppedWhileRateLimited: number;
  /** Epoch milliseconds until which requests are refused, or 0. */
  rateLimitedUntil: number;
}

export interface Transport {
  readonly baseUrl: string;
  /** Sends one request with timeouts and retries. Rejects with `ApiError` or `SdkError`. */
  request<T = unknown>(method: string, path: string, options?: RequestOptions): Promise<TransportResponse<T>>;
  /** Whether requests are currently being dropped because of a 429. */
  isRateLimited(): boolean;
  readonly stats: TransportStats;
  /** The safe reporting path: the app's `onError`, else the console. Never throws. */
  readonly report: ErrorHandler;
}

/** Creates the one transport every Signpost SDK talks through. */
export function createTransport(options: TransportOptions = {}): Transport {
  const baseUrl = (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? 10_000;
  const maxRetries = Math.max(0, options.maxRetries ?? 3);
  const retryBaseMs = options.retryBaseMs ?? 500;
  const retryMaxMs = options.retryMaxMs ?? 30_000;
  const maxRetryAfterMs = options.maxRetryAfterMs ?? 60_000;
  const defaultRateLimitMs = options.defaultRateLimitMs ?? 60_000;
  const report = createReporter(options.onError);
  const stats: TransportStats = { droppedWhileRateLimited: 0, rateLimitedUntil: 0 };
  let keepaliveBytes = 0;
  let keepaliveCount = 0;

  const doFetch: FetchLike = (input, init) => {
    const f = options.fetch ?? (typeof fetch === 'function' ? fetch : undefined);
    if (!f) throw new SdkError('invalid_options', 'No fetch available: pass `fetch` in the options');
    return f(input, init);
  };

  function buildUrl(path: string, query?: RequestOptions['query']): string {
    let url = baseUrl + (path.startsWith('/') ? path : `/${path}`);
    if (query) {
      const params = new URLSearchParams();
      for (const [key, value] of Object.entries(query)) if (value !== undefined) params.append(key, String(value));
      const text = params.toString();
      if (text) url += (url.includes('?') ? '&' : '?') + text;
    }
    return url;
  }

  async function attempt<T>(
    method: string,
    url: string,
    body: string | undefined,
    opts: RequestOptions,
  ): Promise<TransportResponse<T>> {
    const headers: Record<string, string> = { Accept: 'application/json', ...opts.headers };
    if (options.apiKey) headers['X-API-Key'] = options.apiKey;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (opts.etag) headers['If-None-Match'] = opts.etag;

    const bytes = body === undefined ? 0 : byteLength(body);
    const keepalive =
      !!opts.keepalive && keepaliveCount < KEEPALIVE_MAX_IN_FLIGHT && keepaliveBytes + bytes <= KEEPALIVE_BUDGET_BYTES;
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const onAbort = () => controller.abort();
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    if (keepalive) {
      keepaliveBytes += bytes;
      keepaliveCount++;
    }
    let response: Response;
    try {
      response = await doFetch(url, { method, headers, body, keepalive, signal: controller.signal });
    } catch (error) {
      if (error instanceof SdkError) throw error;
      if (timedOut)
        throw new SdkError('timeout', `No answer from ${method} ${url} within ${timeoutMs} ms`, { cause: error });
      if (opts.signal?.aborted) throw new SdkError('aborted', `${method} ${url} was aborted`, { cause: error });
      throw new SdkError('network_error', `Could not reach ${method} ${url}`, { cause: error });
    } finally {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      if (keepalive) {
        keepaliveBytes -= bytes;
        keepaliveCount--;
      }
    }

    let data: unknown;
    if (response.status !== 204 && response.status !== 304) {
      let text: string;
      try {
        text = await response.text();
      } catch (error) {
        throw new SdkError(timedOut ? 'timeout' : 'network_error', `Reading the answer of ${method} ${url} failed`, {
          cause: error,
        });
      }
      const type = response.headers.get('content-type') ?? '';
      if (text !== '' && type.includes('json')) {
        try {
          data = JSON.parse(text);
        } catch (error) {
          if (response.ok)
            throw new SdkError('invalid_response', `${method} ${url} answered invalid JSON`, { cause: error });
          data = { error: text };
        }
      } else {
        data = text === '' ? undefined : text;
      }
    }

    if (response.ok || response.status === 304)
      return { status: response.status, headers: response.headers, data: data as T };
    const errorBody: ApiErrorBody =
      data && typeof data === 'object' && typeof (data as ApiErrorBody).error === 'string'
        ? (data as ApiErrorBody)
        : { error: typeof data === 'string' && data ? data : response.statusText || `HTTP ${response.status}` };
    const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
    throw new ApiError(response.status, errorBody, {
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
      ...(response.headers.get('x-request-id') ? { requestId: response.headers.get('x-request-id')! } : {}),
    });
  }

  async function request<T>(method: string, path: string, opts: RequestOptions = {}): Promise<TransportResponse<T>> {
    const url = buildUrl(path, opts.query);
    if (isRateLimited()) {
      stats.droppedWhileRateLimited++;
      throw new SdkError(
        'rate_limited',
        `Rate limited by the Signpost API for ${Math.ceil((stats.rateLimitedUntil - Date.now()) / 1000)} s more; request dropped`,
      );
    }
    let body: string | undefined;
    if (opts.body !== undefined) {
      try {
        body = JSON.stringify(opts.body);
      } catch (error) {
        throw new SdkError('invalid_options', 'The request body cannot be serialised as JSON', { cause: error });
      }
    }
    const retries = opts.retry === false ? 0 : maxRetries;
    for (let n = 0; ; n++) {
      try {
        return await attempt<T>(method, url, body, opts);
      } catch (error) {
        let delay: number;
        if (error instanceof ApiError && error.status === 429) {
          const wait = error.retryAfterMs ?? defaultRateLimitMs;
          if (n >= retries || wait > maxRetryAfterMs) {
            stats.rateLimitedUntil = Math.max(stats.rateLimitedUntil, Date.now() + wait);
            throw error;
          }
          delay = wait;
        } else if (
          (error instanceof ApiError && error.status >= 500) ||
          (error instanceof SdkError && (error.code === 'network_error' || error.code === 'timeout'))
        ) {
          if (n >= retries) throw error;
          const asked = error instanceof ApiError ? error.retryAfterMs : undefined;
          delay = asked !== undefined && asked <= maxRetryAfterMs ? asked : backoffDelay(n, retryBaseMs, retryMaxMs);
        } else {
          throw error;
        }
        try {
          await sleep(delay, opts.signal);
        } catch (abortError) {
          throw new SdkError('aborted', `${method} ${url} was aborted`, { cause: abortError });
        }
      }
    }
  }

  function isRateLimited(): boolean {
    return stats.rateLimitedUntil > Date.now();
  }

  return { baseUrl, request, isRateLimited, stats, report };
}

function byteLength(text: string): number {
  if (typeof TextEncoder !== 'undefined') return new TextEncoder().encode(text).length;
  return text.length * 3;
}

/** The transport settings an SDK's own options carry: a shared transport, or what to build one from. */
export interface SdkTransportOptions {
  apiKey?: string;
  baseUrl?: string;
  timeoutMs?: number;
  maxRetries?: number;
  fetch?: FetchLike;
  /** Share one transport between SDKs (overrides apiKey, baseUrl, timeoutMs, maxRetries, fetch). */
  transport?: Transport;
}

/** The shared transport when the SDK was given one, else a new one built from its settings. */
export function transportFor(options: SdkTransportOptions, onError: ErrorHandler): Transport {
  return (
    options.transport ??
    createTransport({
      apiKey: options.apiKey,
      baseUrl: options.baseUrl,
      timeoutMs: options.timeoutMs,
      maxRetries: options.maxRetries,
      fetch: options.fetch,
      onError,
    })
  );
}
