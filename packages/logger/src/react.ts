/**
 * @signpost/logger/react: a provider and a hook, so components log through the app's logger.
 */
import { createContext, createElement, useContext, useMemo, type ReactNode } from 'react';
import type { Logger } from './index.js';

const LoggerContext = createContext<Logger | undefined>(undefined);

/** Makes `logger` available to `useLogger` below it. */
export function LoggerProvider({ logger, children }: { logger: Logger; children?: ReactNode }): ReactNode {
  return createElement(LoggerContext.Provider, { value: logger }, children);
}

const noop = (): void => {};
let warned = false;
const NOOP_LOGGER: Logger = {
  error: noop,
  warn: noop,
  info: noop,
  debug: noop,
  trace: noop,
  log: noop,
  child: () => NOOP_LOGGER,
  setUser: noop,
  setLevel: noop,
  flush: async () => {},
  close: async () => {},
  stats: { queued: 0, sent: 0, dropped: 0 },
};

/**
 * The logger of the nearest `LoggerProvider`, as a child with `defaults` when given (e.g. a
 * component's category). Outside a provider it returns a logger that does nothing (and warns once),
 * so a missing provider never breaks rendering.
 */
export function useLogger(defaults?: { category?: string; source?: string }): Logger {
  const logger = useContext(LoggerContext);
  const category = defaults?.category;
  const source = defaults?.source;
  return useMemo(() => {
    if (!logger) {
      if (!warned && typeof console !== 'undefined')
        console.warn('[signpost] useLogger() is used outside a <LoggerProvider>');
      warned = true;
      return NOOP_LOGGER;
    }
    return category || source
      ? logger.child({ ...(category ? { category } : {}), ...(source ? { source } : {}) })
      : logger;
  }, [logger, category, source]);
}
