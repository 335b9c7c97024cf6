import { unrefTimer } from './backoff.js';
import { onPageHide, onProcessExit, type Unsubscribe } from './lifecycle.js';
import { createReporter, type ErrorHandler } from './report.js';
import { KEEPALIVE_BUDGET_BYTES } from './transport.js';

export interface FlushOptions {
  /** Send with `keepalive` (the page is going away). Batches are cut to fit the keepalive budget. */
  keepalive?: boolean;
}

export interface BatcherOptions<T> {
  /** Sends one batch. A rejection is reported (never thrown to the app) and the batch is dropped. */
  send(items: T[], options: { keepalive: boolean }): Promise<unknown>;
  /** Items per batch; reaching it flushes at once. Default 100. */
  maxBatchSize?: number;
  /** Flush this long after the first unsent item arrived. Default 5000 ms. */
  flushIntervalMs?: number;
  /** Items held at most; beyond, the oldest are dropped and counted. Default 1000. */
  maxQueueSize?: number;
  /** Batches being sent at once; more wait in the queue (page-hide flushes send all at once). Default 2. */
  maxConcurrentSends?: number;
  /** Flush with `keepalive` when the page is hidden (`visibilitychange`/`pagehide`). Default true. */
  flushOnPageHide?: boolean;
  /** Flush on Node.js `beforeExit`. Default true. */
  flushOnExit?: boolean;
  /** Size of an item's JSON, for cutting keepalive batches. Default `JSON.stringify(item).length`. */
  sizeOf?: (item: T) => number;
  onError?: ErrorHandler;
}

export interface Batcher<T> {
  add(item: T): void;
  /** Sends everything queued; resolves when done. Never rejects. */
  flush(options?: FlushOptions): Promise<void>;
  /** Items waiting to be sent. */
  readonly size: number;
  /** Items dropped because the queue was full. */
  readonly dropped: number;
  /** Flushes and removes the timers and listeners. */
  close(): Promise<void>;
}

/** A generic batching queue: by size, by interval, on page hide and on process exit. */
export function createBatcher<T>(options: BatcherOptions<T>): Batcher<T> {
  const maxBatchSize = Math.max(1, options.maxBatchSize ?? 100);
  const flushIntervalMs = options.flushIntervalMs ?? 5000;
  const maxQueueSize = Math.max(maxBatchSize, options.maxQueueSize ?? 1000);
  const report = createReporter(options.onError);
  const sizeOf = options.sizeOf ?? ((item: T) => safeSize(item));
  const maxConcurrent = Math.max(1, options.maxConcurrentSends ?? 2);
  const queue: T[] = [];
  let dropped = 0;
  let active = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const waiters: (() => void)[] = [];
  const unsubscribers: Unsubscribe[] = [];
  if (options.flushOnPageHide !== false) unsubscribers.push(onPageHide(() => void flush({ keepalive: true })));
  if (options.flushOnExit !== false)
    unsubscribers.push(
      onProcessExit(() => {
        if (queue.length) void flush();
      }),
    );

  function schedule() {
    if (timer !== undefined || flushIntervalMs <= 0) return;
    timer = unrefTimer(
      setTimeout(() => {
        timer = undefined;
        void flush();
      }, flushIntervalMs),
    );
  }

  function takeBatch(keepalive: boolean): T[] {
    if (!keepalive) return queue.splice(0, maxBatchSize);
    const budget = KEEPALIVE_BUDGET_BYTES - 1024;
    let bytes = 0;
    let count = 0;
    while (count < queue.length && count < maxBatchSize) {
      const next = sizeOf(queue[count]!) + 1;
      if (count > 0 && bytes + next > budget) break;
      bytes += next;
      count++;
    }
    return queue.splice(0, count);
  }

  function settle() {
    if (active === 0 && queue.length === 0) for (const resolve of waiters.splice(0)) resolve();
  }

  /**
   * Starts sends: full batches always, a last partial one when a flush is waiting. At most
   * `maxConcurrent` at once, except when the page is going away (keepalive): then everything goes now.
   */
  function pump(keepalive: boolean) {
    while (
      queue.length &&
      (keepalive || active < maxConcurrent) &&
      (queue.length >= maxBatchSize || waiters.length > 0 || keepalive)
    ) {
      const batch = takeBatch(keepalive);
      active++;
      Promise.resolve()
        .then(() => options.send(batch, { keepalive }))
        .then(undefined, report)
        .then(() => {
          active--;
          pump(false);
          settle();
        });
    }
    settle();
  }

  function flush(flushOptions: FlushOptions = {}): Promise<void> {
    if (timer !== undefined) {
      clearTimeout(timer);
      timer = undefined;
    }
    const done = new Promise<void>((resolve) => waiters.push(resolve));
    pump(!!flushOptions.keepalive);
    return done;
  }

  return {
    add(item: T) {
      queue.push(item);
      if (queue.length > maxQueueSize) {
        const excess = queue.length - maxQueueSize;
        queue.splice(0, excess);
        dropped += excess;
      }
      if (queue.length >= maxBatchSize) pump(false);
      if (queue.length) schedule();
    },
    flush,
    get size() {
      return queue.length;
    },
    get dropped() {
      return dropped;
    },
    async close() {
      for (const unsubscribe of unsubscribers.splice(0)) unsubscribe();
      await flush();
    },
  };
}

function safeSize(item: unknown): number {
  try {
    return JSON.stringify(item)?.length ?? 0;
  } catch {
    return 0;
  }
}
