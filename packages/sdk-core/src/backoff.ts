/**
 * Exponential backoff with full jitter: a random delay between 0 and
 * `min(maxMs, baseMs * 2^attempt)`. `attempt` starts at 0.
 */
export function backoffDelay(
  attempt: number,
  baseMs = 500,
  maxMs = 30_000,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt));
  return Math.floor(random() * ceiling);
}

/**
 * Parses a `Retry-After` header (delay in seconds, or an HTTP date) into milliseconds from `now`.
 * Returns `undefined` when the header is missing or unreadable.
 */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | undefined {
  if (value == null) return undefined;
  const text = value.trim();
  if (text === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.ceil(Number(text) * 1000);
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/** Calls `unref()` on a Node.js timer so it never keeps the process alive; a no-op in browsers. */
export function unrefTimer<T>(timer: T): T {
  const maybe = timer as unknown as { unref?: () => void };
  if (maybe && typeof maybe.unref === 'function') maybe.unref();
  return timer;
}

/** Resolves after `ms`; rejects early with the signal's reason when it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
