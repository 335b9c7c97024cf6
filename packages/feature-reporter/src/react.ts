/**
 * `@signpost/feature-reporter/react`: a provider, hooks for the public board and a `<FeedbackWidget>`
 * component. `react` (18 or later) is an optional peer dependency.
 */
import {
  createContext,
  createElement,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { createFeatureReporter, type FeatureReporter, type FeatureReporterOptions } from './client.js';
import type { Changelog, FeatureList, ListFeaturesQuery, PageQuery, Roadmap, RoadmapQuery } from './types.js';
import { defineFeedbackWidget, type FeedbackWidgetElement, type FeedbackWidgetOptions } from './widget/index.js';

const Context = createContext<FeatureReporter | null>(null);

export interface FeatureReporterProviderProps {
  /** A client you made with `createFeatureReporter`, or… */
  client?: FeatureReporter;
  /** …options to make one (created once). */
  options?: FeatureReporterOptions;
  children?: ReactNode;
}

/** Makes a feature-reporter client available to `useFeatureReporter` and the board hooks. */
export function FeatureReporterProvider({ client, options, children }: FeatureReporterProviderProps) {
  // biome-ignore lint/correctness/useExhaustiveDependencies: options are read once, on the first render (documented); a new object each render must not make a new client
  const value = useMemo(() => client ?? (options ? createFeatureReporter(options) : null), [client]);
  if (!value) throw new Error('FeatureReporterProvider needs `client` or `options`');
  return createElement(Context.Provider, { value }, children);
}

/** The client from the nearest `FeatureReporterProvider`. */
export function useFeatureReporter(): FeatureReporter {
  const client = useContext(Context);
  if (!client) throw new Error('useFeatureReporter must be used inside <FeatureReporterProvider>');
  return client;
}

/** The state of one read: `data` once loaded, `error` (ApiError/SdkError) when it failed. */
export interface AsyncState<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  /** Loads again (after a vote, a new submission…). */
  reload(): void;
}

function useRead<T>(read: (client: FeatureReporter) => Promise<T>, key: unknown): AsyncState<T> {
  const client = useFeatureReporter();
  const [state, setState] = useState<{ data: T | undefined; error: unknown; loading: boolean }>({
    data: undefined,
    error: undefined,
    loading: true,
  });
  const [round, setRound] = useState(0);
  const keyText = JSON.stringify(key);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `read` is a new closure each render; `keyText` (what it reads) and `round` (reload) are what should refetch
  useEffect(() => {
    let live = true;
    setState((s) => ({ ...s, loading: true }));
    read(client).then(
      (data) => live && setState({ data, error: undefined, loading: false }),
      (error: unknown) => live && setState((s) => ({ data: s.data, error, loading: false })),
    );
    return () => {
      live = false;
    };
  }, [client, keyText, round]);
  const reload = useCallback(() => setRound((n) => n + 1), []);
  return { ...state, reload };
}

/** GET /features. */
export function useFeatures(query: ListFeaturesQuery = {}): AsyncState<FeatureList> {
  return useRead((c) => c.listFeatures(query), query);
}

/** GET /roadmap. */
export function useRoadmap(query: RoadmapQuery = {}): AsyncState<Roadmap> {
  return useRead((c) => c.getRoadmap(query), query);
}

/** GET /changelog. */
export function useChangelog(query: PageQuery = {}): AsyncState<Changelog> {
  return useRead((c) => c.getChangelog(query), query);
}

export interface FeedbackWidgetProps extends FeedbackWidgetOptions {
  /** `bottom-right` (default), `bottom-left` or `inline`. */
  position?: 'bottom-right' | 'bottom-left' | 'inline';
  /** Force a theme; default follows `prefers-color-scheme`. */
  theme?: 'light' | 'dark';
  className?: string;
  onSubmitted?: (event: CustomEvent) => void;
}

/**
 * The `<signpost-feedback>` widget as a component. Registers the element on first render in the
 * browser; renders the bare tag on the server (it upgrades on hydration).
 */
export function FeedbackWidget({ position, theme, className, onSubmitted, ...options }: FeedbackWidgetProps) {
  const ref = useRef<FeedbackWidgetElement | null>(null);
  useEffect(() => {
    defineFeedbackWidget();
    ref.current?.configure(options);
  });
  useEffect(() => {
    const element = ref.current;
    if (!element || !onSubmitted) return;
    const listener = (event: Event) => onSubmitted(event as CustomEvent);
    element.addEventListener('signpost-feedback-submit', listener);
    return () => element.removeEventListener('signpost-feedback-submit', listener);
  }, [onSubmitted]);
  return createElement('signpost-feedback', {
    ref,
    ...(position ? { position } : {}),
    ...(theme ? { theme } : {}),
    ...(className ? { className } : {}),
    ...(options.nonce ? { nonce: options.nonce } : {}),
  });
}
