import {
  createTransport,
  unrefTimer,
  type ErrorHandler,
  type StorageLike,
  type TransportOptions,
  type Unsubscribe,
} from '@signpost/sdk-core';
import type { Environment, SiteConfig, StatusMessage, VersionInfo } from './types.js';
import { evaluateMaintenance, NO_MAINTENANCE, type MaintenanceState, type Visitor } from './whitelist.js';

export interface SiteManagerOptions extends Omit<TransportOptions, 'apiKey'> {
  /** The project whose configuration to read (GET /site-config needs no API key). */
  projectId: string;
  /** Poll this often; 0 turns polling off. Default 60 000 ms. */
  refreshIntervalMs?: number;
  /** Also refresh when the page becomes visible again (browsers). Default true. */
  refreshOnFocus?: boolean;
  /** Start loading at once. Default true; otherwise call `refresh()`. */
  autoStart?: boolean;
  /**
   * Keeps the last configuration and its ETag across page loads (e.g. `localStorage`), so flags
   * are known at once and the next load is a cheap 304. Default: memory only.
   */
  cache?: StorageLike | null;
  /** A configuration you already have (server rendering); used until the first load. */
  initialConfig?: SiteConfig;
  /** The current user and client IP, for the maintenance whitelist (see `setUser`, `setClientIp`). */
  visitor?: Visitor;
  /** Your app's version, the default of `checkVersion()`. */
  appVersion?: string;
}

/** Sent with the `change` event. */
export interface SiteConfigChange {
  config: SiteConfig;
  previous: SiteConfig | undefined;
  /** Keys of flags that were added, removed or switched. */
  flagsChanged: string[];
  maintenanceChanged: boolean;
  messagesChanged: boolean;
}

export type SiteManagerStatus = 'loading' | 'ready' | 'error';

export interface SiteManager {
  /** Settles (never rejects) after the first load attempt, successful or not. */
  readonly ready: Promise<void>;
  readonly status: SiteManagerStatus;
  /** The last known configuration, or `undefined` before the first load. */
  readonly config: SiteConfig | undefined;
  /** Goes up by one with every `change` event (handy as a snapshot for UI bindings). */
  readonly revision: number;
  /** Loads now (with `If-None-Match`; a 304 keeps the cache). Never rejects; failures go to `onError`. */
  refresh(): Promise<SiteConfig | undefined>;
  /** Whether a flag is on; `defaultValue` while loading, after a failed first load, or for an unknown flag. */
  isEnabled(key: string, defaultValue?: boolean): boolean;
  /** All flags by key. */
  flags(): Record<string, boolean>;
  /** The maintenance state for the current visitor. */
  maintenance(): MaintenanceState;
  /** Active status messages (checked again against `startsAt`/`expiresAt` now), highest priority first. */
  messages(): StatusMessage[];
  environments(): Environment[];
  /** Sets the signed-in user's e-mail for the whitelist (null when signed out). */
  setUser(user: { email?: string } | null): void;
  /** Sets the client's IP for the whitelist; the app must learn it (a browser cannot). */
  setClientIp(ip: string | undefined): void;
  /** GET /version-check; rejects with `ApiError`/`SdkError`. */
  checkVersion(currentVersion?: string): Promise<VersionInfo>;
  /** `change`: the configuration or the visitor's maintenance state changed. `error`: a load failed. */
  on(event: 'change', listener: (change: SiteConfigChange) => void): Unsubscribe;
  on(event: 'error', listener: (error: unknown) => void): Unsubscribe;
  /** Stops polling and removes listeners. */
  close(): void;
}

interface Stored {
  etag: string;
  config: SiteConfig;
}

