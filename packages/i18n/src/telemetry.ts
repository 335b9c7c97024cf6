import { createBatcher, type Transport } from '@signpost/sdk-core';

/** The API takes at most this many keys per POST /i18n-telemetry. */
export const MAX_KEYS_PER_REPORT = 100;

export interface MissingKeyReporter {
  /** Queues `key` for `locale` unless it was already reported in this session. */
  report(locale: string, key: string): void;
  flush(): Promise<void>;
  close(): Promise<void>;
  /** Keys sent (or queued) so far. */
  readonly reported: number;
}

/**
 * Batched, de-duplicated reporting of missing keys: each (locale, key) once per session; batches
 * by interval, at 100 keys, and with `keepalive` when the page is hidden; one request per locale
 * and at most 100 keys each. Failures go to `onError`, never to the app.
 */
export function createMissingKeyReporter(
  transport: Transport,
  options: { flushIntervalMs?: number; maxTracked?: number } = {},
): MissingKeyReporter {
  const seen = new Set<string>();
  const maxTracked = options.maxTracked ?? 10_000;
  const batcher = createBatcher<{ locale: string; key: string }>({
    maxBatchSize: MAX_KEYS_PER_REPORT,
    flushIntervalMs: options.flushIntervalMs ?? 2000,
    onError: transport.report,
    async send(items, { keepalive }) {
      const byLocale = new Map<string, string[]>();
      for (const { locale, key } of items) {
        const keys = byLocale.get(locale) ?? [];
        keys.push(key);
        byLocale.set(locale, keys);
      }
      await Promise.all(
        [...byLocale].map(([locale, missingKeys]) =>
          transport.request('POST', '/i18n-telemetry', { body: { locale, missingKeys }, keepalive }),
        ),
      );
    },
  });
  return {
    report(locale, key) {
      const id = `${locale}\u0000${key}`;
      if (seen.has(id) || seen.size >= maxTracked || !key || key.length > 200) return;
      seen.add(id);
      batcher.add({ locale, key });
    },
    flush: () => batcher.flush(),
    close: () => batcher.close(),
    get reported() {
      return seen.size;
    },
  };
}
