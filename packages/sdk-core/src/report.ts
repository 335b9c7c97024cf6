/** Where an SDK's own failures go: the app's handler, else the console. Never thrown. */
export type ErrorHandler = (error: unknown) => void;

/**
 * Builds the safe reporting path for SDK failures. The returned function never throws: it calls
 * the app's `onError` (and falls back to the console if that handler itself throws), or writes a
 * `console.warn` line prefixed with `[signpost]` when there is no handler.
 */
export function createReporter(onError?: ErrorHandler, prefix = '[signpost]'): ErrorHandler {
  return (error: unknown) => {
    try {
      if (onError) {
        onError(error);
        return;
      }
    } catch (handlerError) {
      error = handlerError;
    }
    try {
      // eslint-disable-next-line no-console
      if (typeof console !== 'undefined') console.warn(prefix, error);
    } catch {
      // Nothing left to try: an SDK must never throw into the app.
    }
  };
}

/**
 * Runs `fn` and sends anything it throws (or rejects with) to `report`, returning `fallback`
 * instead. For wrapping SDK entry points the app calls.
 */
export function guard<A extends unknown[], R>(
  report: ErrorHandler,
  fn: (...args: A) => R,
  fallback?: R,
): (...args: A) => R {
  return (...args: A): R => {
    try {
      const result = fn(...args);
      if (result && typeof (result as { then?: unknown }).then === 'function') {
        return (result as unknown as Promise<unknown>).then(undefined, (error) => {
          report(error);
          return fallback;
        }) as unknown as R;
      }
      return result;
    } catch (error) {
      report(error);
      return fallback as R;
    }
  };
}
