import { clip } from '@signpost/sdk-core';
import { describeElement } from './breadcrumbs.js';
import type { ErrorTracker } from './client.js';
import { browserDevice, browserNetwork } from './context.js';

/** Which automatic breadcrumbs to record (all on by default). */
export interface BreadcrumbOptions {
  /** Clicks, as a short selector; never the element's text or value. */
  clicks?: boolean;
  /** Typing in inputs, as the input's selector; never its value. Debounced per field. */
  inputs?: boolean;
  /** History navigation (`pushState`, `replaceState`, `popstate`). */
  navigation?: boolean;
  /** `fetch` calls: method, URL without query, status, duration. */
  fetch?: boolean;
  /** `XMLHttpRequest` calls: method, URL without query, status, duration. */
  xhr?: boolean;
  /** `console.log/info/warn/error/debug` lines. */
  console?: boolean;
}

type AnyFn = (...args: any[]) => any;

/** Replaces `obj[name]` with a wrapper; the returned function puts the original back if still ours. */
function wrap<T extends object>(obj: T, name: keyof T & string, make: (original: AnyFn) => AnyFn): () => void {
  const original = obj[name] as unknown as AnyFn;
  if (typeof original !== 'function') return () => {};
  const wrapped = make(original);
  (obj as Record<string, unknown>)[name] = wrapped;
  return () => {
    if ((obj as Record<string, unknown>)[name] === wrapped) (obj as Record<string, unknown>)[name] = original;
  };
}