/** Creates the site manager and (unless `autoStart: false`) starts loading. */
export function createSiteManager(options: SiteManagerOptions): SiteManager {
  const {
    projectId,
    refreshIntervalMs = 60_000,
    refreshOnFocus = true,
    cache,
    visitor: initialVisitor,
    appVersion,
    ...transportOptions
  } = options;
  const transport = createTransport(transportOptions);
  const report: ErrorHandler = transport.report;
  const cacheKey = `signpost.site-config.${projectId}`;
  const listeners = { change: new Set<(c: SiteConfigChange) => void>(), error: new Set<(e: unknown) => void>() };
  const visitor: Visitor = { ...initialVisitor };
  const cleanups: Unsubscribe[] = [];
  let stored: Stored | undefined =
    readCache() ?? (options.initialConfig ? { etag: '', config: options.initialConfig } : undefined);
  let status: SiteManagerStatus = stored ? 'ready' : 'loading';
  let inFlight: Promise<SiteConfig | undefined> | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;
  let revision = 0;
  let gate = maintenance();

  function readCache(): Stored | undefined {
    try {
      const text = cache?.getItem(cacheKey);
      const value = text ? (JSON.parse(text) as Stored) : undefined;
      return value?.config?.maintenance ? value : undefined;
    } catch {
      return undefined;
    }
  }

  function emit<E extends keyof typeof listeners>(event: E, value: Parameters<Parameters<SiteManager['on']>[1]>[0]) {
    if (event === 'change') revision++;
    for (const listener of [...listeners[event]]) {
      try {
        (listener as (v: unknown) => void)(value);
      } catch (error) {
        report(error);
      }
    }
  }

  function schedule() {
    if (closed || refreshIntervalMs <= 0) return;
    clearTimeout(timer);
    timer = unrefTimer(setTimeout(() => void refresh(), refreshIntervalMs));
  }

  function apply(next: SiteConfig) {
    const previous = stored?.config;
    const flagsChanged = diffFlags(previous, next);
    const messagesChanged = JSON.stringify(previous?.messages) !== JSON.stringify(next.messages);
    const maintenanceChanged = JSON.stringify(previous?.maintenance) !== JSON.stringify(next.maintenance);
    return { config: next, previous, flagsChanged, messagesChanged, maintenanceChanged };
  }

  function refresh(): Promise<SiteConfig | undefined> {
    if (closed) return Promise.resolve(stored?.config);
    inFlight ??= (async () => {
      try {
        const response = await transport.request<SiteConfig>('GET', '/site-config', {
          query: { projectId },
          ...(stored?.etag ? { etag: stored.etag } : {}),
        });
        if (response.status !== 304 && response.data) {
          const change = apply(response.data);
          stored = { etag: response.headers.get('etag') ?? '', config: response.data };
          try {
            cache?.setItem(cacheKey, JSON.stringify(stored));
          } catch {
            // Storage full or blocked: the memory cache still works.
          }
          status = 'ready';
          gate = maintenance();
          if (JSON.stringify(change.previous) !== JSON.stringify(change.config)) emit('change', change);
        } else {
          status = 'ready';
        }
      } catch (error) {
        if (!stored) status = 'error';
        report(error);
        emit('error', error);
      } finally {
        inFlight = undefined;
        schedule();
      }
      return stored?.config;
    })();
    return inFlight;
  }

  function maintenance(): MaintenanceState {
    return stored ? evaluateMaintenance(stored.config.maintenance, visitor) : NO_MAINTENANCE;
  }

  function visitorChanged() {
    const before = gate;
    gate = maintenance();
    if (stored && JSON.stringify(before) !== JSON.stringify(gate)) {
      emit('change', {
        config: stored.config,
        previous: stored.config,
        flagsChanged: [],
        maintenanceChanged: true,
        messagesChanged: false,
      });
    }
  }

  if (refreshOnFocus && typeof document !== 'undefined' && typeof document.addEventListener === 'function') {
    const onVisible = () => {
      if (document.visibilityState === 'visible') void refresh();
    };
    document.addEventListener('visibilitychange', onVisible);
    cleanups.push(() => document.removeEventListener('visibilitychange', onVisible));
  }
  const ready = options.autoStart === false ? Promise.resolve() : refresh().then(() => undefined);

  return {
    ready,
    get status() {
      return status;
    },
    get config() {
      return stored?.config;
    },
    get revision() {
      return revision;
    },
    refresh,
    isEnabled(key, defaultValue = false) {
      const flag = stored?.config.featureFlags.find((f) => f.key === key);
      return flag ? flag.enabled : defaultValue;
    },
    flags() {
      const result: Record<string, boolean> = {};
      for (const flag of stored?.config.featureFlags ?? []) result[flag.key] = flag.enabled;
      return result;
    },
    maintenance,
    messages() {
      const now = Date.now();
      return (stored?.config.messages ?? [])
        .filter(
          (m) =>
            m.isActive &&
            (!m.startsAt || Date.parse(m.startsAt) <= now) &&
            (!m.expiresAt || Date.parse(m.expiresAt) > now),
        )
        .sort((a, b) => b.priority - a.priority);
    },
    environments: () => stored?.config.environments ?? [],
    setUser(user) {
      visitor.email = user?.email;
      visitorChanged();
    },
    setClientIp(ip) {
      visitor.ip = ip;
      visitorChanged();
    },
    async checkVersion(currentVersion = appVersion) {
      return (await transport.request<VersionInfo>('GET', '/version-check', { query: { projectId, currentVersion } }))
        .data;
    },
    on(event: 'change' | 'error', listener: (value: never) => void): Unsubscribe {
      const set = listeners[event] as Set<unknown>;
      set.add(listener);
      return () => set.delete(listener);
    },
    close() {
      closed = true;
      clearTimeout(timer);
      for (const cleanup of cleanups.splice(0)) cleanup();
      listeners.change.clear();
      listeners.error.clear();
    },
  };
}

function diffFlags(previous: SiteConfig | undefined, next: SiteConfig): string[] {
  const before = new Map((previous?.featureFlags ?? []).map((f) => [f.key, f.enabled]));
  const after = new Map(next.featureFlags.map((f) => [f.key, f.enabled]));
  const keys = new Set([...before.keys(), ...after.keys()]);
  return [...keys].filter((key) => before.get(key) !== after.get(key)).sort();
}
