/**
 * `@signpost/feature-reporter/updates/react`: `<UpdatesWidget>`, the `<signpost-updates>` element as
 * a React component. Registers the element on first render in the browser; on the server it
 * renders the bare tag, which upgrades on hydration.
 */
import { createElement, useEffect, useRef } from 'react';
import { defineUpdatesWidget, type UpdatesElement, type UpdatesOptions } from './index.js';

export interface UpdatesWidgetProps extends UpdatesOptions {
  /** `bottom-left` (default), `bottom-right` or `inline`. */
  position?: 'bottom-left' | 'bottom-right' | 'inline';
  theme?: 'light' | 'dark';
  /** `en` or `de`; default the page's language. */
  lang?: string;
  className?: string;
}

export function UpdatesWidget({ position, theme, lang, className, ...options }: UpdatesWidgetProps) {
  const ref = useRef<UpdatesElement | null>(null);
  const optionsText = JSON.stringify({ ...options, fetch: undefined, onError: undefined });
  // biome-ignore lint/correctness/useExhaustiveDependencies: `optionsText` stands for the options (a new object each render)
  useEffect(() => {
    defineUpdatesWidget();
    ref.current?.configure(options);
  }, [optionsText]);
  return createElement('signpost-updates', {
    ref,
    ...(position ? { position } : {}),
    ...(theme ? { theme } : {}),
    ...(lang ? { lang } : {}),
    ...(className ? { className } : {}),
    ...(options.nonce ? { nonce: options.nonce } : {}),
  });
}