function stripQuery(url: string): string {
  return url.split(/[?#]/)[0] ?? url;
}

function text(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value instanceof Error) return `${value.name}: ${value.message}`;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** Device, network and page context for browser events. */
export function installBrowserContext(tracker: ErrorTracker): void {
  const i = tracker.internal;
  i.setDeviceProvider(browserDevice);
  i.setNetworkProvider(browserNetwork);
  i.setLocationProvider(() => {
    const out: { url?: string; referrer?: string } = {};
    if (typeof location !== 'undefined') out.url = location.href;
    if (typeof document !== 'undefined' && document.referrer) out.referrer = document.referrer;
    return out;
  });
}

/** `error` and `unhandledrejection` on window: reported with severity `high`. */
export function installGlobalHandlers(tracker: ErrorTracker): void {
  if (typeof window === 'undefined') return;
  const onError = (event: Event) => {
    const e = event as globalThis.ErrorEvent;
    // Resource load failures are plain Events; "Script error." from other origins says nothing.
    if (!(typeof ErrorEvent !== 'undefined' && e instanceof ErrorEvent)) return;
    if (!e.error && (!e.message || e.message === 'Script error.')) return;
    const error = e.error ?? {
      name: 'Error',
      message: e.message,
      stack: e.filename ? `    at ${e.filename}:${e.lineno}:${e.colno}` : undefined,
    };
    void tracker.internal.capture(error, { metadata: { mechanism: 'onerror', handled: false } }, 'onerror');
  };
  const onRejection = (event: Event) => {
    const reason = (event as PromiseRejectionEvent).reason;
    void tracker.internal.capture(
      reason,
      { metadata: { mechanism: 'onunhandledrejection', handled: false } },
      'onunhandledrejection',
    );
  };
  window.addEventListener('error', onError);
  window.addEventListener('unhandledrejection', onRejection);
  tracker.internal.addCleanup(() => {
    window.removeEventListener('error', onError);
    window.removeEventListener('unhandledrejection', onRejection);
  });
}

/** Automatic breadcrumbs: DOM, history and XHR where they exist; `fetch` and console everywhere. */
export function installBreadcrumbs(tracker: ErrorTracker, options: BreadcrumbOptions = {}): void {
  const add = tracker.addBreadcrumb;
  const cleanup = tracker.internal.addCleanup;
  const own = (url: string) => url.startsWith(tracker.internal.baseUrl);

  if (options.clicks !== false && typeof document !== 'undefined') {
    const onClick = (event: Event) => {
      add({ type: 'click', category: 'ui.click', message: describeElement(event.target as Element) });
    };
    document.addEventListener('click', onClick, true);
    cleanup(() => document.removeEventListener('click', onClick, true));
  }

  if (options.inputs !== false && typeof document !== 'undefined') {
    let last: EventTarget | null = null;
    let lastAt = 0;
    const onInput = (event: Event) => {
      const now = Date.now();
      if (event.target === last && now - lastAt < 1000) {
        lastAt = now;
        return;
      }
      last = event.target;
      lastAt = now;
      add({ type: 'input', category: 'ui.input', message: describeElement(event.target as Element) });
    };
    document.addEventListener('input', onInput, true);
    cleanup(() => document.removeEventListener('input', onInput, true));
  }

  if (options.navigation !== false && typeof history !== 'undefined' && typeof location !== 'undefined') {
    let lastHref = location.href;
    const record = (to: string) => {
      if (to === lastHref) return;
      add({
        type: 'navigation',
        category: 'navigation',
        message: `${stripQuery(lastHref)} → ${stripQuery(to)}`,
        data: { from: stripQuery(lastHref), to: stripQuery(to) },
      });
      lastHref = to;
    };
    for (const method of ['pushState', 'replaceState'] as const) {
      cleanup(
        wrap(
          history,
          method,
          (original) =>
            function (this: History, ...args: unknown[]) {
              const result = original.apply(this, args);
              try {
                record(location.href);
              } catch {
                // never break navigation
              }
              return result;
            },
        ),
      );
    }
    const onPop = () => record(location.href);
    addEventListener('popstate', onPop);
    cleanup(() => removeEventListener('popstate', onPop));
  }

  if (options.fetch !== false && typeof globalThis.fetch === 'function') {
    cleanup(
      wrap(
        globalThis,
        'fetch',
        (original) =>
          function (this: unknown, ...args: unknown[]) {
            const input = args[0] as RequestInfo | URL;
            const init = args[1] as RequestInit | undefined;
            let url = '';
            let method = 'GET';
            try {
              url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
              method = (
                init?.method ?? (typeof input === 'object' && 'method' in input ? input.method : 'GET')
              ).toUpperCase();
            } catch {
              // keep defaults
            }
            if (own(url)) return original.apply(this, args);
            const started = Date.now();
            const crumb = (status: number | undefined, failed: boolean) =>
              add({
                type: 'http',
                category: 'fetch',
                level: failed || (status ?? 0) >= 400 ? 'error' : 'info',
                message: `${method} ${stripQuery(url)}${status !== undefined ? ` [${status}]` : ' [failed]'}`,
                data: {
                  method,
                  url: stripQuery(url),
                  ...(status !== undefined ? { status } : {}),
                  durationMs: Date.now() - started,
                },
              });
            return (original.apply(this, args) as Promise<Response>).then(
              (response) => {
                crumb(response.status, false);
                return response;
              },
              (error: unknown) => {
                crumb(undefined, true);
                throw error;
              },
            );
          },
      ),
    );
  }

  if (options.xhr !== false && typeof XMLHttpRequest !== 'undefined') {
    const meta = new WeakMap<XMLHttpRequest, { method: string; url: string }>();
    const proto = XMLHttpRequest.prototype;
    cleanup(
      wrap(
        proto,
        'open',
        (original) =>
          function (this: XMLHttpRequest, ...args: unknown[]) {
            meta.set(this, { method: String(args[0] ?? 'GET').toUpperCase(), url: String(args[1] ?? '') });
            return original.apply(this, args);
          },
      ),
    );
    cleanup(
      wrap(
        proto,
        'send',
        (original) =>
          function (this: XMLHttpRequest, ...args: unknown[]) {
            const info = meta.get(this);
            if (info && !own(new URL(info.url, location.href).href)) {
              const started = Date.now();
              this.addEventListener('loadend', () => {
                const status = this.status;
                add({
                  type: 'http',
                  category: 'xhr',
                  level: status === 0 || status >= 400 ? 'error' : 'info',
                  message: `${info.method} ${stripQuery(info.url)} [${status || 'failed'}]`,
                  data: { method: info.method, url: stripQuery(info.url), status, durationMs: Date.now() - started },
                });
              });
            }
            return original.apply(this, args);
          },
      ),
    );
  }

  if (options.console !== false && typeof console !== 'undefined') {
    for (const level of ['debug', 'log', 'info', 'warn', 'error'] as const) {
      cleanup(
        wrap(
          console,
          level,
          (original) =>
            function (this: Console, ...args: unknown[]) {
              try {
                add({ type: 'console', category: 'console', level, message: clip(args.map(text).join(' '), 500) });
              } catch {
                // never break logging
              }
              return original.apply(this, args);
            },
        ),
      );
    }
  }
}
