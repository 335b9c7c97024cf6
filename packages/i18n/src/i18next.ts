/**
 * `@signpost/i18n/i18next`: an i18next backend that loads translations from Signpost (with ETag
 * caching) and, with `saveMissing`, reports missing keys to POST /i18n-telemetry. `i18next` is an
 * optional peer dependency.
 *
 * ```js
 * i18next.use(SignpostBackend).init({
 *   lng: 'de', fallbackLng: 'en', saveMissing: true,
 *   interpolation: { prefix: '{', suffix: '}' },      // Signpost texts use {name}
 *   backend: { apiKey: 'svc_live_…', baseUrl: 'https://signpost.example.com/api/public/v1' },
 * });
 * ```
 *
 * Note: i18next's `missingKeyHandler` option replaces the backend's `create`; with it set, nothing
 * is reported to Signpost unless your handler calls `backend.create(...)` itself.
 */
import { ApiError, SdkError, createTransport, type StorageLike, type TransportOptions } from '@signpost/sdk-core';
import { createLoader, type Loader } from './loader.js';
import { createMissingKeyReporter, type MissingKeyReporter } from './telemetry.js';
import { isValidLocale, isValidNamespace } from './validate.js';

export interface SignpostBackendOptions extends Omit<TransportOptions, 'apiKey'> {
  /** A key with `public:read`. */
  apiKey: string;
  /** The i18next namespace that loads every key of the project. Default `translation` (i18next's default). Other namespaces load that Signpost namespace. */
  allNamespace?: string;
  /**
   * Report missing keys (`saveMissing`): `true` always, `false` never, `'development'` (default)
   * only on localhost or when `NODE_ENV` is not `production`, so production reporting is a choice.
   */
  reportMissing?: boolean | 'development';
  /** How long missing keys are gathered before a report. Default 2000 ms. */
  reportIntervalMs?: number;
  /** Keep loaded sets and hashes across page loads (e.g. `localStorage`). */
  cache?: StorageLike | null;
}

type ReadCallback = (error: unknown, data: Record<string, string> | boolean | null) => void;

/** Whether i18next should try a failed read again: only server faults and network trouble. */
function retryable(error: unknown): boolean {
  return (
    (error instanceof ApiError && error.status >= 500) ||
    (error instanceof SdkError && (error.code === 'network_error' || error.code === 'timeout'))
  );
}

function isDevelopment(): boolean {
  const host = (globalThis as { location?: { hostname?: string } }).location?.hostname;
  if (host !== undefined)
    return host === 'localhost' || host === '127.0.0.1' || host === '[::1]' || host.endsWith('.localhost');
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  return env?.['NODE_ENV'] !== 'production';
}

export class SignpostBackend {
  static readonly type = 'backend' as const;
  readonly type = 'backend' as const;
  private options: SignpostBackendOptions | undefined;
  private loader: Loader | undefined;
  private reporter: MissingKeyReporter | undefined;

  /** i18next constructs the backend without arguments; direct use may pass options here. */
  constructor(_services?: unknown, options?: SignpostBackendOptions) {
    if (options) this.init(undefined, options);
  }

  init(_services: unknown, options: SignpostBackendOptions, _i18nextOptions?: unknown): void {
    this.options = options;
    const { allNamespace: _a, reportMissing: _r, reportIntervalMs, cache, ...transportOptions } = options;
    const transport = createTransport(transportOptions);
    this.loader = createLoader(transport, cache);
    this.reporter = createMissingKeyReporter(
      transport,
      reportIntervalMs !== undefined ? { flushIntervalMs: reportIntervalMs } : {},
    );
  }

  /**
   * Loads one language and namespace. With a callback (how i18next calls it), a failure on a
   * 5xx or network error asks i18next to retry; without, returns a promise.
   */
  read(language: string, namespace: string, callback: ReadCallback): void;
  read(language: string, namespace: string): Promise<Record<string, string>>;
  // biome-ignore lint/suspicious/noConfusingVoidType: i18next's backend contract: a promise, or nothing when the callback is used
  read(language: string, namespace: string, callback?: ReadCallback): Promise<Record<string, string>> | void {
    const promise = this.fetch(language, namespace, !callback);
    if (!callback) return promise;
    promise.then(
      (data) => callback(null, data),
      (error: unknown) => callback(error, retryable(error)),
    );
  }

  /** i18next calls this for missing keys when `saveMissing` is on; batched and de-duplicated. */
  create(languages: readonly string[] | string, _namespace: string, key: string, _fallbackValue?: string): void {
    if (!this.reporter || !this.reportsMissing()) return;
    for (const language of typeof languages === 'string' ? [languages] : languages) {
      if (isValidLocale(language)) this.reporter.report(language, key);
    }
  }

  /** Sends queued missing-key reports now. */
  flush(): Promise<void> {
    return this.reporter?.flush() ?? Promise.resolve();
  }

  private reportsMissing(): boolean {
    const setting = this.options?.reportMissing ?? 'development';
    return setting === 'development' ? isDevelopment() : setting;
  }

  private async fetch(language: string, namespace: string, retry: boolean): Promise<Record<string, string>> {
    if (!this.loader)
      throw new SdkError(
        'invalid_options',
        'SignpostBackend: init() was not called (pass `backend` options to i18next.init)',
      );
    if (language === 'cimode') return {};
    if (!isValidLocale(language))
      throw new SdkError('invalid_options', `SignpostBackend: not a language: ${JSON.stringify(language)}`);
    if (!isValidNamespace(namespace))
      throw new SdkError('invalid_options', `SignpostBackend: not a namespace: ${JSON.stringify(namespace)}`);
    const all = namespace === (this.options?.allNamespace ?? 'translation');
    return this.loader.load(language, all ? undefined : namespace, { retry });
  }
}
