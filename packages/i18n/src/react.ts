/**
 * `@signpost/i18n/react`: `I18nProvider` and `useTranslation`. `react` (18+) is an optional peer dependency.
 */
import { createContext, createElement, useContext, useMemo, useSyncExternalStore, type ReactNode } from 'react';
import { createI18n, type I18n, type I18nOptions, type TranslateOptions } from './client.js';
import type { TranslationValues } from './format.js';

const Context = createContext<I18n | null>(null);

export interface I18nProviderProps {
  /** A translator you made with `createI18n`, or… */
  i18n?: I18n;
  /** …options to make one (created once). */
  options?: I18nOptions;
  children?: ReactNode;
}

export function I18nProvider({ i18n, options, children }: I18nProviderProps) {
  // biome-ignore lint/correctness/useExhaustiveDependencies: options are read once, on the first render (documented); a new object each render must not make a new client
  const value = useMemo(() => i18n ?? (options ? createI18n(options) : null), [i18n]);
  if (!value) throw new Error('I18nProvider needs `i18n` or `options`');
  return createElement(Context.Provider, { value }, children);
}

export interface UseTranslation {
  t(key: string, values?: TranslationValues, options?: TranslateOptions): string;
  locale: string;
  setLocale(locale: string): Promise<void>;
  /** False until the first translations arrived (or failed). */
  ready: boolean;
  i18n: I18n;
}

/** The translator; re-renders when the locale changes or translations arrive. */
export function useTranslation(): UseTranslation {
  const i18n = useContext(Context);
  if (!i18n) throw new Error('useTranslation must be used inside <I18nProvider>');
  useSyncExternalStore(
    (notify) => i18n.on('change', notify),
    () => i18n.revision,
    () => i18n.revision,
  );
  return { t: i18n.t, locale: i18n.locale, setLocale: i18n.setLocale, ready: i18n.isReady, i18n };
}
