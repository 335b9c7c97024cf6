/**
 * `@signpost/site-manager/react`: a provider and hooks. `react` (18+) is an optional peer dependency.
 * Hooks re-render on configuration changes; flags answer their default while loading.
 */
import {
  createContext,
  createElement,
  useContext,
  useEffect,
  useMemo,
  useState,
  useSyncExternalStore,
  type ReactNode,
} from 'react';
import { createSiteManager, type SiteManager, type SiteManagerOptions } from './manager.js';
import type { SiteConfig, StatusMessage, VersionInfo } from './types.js';
import type { MaintenanceState } from './whitelist.js';

const Context = createContext<SiteManager | null>(null);

export interface SiteManagerProviderProps {
  /** A manager you made with `createSiteManager`, or… */
  manager?: SiteManager;
  /** …options to make one (created once, for the life of the page). */
  options?: SiteManagerOptions;
  children?: ReactNode;
}

/** Makes a site manager available to the hooks below. */
export function SiteManagerProvider({ manager, options, children }: SiteManagerProviderProps) {
  // On the server (rendering) nothing is fetched or polled: pass `initialConfig` from your loader.
  // biome-ignore lint/correctness/useExhaustiveDependencies: options are read once, on the first render (documented); a new object each render must not make a new client
  const value = useMemo(
    () =>
      manager ??
      (options
        ? createSiteManager(
            typeof window === 'undefined' ? { ...options, autoStart: false, refreshIntervalMs: 0 } : options,
          )
        : null),
    [manager],
  );
  if (!value) throw new Error('SiteManagerProvider needs `manager` or `options`');
  return createElement(Context.Provider, { value }, children);
}

/** The manager from the nearest `SiteManagerProvider`. */
export function useSiteManager(): SiteManager {
  const manager = useContext(Context);
  if (!manager) throw new Error('useSiteManager must be used inside <SiteManagerProvider>');
  return manager;
}

function useSelect<T>(select: (manager: SiteManager) => T): T {
  const manager = useSiteManager();
  // Re-render on every change event; the selection itself is cheap.
  useSyncExternalStore(
    (notify) => manager.on('change', notify),
    () => manager.revision,
    () => manager.revision,
  );
  return select(manager);
}

/** The whole configuration (`undefined` while loading). */
export function useSiteConfig(): SiteConfig | undefined {
  return useSelect((m) => m.config);
}

/** One flag; `defaultValue` while loading or when the flag does not exist. */
export function useFeatureFlag(key: string, defaultValue = false): boolean {
  return useSelect((m) => m.isEnabled(key, defaultValue));
}

/** The maintenance state for the current visitor. */
export function useMaintenance(): MaintenanceState {
  return useSelect((m) => m.maintenance());
}

/** Active status messages, highest priority first. */
export function useStatusMessages(): StatusMessage[] {
  return useSelect((m) => m.messages());
}

/** The version check for `currentVersion` (default: the manager's `appVersion`). */
export function useVersionCheck(currentVersion?: string): { data: VersionInfo | undefined; error: unknown } {
  const manager = useSiteManager();
  const [state, setState] = useState<{ data: VersionInfo | undefined; error: unknown }>({
    data: undefined,
    error: undefined,
  });
  useEffect(() => {
    let live = true;
    manager.checkVersion(currentVersion).then(
      (data) => live && setState({ data, error: undefined }),
      (error: unknown) => live && setState({ data: undefined, error }),
    );
    return () => {
      live = false;
    };
  }, [manager, currentVersion]);
  return state;
}
