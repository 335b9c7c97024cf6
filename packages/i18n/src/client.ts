import { createTransport, type StorageLike, type TransportOptions, type Unsubscribe } from '@signpost/sdk-core';
import { interpolate, pluralKeys, type TranslationValues } from './format.js';
import { createLoader } from './loader.js';
import { createMissingKeyReporter } from './telemetry.js';

export interface I18nOptions extends Omit<TransportOptions, 'apiKey'> {
  /** A key with `public:read`. */
  apiKey: string;
  /** The locale to load and use first (BCP 47, e.g. `de-AT`). */
  locale: string;
  /** Also loaded; used for keys the current locale lacks. */
  fallbackLocale?: string;
  /** Load only these namespaces (lazy bundles); default: every key of the project. */
  namespaces?: string[];
  /** Keep loaded sets and their hashes across page loads (e.g. `localStorage`); reloads become 304s. */
  cache?: StorageLike | null;
  /** Report keys that are missing at runtime to POST /i18n-telemetry. Default true (only without `namespaces`). */
  reportMissing?: boolean;
  /** How long missing keys are gathered before a report. Default 2000 ms. */
  reportIntervalMs?: number;
  /** Called for every missing key (each time), e.g. to log in development. */
  onMissingKey?: (key: string, locale: string) => void;
}

export interface TranslateOptions {
  /** Used when the key is missing everywhere (else the key itself is returned). */
  defaultValue?: string;
  /** Translate into this locale instead of the current one (it must be loaded). */
  locale?: string;
}

export interface I18n {
  /** Settles (never rejects) once the first locale (and the fallback) loaded or failed. */
  readonly ready: Promise<void>;
  readonly locale: string;
  /** True once the first load settled. */
  readonly isReady: boolean;
  /** Goes up by one with every `change` event (a snapshot for UI bindings). */
  readonly revision: number;
  /**
   * Translates `key`: the current locale, then `fallbackLocale`, then `defaultValue`, then the key.
   * `{name}` placeholders are filled from `values`; `values.count` picks the plural form through
   * `Intl.PluralRules` (`key_one`, `key_few`, `key_other`…, and `key_zero` for 0 when present).
   */
  t(key: string, values?: TranslationValues, options?: TranslateOptions): string;
  /** Whether the key exists in the current locale (or the fallback). */
  exists(key: string): boolean;
  /** Loads `locale` (if needed) and switches to it; emits `change`. Never rejects; failures go to `onError`. */
  setLocale(locale: string): Promise<void>;
  /** Loads (or revalidates with If-None-Match) a locale's sets; rejects with `ApiError`/`SdkError`. */
  load(locale: string, namespaces?: string[]): Promise<void>;
  /** Loads more namespaces for the current locale (and the fallback). */
  loadNamespaces(namespaces: string[]): Promise<void>;
  /** `change`: the first load settled, the locale switched or new translations arrived. */
  on(event: 'change', listener: (locale: string) => void): Unsubscribe;
  /** Sends the queued missing-key reports now. */
  flush(): Promise<void>;
  /** Flushes and stops reporting. */
  close(): Promise<void>;
}

/** Creates the translator and starts loading `locale` (and `fallbackLocale`). */
export function createI18n(options: I18nOptions): I18n {
  const {
    locale: initialLocale,
    fallbackLocale,
    namespaces: initialNamespaces,
    cache,
    reportMissing = true,
    reportIntervalMs,
    onMissingKey,
    ...transportOptions
  } = options;
  const transport = createTransport(transportOptions);
  const loader = createLoader(transport, cache);
  const reporter = createMissingKeyReporter(
    transport,
    reportIntervalMs !== undefined ? { flushIntervalMs: reportIntervalMs } : {},
  );
  /** Merged translations per locale, over every namespace loaded. */
  const bundles = new Map<string, Record<string, string>>();
  const loaded = new Set<string>();
  const namespaces = new Set(initialNamespaces ?? []);
  const listeners = new Set<(locale: string) => void>();
  let locale = initialLocale;
  let revision = 0;
  let isReady = false;

  function emit() {
    revision++;
    for (const listener of [...listeners]) {
      try {
        listener(locale);
      } catch (error) {
        transport.report(error);
      }
    }
  }

  async function load(target: string, only?: string[]) {
    const list = only ?? (namespaces.size ? [...namespaces] : [undefined]);
    const sets = await Promise.all(list.map((ns) => loader.load(target, ns)));
    const bundle = { ...bundles.get(target) };
    for (const set of sets) Object.assign(bundle, set);
    bundles.set(target, bundle);
    loaded.add(target);
  }

  async function loadSafely(targets: string[], only?: string[]) {
    await Promise.all(targets.map((target) => load(target, only).catch(transport.report)));
  }

  const locales = () => [...new Set([locale, ...(fallbackLocale ? [fallbackLocale] : [])])];

  function lookup(target: string, keys: string[]): string | undefined {
    const bundle = bundles.get(target);
    if (!bundle) return undefined;
    for (const key of keys) {
      if (Object.hasOwn(bundle, key)) return bundle[key];
    }
    return undefined;
  }

  const ready = loadSafely(locales()).then(() => {
    isReady = true;
    emit();
  });

  return {
    ready,
    get locale() {
      return locale;
    },
    get isReady() {
      return isReady;
    },
    get revision() {
      return revision;
    },
    t(key, values, translateOptions = {}) {
      const target = translateOptions.locale ?? locale;
      const keys = pluralKeys(key, target, values?.count);
      let text = lookup(target, keys);
      if (text === undefined) {
        // Only a fully loaded project proves a key missing: with `namespaces`, it may live in one not loaded.
        if (loaded.has(target) && namespaces.size === 0) {
          if (reportMissing) reporter.report(target, key);
          onMissingKey?.(key, target);
        }
        if (fallbackLocale && fallbackLocale !== target)
          text = lookup(fallbackLocale, pluralKeys(key, fallbackLocale, values?.count));
      }
      return interpolate(text ?? translateOptions.defaultValue ?? key, values, target);
    },
    exists(key) {
      return locales().some((l) => lookup(l, [key]) !== undefined);
    },
    async setLocale(next) {
      if (!loaded.has(next)) await loadSafely([next]);
      locale = next;
      emit();
    },
    async load(target, only) {
      await load(target, only);
      if (target === locale || target === fallbackLocale) emit();
    },
    async loadNamespaces(more) {
      for (const ns of more) namespaces.add(ns);
      await loadSafely(locales(), more);
      emit();
    },
    on(_event, listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    flush: () => reporter.flush(),
    close: () => reporter.close(),
  };
}
