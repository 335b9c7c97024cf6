/**
 * @signpost/error-tracker/react: an error boundary that reports render errors to Signpost, and a
 * provider and hook to reach the tracker from components.
 */
import {
  Component,
  createContext,
  createElement,
  useContext,
  type ComponentType,
  type ErrorInfo,
  type ReactNode,
} from 'react';
import type { ErrorTracker } from './client.js';
import { getCurrentTracker } from './index.js';
import type { CaptureContext, Severity } from './types.js';

const TrackerContext = createContext<ErrorTracker | undefined>(undefined);

/** Makes `tracker` the one `useErrorTracker` and `ErrorBoundary` use below it (default: the one `init` created). */
export function ErrorTrackerProvider({
  tracker,
  children,
}: {
  tracker: ErrorTracker;
  children?: ReactNode;
}): ReactNode {
  return createElement(TrackerContext.Provider, { value: tracker }, children);
}

/**
 * The tracker of the nearest `ErrorTrackerProvider`, else the one `init` created. Use it for errors
 * boundaries do not see: event handlers and async code.
 */
export function useErrorTracker(): ErrorTracker | undefined {
  return useContext(TrackerContext) ?? getCurrentTracker();
}

export interface FallbackProps {
  error: unknown;
  componentStack: string;
  /** Clears the error and renders the children again. */
  resetError: () => void;
}

export interface ErrorBoundaryProps {
  children?: ReactNode;
  /** Shown instead of the children after an error: an element, or a function of the error and `resetError`. */
  fallback?: ReactNode | ((props: FallbackProps) => ReactNode);
  /** Called after the error was caught (and sent to Signpost). */
  onError?: (error: unknown, componentStack: string) => void;
  /** Called when `resetError` clears the error. */
  onReset?: (error: unknown) => void;
  /** Adds severity, metadata or an errorType to the report. */
  // biome-ignore lint/suspicious/noConfusingVoidType: a hook that only inspects the error returns nothing
  beforeCapture?: (error: unknown, componentStack: string) => CaptureContext | void;
  /** Default `high`. */
  severity?: Severity;
  /** The tracker to report to. Default: the nearest `ErrorTrackerProvider`'s, else the one `init` created. */
  tracker?: ErrorTracker;
}

interface State {
  hasError: boolean;
  error: unknown;
  componentStack: string;
}

const INITIAL: State = { hasError: false, error: null, componentStack: '' };

/** Reports errors thrown while rendering its children, then shows `fallback`. */
export class ErrorBoundary extends Component<ErrorBoundaryProps, State> {
  static override contextType = TrackerContext;
  declare context: ErrorTracker | undefined;
  override state: State = INITIAL;

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { hasError: true, error };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    const componentStack = info.componentStack ?? '';
    this.setState({ componentStack });
    const tracker = this.props.tracker ?? this.context ?? getCurrentTracker();
    let extra: CaptureContext | undefined;
    try {
      extra = this.props.beforeCapture?.(error, componentStack) || undefined;
    } catch (hookError) {
      tracker?.internal.report(hookError);
    }
    if (tracker) {
      void tracker.internal.capture(
        error,
        {
          severity: extra?.severity ?? this.props.severity ?? 'high',
          ...(extra?.errorType ? { errorType: extra.errorType } : {}),
          metadata: {
            mechanism: 'react-error-boundary',
            handled: true,
            componentStack: componentStack.slice(0, 5000),
            ...extra?.metadata,
          },
        },
        'react-error-boundary',
      );
    }
    try {
      this.props.onError?.(error, componentStack);
    } catch (hookError) {
      tracker?.internal.report(hookError);
    }
  }

  resetError = (): void => {
    const { error } = this.state;
    this.setState(INITIAL);
    this.props.onReset?.(error);
  };

  override render(): ReactNode {
    if (!this.state.hasError) return this.props.children ?? null;
    const { fallback } = this.props;
    if (typeof fallback === 'function') {
      return fallback({
        error: this.state.error,
        componentStack: this.state.componentStack,
        resetError: this.resetError,
      });
    }
    return fallback ?? null;
  }
}

/** Wraps a component in an `ErrorBoundary`. */
export function withErrorBoundary<P extends object>(
  Wrapped: ComponentType<P>,
  boundaryProps: ErrorBoundaryProps = {},
): ComponentType<P> {
  const WithBoundary = (props: P) => createElement(ErrorBoundary, boundaryProps, createElement(Wrapped, props));
  WithBoundary.displayName = `withErrorBoundary(${Wrapped.displayName ?? Wrapped.name ?? 'Component'})`;
  return WithBoundary;
}
