/**
 * `@signpost/feature-reporter/roadmap/react`: `<RoadmapWidget>`, the `<signpost-roadmap>` element
 * as a React component (registers it on first render in the browser; bare tag on the server).
 */
import { createElement, useEffect, useRef } from 'react';
import { defineRoadmapWidget, type RoadmapElement, type RoadmapOptions } from './index.js';

export interface RoadmapWidgetProps extends RoadmapOptions {
  theme?: 'light' | 'dark';
  lang?: string;
  className?: string;
}

export function RoadmapWidget({ theme, lang, className, ...options }: RoadmapWidgetProps) {
  const ref = useRef<RoadmapElement | null>(null);
  const optionsText = JSON.stringify({ ...options, fetch: undefined, onError: undefined });
  // biome-ignore lint/correctness/useExhaustiveDependencies: `optionsText` stands for the options (a new object each render)
  useEffect(() => {
    defineRoadmapWidget();
    ref.current?.configure(options);
  }, [optionsText]);
  return createElement('signpost-roadmap', {
    ref,
    ...(theme ? { theme } : {}),
    ...(lang ? { lang } : {}),
    ...(className ? { className } : {}),
    ...(options.nonce ? { nonce: options.nonce } : {}),
  });
}
