import { SdkError, type StorageLike, type Transport } from '@signpost/sdk-core';
import { isValidLocale, isValidNamespace } from './validate.js';

/** GET /translations. */
export interface TranslationSet {
  translations: Record<string, string>;
  hash: string;
  locale: string;
}

interface Entry {
  hash: string;
  translations: Record<string, string>;
}

/**
 * Loads translation sets with ETag caching: each (locale, namespace) keeps its hash, sent back as
 * `If-None-Match`; a 304 reuses the cached set. With `storage`, the cache survives page loads.
 */
export function createLoader(transport: Transport, storage?: StorageLike | null) {
  const memory = new Map<string, Entry>();
  const prefix = 'signpost.i18n.';

  function cacheKey(locale: string, namespace: string | undefined) {
    return `${locale}\u0000${namespace ?? ''}`;
  }

  function restore(key: string): Entry | undefined {
    try {
      const text = storage?.getItem(prefix + key);
      const entry = text ? (JSON.parse(text) as Entry) : undefined;
      return entry && typeof entry.hash === 'string' && entry.translations ? entry : undefined;
    } catch {
      return undefined;
    }
  }

  /** Returns the translations, from the network or (304) the cache. `retry: false` sends once. */
  async function load(
    locale: string,
    namespace?: string,
    options: { retry?: boolean } = {},
  ): Promise<Record<string, string>> {
    if (!isValidLocale(locale)) throw new SdkError('invalid_options', `Not a locale: ${JSON.stringify(locale)}`);
    if (namespace !== undefined && !isValidNamespace(namespace))
      throw new SdkError('invalid_options', `Not a namespace: ${JSON.stringify(namespace)}`);
    const key = cacheKey(locale, namespace);
    const cached = memory.get(key) ?? restore(key);
    const response = await transport.request<TranslationSet>('GET', '/translations', {
      query: { locale, namespace },
      ...(cached ? { etag: `"${cached.hash}"` } : {}),
      ...(options.retry === false ? { retry: false } : {}),
    });
    if (response.status === 304 && cached) {
      memory.set(key, cached);
      return cached.translations;
    }
    const entry: Entry = { hash: response.data.hash, translations: response.data.translations };
    memory.set(key, entry);
    try {
      storage?.setItem(prefix + key, JSON.stringify(entry));
    } catch {
      // Storage full or blocked: the memory cache still works.
    }
    return entry.translations;
  }

  /** The last loaded set, if any, without a request. */
  function peek(locale: string, namespace?: string): Record<string, string> | undefined {
    const key = cacheKey(locale, namespace);
    return (memory.get(key) ?? restore(key))?.translations;
  }

  return { load, peek };
}

export type Loader = ReturnType<typeof createLoader>;
