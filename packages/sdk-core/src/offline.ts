import { unrefTimer } from './backoff.js';
import { ApiError, SdkError } from './errors.js';
import { onOnline, type Unsubscribe } from './lifecycle.js';
import type { RequestOptions, Transport, TransportResponse } from './transport.js';

/** A request kept for later: what `transport.request` needs to send it again. */
export interface QueuedRequest {
  method: string;
  path: string;
  body?: unknown;
  query?: RequestOptions['query'];
}

/** The part of the Web Storage API the offline queue uses (`localStorage` fits). */
export interface StorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export interface OfflineQueueOptions {
  transport: Transport;
  /** Storage key, one per SDK, e.g. `signpost:error-tracker:queue`. */
  storageKey: string;
  /** Requests kept at most; the oldest are dropped beyond. Default 30. */
  maxItems?: number;
  /** First retry delay, doubling after each failed replay. Default 5000 ms. */
  minDelayMs?: number;
  /** Longest retry delay. Default 3 600 000 ms (1 hour). */
  maxDelayMs?: number;
  /** Where requests survive a reload. Default `localStorage` when usable, else memory. */
  storage?: StorageLike | null;
}

export interface OfflineQueue {
  /**
   * Sends now; if the API cannot be reached (network error, timeout, 5xx) the request is kept and
   * replayed later, and this resolves with `undefined`. Rejects on other errors (4xx, 429).
   */
  send<T = unknown>(
    request: QueuedRequest,
    options?: Pick<RequestOptions, 'keepalive'>,
  ): Promise<TransportResponse<T> | undefined>;
  /** Keeps a request for later. */
  enqueue(request: QueuedRequest): void;
  /** Sends what is kept, oldest first; stops at the first failure and backs off. */
  replay(): Promise<void>;
  readonly size: number;
  /** Requests dropped because the queue was full or the API refused them on replay. */
  readonly dropped: number;
  /** Stops timers and listeners; kept requests stay in storage. */
  close(): void;
}

function isOfflineError(error: unknown): boolean {
  if (error instanceof ApiError) return error.status >= 500;
  return error instanceof SdkError && (error.code === 'network_error' || error.code === 'timeout');
}

function defaultStorage(): StorageLike | null {
  try {
    const storage = (globalThis as { localStorage?: StorageLike }).localStorage;
    if (!storage) return null;
    const probe = '__signpost_probe__';
    storage.setItem(probe, '1');
    storage.removeItem(probe);
    return storage;
  } catch {
    return null;
  }
}

/**
 * A bounded queue of requests that could not be sent, replayed with backoff (5 s doubling to
 * 1 h) and at once when the browser comes back online.
 */
export function createOfflineQueue(options: OfflineQueueOptions): OfflineQueue {
  const { transport, storageKey } = options;
  const maxItems = Math.max(1, options.maxItems ?? 30);
  const minDelayMs = options.minDelayMs ?? 5000;
  const maxDelayMs = options.maxDelayMs ?? 3_600_000;
  const storage = options.storage === undefined ? defaultStorage() : options.storage;
  let memory: QueuedRequest[] = [];
  let dropped = 0;
  let delay = minDelayMs;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let replaying: Promise<void> | undefined;
  let followUp: Promise<void> | undefined;
  let closed = false;

  function load(): QueuedRequest[] {
    if (!storage) return memory;
    try {
      const parsed: unknown = JSON.parse(storage.getItem(storageKey) ?? '[]');
      return Array.isArray(parsed) ? (parsed as QueuedRequest[]) : [];
    } catch {
      return [];
    }
  }

  function save(items: QueuedRequest[]) {
    if (!storage) {
      memory = items;
      return;
    }
    try {
      if (items.length) storage.setItem(storageKey, JSON.stringify(items));
      else storage.removeItem(storageKey);
    } catch (error) {
      memory = items;
      transport.report(error);
    }
  }

  function schedule(ms: number) {
    if (closed || timer !== undefined) return;
    timer = unrefTimer(
      setTimeout(() => {
        timer = undefined;
        void replay();
      }, ms),
    );
  }

  function enqueue(request: QueuedRequest) {
    const items = load();
    items.push({ method: request.method, path: request.path, body: request.body, query: request.query });
    if (items.length > maxItems) dropped += items.splice(0, items.length - maxItems).length;
    save(items);
    schedule(delay);
  }

  async function replayOnce(): Promise<void> {
    for (;;) {
      const items = load();
      const next = items[0];
      if (!next) {
        delay = minDelayMs;
        return;
      }
      try {
        await transport.request(next.method, next.path, { body: next.body, query: next.query, retry: false });
      } catch (error) {
        if (
          isOfflineError(error) ||
          (error instanceof SdkError && error.code === 'rate_limited') ||
          (error instanceof ApiError && error.status === 429)
        ) {
          schedule(delay);
          delay = Math.min(maxDelayMs, delay * 2);
          return;
        }
        dropped++;
        transport.report(error);
      }
      // Drop what was sent (or refused for good); storage may have changed meanwhile.
      const current = load();
      if (current.length && JSON.stringify(current[0]) === JSON.stringify(next)) current.shift();
      save(current);
    }
  }

  function replay(): Promise<void> {
    if (timer !== undefined) {
      clearTimeout(timer);
      timer = undefined;
    }
    if (!replaying) {
      replaying = replayOnce().finally(() => (replaying = undefined));
      return replaying;
    }
    // A pass is under way, and may have begun while the API could not be reached (a timer's
    // pass, when the browser comes back online): one more pass follows it, so this call is not
    // answered by an attempt that started before it and fails.
    followUp ??= replaying.then(() => {
      followUp = undefined;
      return replay();
    });
    return followUp;
  }

  const unsubscribe: Unsubscribe = onOnline(() => {
    delay = minDelayMs;
    void replay();
  });
  if (load().length) schedule(Math.min(1000, minDelayMs));

  return {
    async send<T>(request: QueuedRequest, sendOptions: Pick<RequestOptions, 'keepalive'> = {}) {
      try {
        return await transport.request<T>(request.method, request.path, {
          body: request.body,
          query: request.query,
          keepalive: sendOptions.keepalive,
        });
      } catch (error) {
        if (!isOfflineError(error)) throw error;
        enqueue(request);
        return undefined;
      }
    },
    enqueue,
    replay,
    get size() {
      return load().length;
    },
    get dropped() {
      return dropped;
    },
    close() {
      closed = true;
      unsubscribe();
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
    },
  };
}
